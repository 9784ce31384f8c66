import Foundation

/// Foundation's string semantics for the comparison operators and their `[c]`, `[d]`, `[n]` options.
///
/// Without options equality and the substring tests are literal (code point by code point, as `NSString`'s
/// `isEqual:` and a literal search are); `[c]`/`[d]` use Foundation's case and diacritic folding, which also
/// treats canonically equivalent strings (`é` and `e` + U+0301) as equal; `[n]` declares the strings already
/// normalised, so it compares literally and fast.
enum StringComparison {
    static func searchOptions(_ options: ComparisonOptions) -> String.CompareOptions {
        if options.contains(.normalized) || options.isEmpty { return .literal }
        var result: String.CompareOptions = []
        if options.contains(.caseInsensitive) { result.insert(.caseInsensitive) }
        if options.contains(.diacriticInsensitive) { result.insert(.diacriticInsensitive) }
        return result
    }

    static func equal(_ a: String, _ b: String, options: ComparisonOptions) -> Bool {
        let search = searchOptions(options)
        if search == .literal { return a.unicodeScalars.elementsEqual(b.unicodeScalars) }
        return a.compare(b, options: search) == .orderedSame
    }

    /// `<` and friends: `compare(_:)` (locale-independent), with folding for `[c]`/`[d]`, literal for `[n]`.
    static func compare(_ a: String, _ b: String, options: ComparisonOptions) -> ComparisonResult {
        if options.contains(.normalized) { return a.compare(b, options: .literal) }
        return a.compare(b, options: options.isEmpty ? [] : searchOptions(options))
    }

    static func hasPrefix(_ text: String, _ prefix: String, options: ComparisonOptions) -> Bool {
        !prefix.isEmpty && text.range(of: prefix, options: searchOptions(options).union(.anchored)) != nil
    }

    static func hasSuffix(_ text: String, _ suffix: String, options: ComparisonOptions) -> Bool {
        !suffix.isEmpty && text.range(of: suffix, options: searchOptions(options).union([.anchored, .backwards])) != nil
    }

    static func contains(_ text: String, _ part: String, options: ComparisonOptions) -> Bool {
        !part.isEmpty && text.range(of: part, options: searchOptions(options)) != nil
    }

    /// Applies `[c]`/`[d]` folding (locale-independent) for LIKE and MATCHES.
    static func folded(_ text: String, options: ComparisonOptions, includeCase: Bool = true) -> String {
        var folding: String.CompareOptions = []
        if options.contains(.normalized) { return text }
        if includeCase && options.contains(.caseInsensitive) { folding.insert(.caseInsensitive) }
        if options.contains(.diacriticInsensitive) { folding.insert(.diacriticInsensitive) }
        return folding.isEmpty ? text : text.folding(options: folding, locale: nil)
    }

    /// LIKE: `*` matches any run of characters (newlines included), `?` exactly one character (a grapheme
    /// cluster, so one emoji), `\` makes the next character literal; everything else is literal.
    static func like(_ text: String, _ pattern: String, options: ComparisonOptions) -> Bool {
        LikePattern(folded(pattern, options: options)).matches(Array(folded(text, options: options)))
    }

    /// MATCHES: the whole string against an ICU regular expression, under ``RegularExpressionLimits``.
    /// `[c]` makes the expression case-insensitive; `[d]` folds diacritics in both the string and the pattern.
    static func matches(_ text: String, _ pattern: String, options: ComparisonOptions) throws(PredicateEvaluationError) -> Bool {
        try matches(text, try matchesExpression(pattern, options: options), options: options)
    }

    /// The compiled expression MATCHES uses for `pattern` (folded for `[d]`, case-insensitive for `[c]`).
    static func matchesExpression(_ pattern: String, options: ComparisonOptions) throws(PredicateEvaluationError) -> CompiledRegularExpression {
        let caseInsensitive = options.contains(.caseInsensitive) && !options.contains(.normalized)
        return try RegularExpressionCache.shared.expression(
            folded(pattern, options: options, includeCase: false), original: pattern, caseInsensitive: caseInsensitive)
    }

    /// MATCHES with the expression already compiled by ``matchesExpression(_:options:)``.
    static func matches(_ text: String, _ expression: CompiledRegularExpression, options: ComparisonOptions) throws(PredicateEvaluationError) -> Bool {
        try expression.matches(folded(text, options: options, includeCase: false))
    }

    /// Whether `expression` matches `subject`, which is already folded.
    static func matches(subject: String, _ expression: CompiledRegularExpression) throws(PredicateEvaluationError) -> Bool {
        try expression.matches(subject)
    }
}
