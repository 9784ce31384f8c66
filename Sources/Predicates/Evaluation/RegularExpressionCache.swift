import Synchronization

/// Compiled whole-string regular expressions, shared by all evaluations so that a predicate run over many
/// objects compiles its pattern once.
final class RegularExpressionCache: Sendable {
    static let shared = RegularExpressionCache()

    private struct Key: Hashable { let pattern: String; let caseInsensitive: Bool }

    private let entries = Mutex<[Key: CompiledRegularExpression]>([:])
    private static let capacity = 128

    /// The compiled form of `pattern` (already folded; `original` is the pattern as written, for messages).
    func expression(
        _ pattern: String, original: String, caseInsensitive: Bool
    ) throws(PredicateEvaluationError) -> CompiledRegularExpression {
        let key = Key(pattern: pattern, caseInsensitive: caseInsensitive)
        if let cached = entries.withLock({ $0[key] }) { return cached }
        let compiled = try CompiledRegularExpression(
            pattern: original, compiledPattern: pattern, caseInsensitive: caseInsensitive)
        entries.withLock { entries in
            if entries.count >= Self.capacity { entries.removeAll() }
            entries[key] = compiled
        }
        return compiled
    }
}
