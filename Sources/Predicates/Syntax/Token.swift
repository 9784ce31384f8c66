/// A lexical token of a predicate format string, with its UTF-8 position.
struct Token: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        /// A C identifier, or `#word` (a reserved word used as a name).
        case identifier(String)
        case keyword(Keyword)
        case string(String)
        case integer(Int64)
        case double(Double)
        /// `$name`.
        case variable(String)
        /// `@name`, a collection operator.
        case atIdentifier(String)
        /// `name:` directly followed by more of a selector (`multiply:by:`).
        case selectorPart(String)
        case formatArgument(FormatConversion)
        case punctuation(Punctuation)
        case end
    }

    var kind: Kind
    /// UTF-8 offset of the first byte.
    var offset: Int
    /// UTF-8 length.
    var length: Int
}

/// Reserved words, matched case-insensitively.
enum Keyword: String, Sendable, CaseIterable {
    case and = "AND", or = "OR", `in` = "IN", not = "NOT", all = "ALL", any = "ANY", some = "SOME", none = "NONE"
    case like = "LIKE", caseInsensitive = "CASEINSENSITIVE", ci = "CI", matches = "MATCHES", contains = "CONTAINS"
    case beginsWith = "BEGINSWITH", endsWith = "ENDSWITH", between = "BETWEEN"
    case null = "NULL", `nil` = "NIL", `self` = "SELF", `true` = "TRUE", yes = "YES", `false` = "FALSE", no = "NO"
    case first = "FIRST", last = "LAST", size = "SIZE", anyKey = "ANYKEY", subquery = "SUBQUERY", cast = "CAST"
    case truePredicate = "TRUEPREDICATE", falsePredicate = "FALSEPREDICATE"
    case function = "FUNCTION", ternary = "TERNARY", union = "UNION", intersect = "INTERSECT", minus = "MINUS"
    case fetch = "FETCH"

    /// Keywords by their upper-case spelling.
    static let byUppercasedSpelling: [String: Keyword] = Dictionary(
        uniqueKeysWithValues: allCases.map { ($0.rawValue, $0) })

    /// Whether `word` is reserved, so that it must be written `#word` as a key.
    static func isReserved(_ word: String) -> Bool { byUppercasedSpelling[word.uppercased()] != nil }
}

/// Operators and delimiters.
enum Punctuation: String, Sendable, CaseIterable {
    case leftParenthesis = "(", rightParenthesis = ")", leftBrace = "{", rightBrace = "}"
    case leftBracket = "[", rightBracket = "]", comma = ",", dot = ".", assign = ":="
    case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
    case doubleAmpersand = "&&", doublePipe = "||", exclamation = "!"
    case plus = "+", minus = "-", star = "*", slash = "/", doubleStar = "**"
    case ampersand = "&", pipe = "|", caret = "^"
}

/// A `%` conversion in a format string.
enum FormatConversion: Sendable, Equatable {
    /// `%@`: any object, substituted as a constant.
    case object
    /// `%K`: a key path, given as a string.
    case keyPath
    /// `%d`, `%i`, `%ld`, `%u`, `%x`, `%o`, `%c` …: an integer.
    case integer(String)
    /// `%f`, `%e`, `%g` …: a floating-point number.
    case floatingPoint(String)
    /// `%s`: a string, substituted as a string constant.
    case string
    /// `%%`: the text "%".
    case percent
}

extension Token.Kind {
    /// How the token is described in an error message.
    var errorDescription: String {
        switch self {
        case .identifier(let name): "'\(name)'"
        case .keyword(let keyword): "keyword '\(keyword.rawValue)'"
        case .string(let text): "string \"\(text.count > 20 ? String(text.prefix(20)) + "…" : text)\""
        case .integer(let value): "number \(value)"
        case .double(let value): "number \(value)"
        case .variable(let name): "variable $\(name)"
        case .atIdentifier(let name): "'@\(name)'"
        case .selectorPart(let name): "'\(name):'"
        case .formatArgument: "a format argument"
        case .punctuation(let symbol): "'\(symbol.rawValue)'"
        case .end: "end of input"
        }
    }

    /// Whether an expression may end with this token, which makes a following `.` a key-path dot rather
    /// than the start of a number such as `.5`.
    var endsOperand: Bool {
        switch self {
        case .identifier, .string, .integer, .double, .variable, .atIdentifier, .formatArgument: true
        case .keyword(let keyword): [.self, .first, .last, .size, .null, .nil, .true, .false, .yes, .no].contains(keyword)
        case .punctuation(let symbol): [.rightParenthesis, .rightBracket, .rightBrace].contains(symbol)
        default: false
        }
    }
}
