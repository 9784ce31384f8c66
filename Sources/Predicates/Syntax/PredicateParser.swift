import Foundation

/// Parses predicate and expression format strings into ``PredicateNode`` and ``ExpressionNode`` values.
///
/// A recursive-descent parser over the grammar of the predicate reference (B1.3). Its recursion is bounded
/// by ``maximumNestingDepth``, so hostile input (10,000 nested parentheses) is an error, never a stack overflow.
public enum PredicateParser {
    /// How deeply parentheses, `NOT`s, unary minuses, function calls and arithmetic chains may nest.
    ///
    /// The deepest input this admits needs under 256 KB of stack in a release build and about 2 MB in a debug
    /// build (measured with Swift 6.3.1 on x86-64), well within Linux's default 8 MB thread stacks.
    public static let maximumNestingDepth = 100

    /// Parses a whole predicate, substituting `arguments` for its `%@`, `%K`, `%d` … conversions in order.
    public static func parsePredicate(_ format: String, arguments: [Any?] = []) throws(PredicateSyntaxError) -> PredicateNode {
        var parser = try Parser(format: format, arguments: arguments)
        let predicate = try parser.parsePredicate()
        try parser.expectEnd(after: "a predicate")
        return predicate
    }

    /// Parses a whole expression, such as `"pages.@count"` or `"sum:(1, 2)"`.
    public static func parseExpression(_ format: String, arguments: [Any?] = []) throws(PredicateSyntaxError) -> ExpressionNode {
        var parser = try Parser(format: format, arguments: arguments)
        let expression = try parser.parseExpression()
        try parser.expectEnd(after: "an expression")
        return expression
    }
}

/// The parser's state: the tokens, the position, the arguments consumed so far and the nesting depth.
struct Parser {
    let format: String
    let tokens: [Token]
    let arguments: [Any?]
    var index = 0
    var argumentIndex = 0
    var depth = 0
    /// Outcomes of reading `(` at a token index as a parenthesised predicate, so that backtracking never
    /// re-parses the same parenthesis (without it, `(TERNARY((TERNARY(…` takes exponential time).
    var parenthesizedPredicates: [Int: ParenthesizedPredicate] = [:]

    /// A remembered reading of a parenthesis as a predicate.
    enum ParenthesizedPredicate {
        /// The predicate and the position after its `)`.
        case accepted(PredicateNode, Checkpoint)
        /// Not a predicate (or one followed by more expression): the error to report if nothing else parses.
        case rejected(PredicateSyntaxError)
    }

    init(format: String, arguments: [Any?]) throws(PredicateSyntaxError) {
        self.format = format
        self.tokens = try Lexer.tokenize(format)
        self.arguments = arguments
    }

    // MARK: Token access

    var current: Token { tokens[index] }
    var currentKind: Token.Kind { tokens[index].kind }
    var nextKind: Token.Kind { tokens[min(index + 1, tokens.count - 1)].kind }

    mutating func advance() { if index < tokens.count - 1 { index += 1 } }

    func error(expected: String, at token: Token? = nil) -> PredicateSyntaxError {
        let token = token ?? current
        return PredicateSyntaxError(format: format, offset: token.offset, expected: expected, found: token.kind.errorDescription)
    }

    func isPunctuation(_ symbol: Punctuation) -> Bool { currentKind == .punctuation(symbol) }
    func isKeyword(_ keyword: Keyword) -> Bool { currentKind == .keyword(keyword) }

    mutating func consume(_ symbol: Punctuation) -> Bool {
        guard isPunctuation(symbol) else { return false }
        advance()
        return true
    }

    mutating func expect(_ symbol: Punctuation, _ context: String = "") throws(PredicateSyntaxError) {
        guard consume(symbol) else { throw error(expected: "'\(symbol.rawValue)'\(context)") }
    }

    mutating func expectEnd(after what: String) throws(PredicateSyntaxError) {
        guard currentKind == .end else {
            let what = what == "a predicate" ? "AND, OR or the end of the predicate" : "an operator or the end of the expression"
            throw error(expected: what)
        }
    }

    /// Counts one level of nesting; every call is paired with `leaveNesting()`.
    mutating func enterNesting() throws(PredicateSyntaxError) {
        depth += 1
        if depth > PredicateParser.maximumNestingDepth {
            throw error(expected: "at most \(PredicateParser.maximumNestingDepth) levels of nesting")
        }
    }

    mutating func leaveNesting() { depth -= 1 }

    /// A saved position for backtracking.
    struct Checkpoint { let index: Int; let argumentIndex: Int; let depth: Int }

    var checkpoint: Checkpoint { Checkpoint(index: index, argumentIndex: argumentIndex, depth: depth) }

    mutating func restore(_ checkpoint: Checkpoint) {
        index = checkpoint.index
        argumentIndex = checkpoint.argumentIndex
        depth = checkpoint.depth
    }
}
