import Foundation
import Synchronization

/// Compiled whole-string regular expressions, shared by all evaluations so that a predicate run over many
/// objects compiles its pattern once.
final class RegularExpressionCache: Sendable {
    static let shared = RegularExpressionCache()

    /// `NSRegularExpression` is immutable once built; the box lets it cross the lock.
    private struct Entry: @unchecked Sendable { let expression: NSRegularExpression }
    private struct Key: Hashable { let pattern: String; let caseInsensitive: Bool }

    private let entries = Mutex<[Key: Entry]>([:])
    private static let capacity = 128

    func expression(_ pattern: String, caseInsensitive: Bool) throws(PredicateEvaluationError) -> NSRegularExpression {
        let key = Key(pattern: pattern, caseInsensitive: caseInsensitive)
        if let cached = entries.withLock({ $0[key] }) { return cached.expression }
        let compiled: NSRegularExpression
        do {
            // Anchored at both ends: MATCHES tests the whole string, not a substring.
            compiled = try NSRegularExpression(
                pattern: "\\A(?:" + pattern + ")\\z", options: caseInsensitive ? [.caseInsensitive] : [])
        } catch {
            throw PredicateEvaluationError("invalid regular expression for MATCHES: \(pattern)")
        }
        entries.withLock { entries in
            if entries.count >= Self.capacity { entries.removeAll() }
            entries[key] = Entry(expression: compiled)
        }
        return compiled
    }
}
