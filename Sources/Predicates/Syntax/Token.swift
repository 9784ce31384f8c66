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
