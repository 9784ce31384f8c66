import Foundation
import KeyValueCoding

extension Parser {
    /// primary ::= literal | key | SELF | $variable | @operator | %-argument | "{" list "}" | "(" expression ")"
    ///           | function call | SUBQUERY(…) | FUNCTION(…) | CAST(…) | TERNARY(…) | ANYKEY
    mutating func parsePrimary() throws(PredicateSyntaxError) -> ExpressionNode {
        let token = current
        switch token.kind {
        case .string(let text): advance(); return .constant(.string(text))
        case .integer(let value): advance(); return .constant(.integer(value))
        case .double(let value): advance(); return .constant(.double(value))
        case .variable(let name): advance(); return .variable(name)
        case .atIdentifier(let name):
            try checkCollectionOperator(name)
            advance()
            return .keyPath("@" + name)
        case .identifier(let name):
            advance()
            guard isPunctuation(.leftParenthesis) else { return .keyPath(name) }
            return try parseBareFunctionCall(name: name, nameToken: token)
        case .selectorPart:
            return try parseSelectorFunctionCall()
        case .formatArgument(let conversion):
            return try formatArgumentExpression(conversion)
        case .punctuation(.leftBrace):
            advance()
            try enterNesting()
            defer { leaveNesting() }
            return .aggregate(try parseExpressionList(until: .rightBrace))
        case .punctuation(.leftParenthesis):
            advance()
            try enterNesting()
            defer { leaveNesting() }
            let expression = try parseExpression()
            try expect(.rightParenthesis, " to close the parenthesis")
            return expression
        case .keyword(let keyword):
            return try parseKeywordPrimary(keyword)
        default:
            throw error(expected: "an expression")
        }
    }

    private mutating func parseKeywordPrimary(_ keyword: Keyword) throws(PredicateSyntaxError) -> ExpressionNode {
        switch keyword {
        case .true, .yes: advance(); return .constant(.bool(true))
        case .false, .no: advance(); return .constant(.bool(false))
        case .null, .nil: advance(); return .constant(.null)
        case .self: advance(); return .evaluatedObject
        case .anyKey: advance(); return .anyKey
        case .subquery: return try parseSubquery()
        case .function: return try parseCustomFunction()
        case .cast: return try parseCast()
        case .ternary: return try parseTernary()
        case .fetch: return try parseFetch()
        default:
            throw error(expected: "an expression (write #\(keyword.rawValue.lowercased()) to use a reserved word as a key)")
        }
    }

    /// Advances past a keyword and its "(", counting one level of nesting (the caller leaves it).
    private mutating func openCall() throws(PredicateSyntaxError) {
        advance()
        try expect(.leftParenthesis)
        try enterNesting()
    }

    /// `sum(x)`, `now()`: a function written with its bare name.
    private mutating func parseBareFunctionCall(name: String, nameToken: Token) throws(PredicateSyntaxError) -> ExpressionNode {
        advance()
        try enterNesting()
        defer { leaveNesting() }
        let arguments = try parseExpressionList(until: .rightParenthesis)
        guard let selector = FunctionCatalog.selectorName(forBareName: name, argumentCount: arguments.count) else {
            throw PredicateSyntaxError(format: format, offset: nameToken.offset,
                                       expected: "a known function (sum, count, min, max, average, now, lowercase …)",
                                       found: "function '\(name)'")
        }
        return try checkedFunction(selector, arguments, nameToken: nameToken)
    }

    /// `multiply:by:(5, 3)`: a function written with its selector name.
    private mutating func parseSelectorFunctionCall() throws(PredicateSyntaxError) -> ExpressionNode {
        let nameToken = current
        var selector = ""
        while case .selectorPart(let part) = currentKind {
            selector += part + ":"
            advance()
        }
        guard isPunctuation(.leftParenthesis) else { throw error(expected: "'(' after the function name '\(selector)'") }
        advance()
        try enterNesting()
        defer { leaveNesting() }
        let arguments = try parseExpressionList(until: .rightParenthesis)
        return try checkedFunction(selector, arguments, nameToken: nameToken)
    }

    private func checkedFunction(_ selector: String, _ arguments: [ExpressionNode], nameToken: Token) throws(PredicateSyntaxError) -> ExpressionNode {
        guard FunctionCatalog.arities[selector] != nil else {
            throw PredicateSyntaxError(format: format, offset: nameToken.offset, expected: "a known function",
                                       found: "function '\(selector)'")
        }
        guard FunctionCatalog.accepts(selector, argumentCount: arguments.count) else {
            let wanted: String
            switch FunctionCatalog.arities[selector] {
            case .exactly(let n): wanted = "\(n) argument\(n == 1 ? "" : "s")"
            default: wanted = "at least 1 argument"
            }
            throw PredicateSyntaxError(format: format, offset: nameToken.offset, expected: "\(wanted) for \(selector)",
                                       found: "\(arguments.count)")
        }
        if selector == "castObject:toType:" { return castExpression(arguments[0], arguments[1]) }
        if selector == "objectFrom:withIndex:" { return .index(arguments[0], .at(arguments[1])) }
        return .function(selector, arguments)
    }

    /// SUBQUERY(collection, $variable, predicate)
    private mutating func parseSubquery() throws(PredicateSyntaxError) -> ExpressionNode {
        try openCall()
        defer { leaveNesting() }
        let collection = try parseExpression()
        try expect(.comma, " after the SUBQUERY collection")
        guard case .variable(let variable) = currentKind else { throw error(expected: "a $variable naming the SUBQUERY element") }
        advance()
        try expect(.comma, " after the SUBQUERY variable")
        let predicate = try parsePredicate()
        try expect(.rightParenthesis, " to close SUBQUERY")
        return .subquery(collection: collection, variable: variable, predicate: predicate)
    }

    /// FUNCTION(receiver, "selector", arguments…)
    private mutating func parseCustomFunction() throws(PredicateSyntaxError) -> ExpressionNode {
        try openCall()
        defer { leaveNesting() }
        let receiver = try parseExpression()
        try expect(.comma, " after the FUNCTION receiver")
        let selectorToken = current
        guard case .constant(.string(let selector)) = try parseExpression(), !selector.isEmpty else {
            throw error(expected: "the selector name as a string", at: selectorToken)
        }
        var arguments: [ExpressionNode] = []
        while consume(.comma) { arguments.append(try parseExpression()) }
        try expect(.rightParenthesis, " or ',' in FUNCTION")
        return .customFunction(receiver: receiver, selector: selector, arguments: arguments)
    }

    /// CAST(value, "Type")
    private mutating func parseCast() throws(PredicateSyntaxError) -> ExpressionNode {
        try openCall()
        defer { leaveNesting() }
        let value = try parseExpression()
        try expect(.comma, " after the value to CAST")
        let typeToken = current
        let type = try parseExpression()
        guard case .constant(.string) = type else { throw error(expected: "the type name as a string, such as \"NSDate\"", at: typeToken) }
        try expect(.rightParenthesis, " to close CAST")
        return castExpression(value, type)
    }

    /// A cast of a number to `NSDate` is the date constant itself; other casts stay function calls.
    private func castExpression(_ value: ExpressionNode, _ type: ExpressionNode) -> ExpressionNode {
        if case .constant(.string("NSDate")) = type, case .constant(let constant) = value, let number = constant.numericValue {
            return .constant(.date(Date(timeIntervalSinceReferenceDate: number.doubleValue)))
        }
        return .function("castObject:toType:", [value, type])
    }

    /// FETCH(request, context, countOnly), where countOnly is YES or NO (1 or 0).
    private mutating func parseFetch() throws(PredicateSyntaxError) -> ExpressionNode {
        try openCall()
        defer { leaveNesting() }
        let request = try parseExpression()
        try expect(.comma, " after the FETCH request")
        let context = try parseExpression()
        try expect(.comma, " after the FETCH context")
        let flagToken = current
        let countOnly: Bool
        switch try parseExpression() {
        case .constant(.bool(let flag)): countOnly = flag
        case .constant(.integer(let flag)) where flag == 0 || flag == 1: countOnly = flag == 1
        default: throw error(expected: "YES or NO (whether FETCH only counts)", at: flagToken)
        }
        try expect(.rightParenthesis, " to close FETCH")
        return .fetch(request: request, context: context, countOnly: countOnly)
    }

    /// TERNARY(predicate, whenTrue, whenFalse)
    private mutating func parseTernary() throws(PredicateSyntaxError) -> ExpressionNode {
        try openCall()
        defer { leaveNesting() }
        let condition = try parsePredicate()
        try expect(.comma, " after the TERNARY condition")
        let whenTrue = try parseExpression()
        try expect(.comma, " after the TERNARY true value")
        let whenFalse = try parseExpression()
        try expect(.rightParenthesis, " to close TERNARY")
        return .conditional(condition, whenTrue, whenFalse)
    }
}
