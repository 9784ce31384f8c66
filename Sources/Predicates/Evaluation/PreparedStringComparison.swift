import Foundation

/// A string comparison with a fixed right operand, `text OP[options] constant`, prepared once to test many texts.
///
/// Its result is always ``PredicateEvaluator/compare(_:_:_:options:)``'s for two strings; it is only faster when
/// the same constant meets many texts, as in a SQL function called once per row:
///
/// - The constant's UTF-8 bytes are kept, and a MATCHES expression is compiled (and folded for `[d]`) once.
/// - When the text and the constant are both plain ASCII (bytes 1–127), the comparison is decided on their bytes,
///   with ASCII lowercasing for `[c]`, without making a `String`; Foundation's folding of such text is exactly that.
/// - Anything else (non-ASCII text, NUL, CR LF under LIKE) goes through the evaluator's own comparison.
///
/// ```swift
/// let test = try PreparedStringComparison(.contains, "OIN", options: [.caseInsensitive, .diacriticInsensitive])
/// try test.evaluate("Coin")    // true
/// try test.evaluate("Köln")    // false, decided by Foundation's folding
/// ```
public final class PreparedStringComparison {
    /// The operator, applied as `text OP constant`.
    public let operatorType: ComparisonOperator
    /// The comparison options.
    public let options: ComparisonOptions
    /// The right operand.
    public let constant: String

    private let constantBytes: [UInt8]
    /// Whether the constant allows the byte path at all.
    private let constantIsPlain: Bool
    /// `[c]` without `[n]`: bytes are compared after ASCII lowercasing.
    private let foldsCase: Bool
    /// LIKE's pattern on bytes, lowercased for `[c]`; nil unless the constant is plain.
    private let likePattern: LikePattern<UInt8>?
    /// MATCHES's compiled expression.
    private let expression: CompiledRegularExpression?
    /// MATCHES with `[d]`: the subject is folded unless it is plain ASCII.
    private let foldsSubject: Bool

    /// Prepares `text OP constant` for the string operators: `==`, `!=`, `<`, `<=`, `>`, `>=`, BEGINSWITH,
    /// ENDSWITH, CONTAINS, LIKE, MATCHES and IN (`text IN constant`: the text is a substring of the constant).
    ///
    /// - Throws: ``PredicateEvaluationError`` for an invalid MATCHES expression, or an operator that does not
    ///   compare two strings (BETWEEN, FUNCTION).
    public init(
        _ operatorType: ComparisonOperator, _ constant: String, options: ComparisonOptions = []
    ) throws(PredicateEvaluationError) {
        if operatorType == .between || operatorType == .customSelector {
            throw PredicateEvaluationError("\(operatorType.formatSymbol) does not compare two strings")
        }
        self.operatorType = operatorType
        self.options = options
        self.constant = constant
        constantBytes = Array(constant.utf8)
        constantIsPlain = constantBytes.withUnsafeBufferPointer {
            PlainASCII.isPlain($0, allowingCarriageReturn: operatorType != .like)
        }
        let normalized = options.contains(.normalized)
        foldsCase = options.contains(.caseInsensitive) && !normalized
        foldsSubject = operatorType == .matches && options.contains(.diacriticInsensitive) && !normalized
        if operatorType == .like && constantIsPlain {
            let pattern = foldsCase ? constantBytes.map(PlainASCII.lowercase) : constantBytes
            likePattern = LikePattern(pattern, star: UInt8(ascii: "*"), question: UInt8(ascii: "?"), escape: UInt8(ascii: "\\"))
        } else {
            likePattern = nil
        }
        expression = operatorType == .matches ? try StringComparison.matchesExpression(constant, options: options) : nil
    }

    /// Whether `text OP constant` holds.
    public func evaluate(_ text: String) throws(PredicateEvaluationError) -> Bool {
        // Native strings are contiguous UTF-8; a bridged one takes the general path.
        if let decided = text.utf8.withContiguousStorageIfAvailable({ plainResult($0) }), let decided {
            return decided
        }
        return try generalResult(text, isPlain: false)
    }

    /// Whether `text OP constant` holds, for the text as UTF-8 bytes (invalid sequences are repaired as `String`
    /// repairs them).
    public func evaluate(utf8 text: UnsafeBufferPointer<UInt8>) throws(PredicateEvaluationError) -> Bool {
        if let decided = plainResult(text) { return decided }
        // Only MATCHES with [d] needs to know: plain ASCII has no diacritics to fold.
        let isPlain = foldsSubject && PlainASCII.isPlain(text)
        return try generalResult(String(decoding: text, as: UTF8.self), isPlain: isPlain)
    }

    /// The result decided on bytes, or nil when the text or the constant is not plain ASCII (or for MATCHES).
    private func plainResult(_ text: UnsafeBufferPointer<UInt8>) -> Bool? {
        guard constantIsPlain, expression == nil,
              PlainASCII.isPlain(text, allowingCarriageReturn: operatorType != .like)
        else { return nil }
        let folds = foldsCase
        if let likePattern {
            return folds ? likePattern.matches(text.lazy.map(PlainASCII.lowercase)) : likePattern.matches(text)
        }
        return constantBytes.withUnsafeBufferPointer { constant -> Bool? in
            switch operatorType {
            case .equalTo: return PlainASCII.equal(text, constant, foldingCase: folds)
            case .notEqualTo: return !PlainASCII.equal(text, constant, foldingCase: folds)
            case .lessThan: return PlainASCII.compare(text, constant, foldingCase: folds) == .ascending
            case .lessThanOrEqualTo: return PlainASCII.compare(text, constant, foldingCase: folds) != .descending
            case .greaterThan: return PlainASCII.compare(text, constant, foldingCase: folds) == .descending
            case .greaterThanOrEqualTo: return PlainASCII.compare(text, constant, foldingCase: folds) != .ascending
            case .beginsWith: return PlainASCII.hasPrefix(text, constant, foldingCase: folds)
            case .endsWith: return PlainASCII.hasSuffix(text, constant, foldingCase: folds)
            case .contains: return PlainASCII.contains(text, constant, foldingCase: folds)
            case .in: return PlainASCII.contains(constant, text, foldingCase: folds)
            case .like, .matches, .between, .customSelector: return nil
            }
        }
    }

    /// The evaluator's comparison; for MATCHES the prepared expression, skipping `[d]` folding of plain ASCII.
    private func generalResult(_ text: String, isPlain: Bool) throws(PredicateEvaluationError) -> Bool {
        if let expression {
            if foldsSubject && !isPlain { return try StringComparison.matches(text, expression, options: options) }
            return try StringComparison.matches(subject: text, expression)
        }
        return try ValueComparison.test(.string(text), operatorType, .string(constant), options: options)
    }
}
