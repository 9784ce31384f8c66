import KeyValueCoding

extension Parser {
    /// expression ::= additive { (UNION | INTERSECT | MINUS) additive }
    mutating func parseExpression() throws(PredicateSyntaxError) -> ExpressionNode {
        var left = try parseAdditive()
        var chainLength = 0
        while case .keyword(let keyword) = currentKind, let operation = SetOperation(rawValue: keyword.rawValue) {
            try extendChain(&chainLength)
            advance()
            left = .setOperation(left, operation, try parseAdditive())
        }
        depth -= chainLength
        return left
    }

    /// Left-associative chains nest the tree as deeply as parentheses would, so they count towards the limit.
    private mutating func extendChain(_ chainLength: inout Int) throws(PredicateSyntaxError) {
        try enterNesting()
        chainLength += 1
    }

    /// additive ::= multiplicative { ("+" | "-" | "&" | "|" | "^") multiplicative }
    private mutating func parseAdditive() throws(PredicateSyntaxError) -> ExpressionNode {
        var left = try parseMultiplicative()
        var chainLength = 0
        while case .punctuation(let symbol) = currentKind, [.plus, .minus, .ampersand, .pipe, .caret].contains(symbol),
              let function = FunctionCatalog.functionsByInfixSymbol[symbol.rawValue] {
            try extendChain(&chainLength)
            advance()
            left = .function(function, [left, try parseMultiplicative()])
        }
        depth -= chainLength
        return left
    }

    /// multiplicative ::= power { ("*" | "/") power }
    private mutating func parseMultiplicative() throws(PredicateSyntaxError) -> ExpressionNode {
        var left = try parsePower()
        var chainLength = 0
        while case .punctuation(let symbol) = currentKind, symbol == .star || symbol == .slash,
              let function = FunctionCatalog.functionsByInfixSymbol[symbol.rawValue] {
            try extendChain(&chainLength)
            advance()
            left = .function(function, [left, try parsePower()])
        }
        depth -= chainLength
        return left
    }

    /// power ::= unary [ "**" power ]   (right-associative)
    private mutating func parsePower() throws(PredicateSyntaxError) -> ExpressionNode {
        let base = try parseUnary()
        guard consume(.doubleStar) else { return base }
        try enterNesting()
        defer { leaveNesting() }
        return .function("raise:toPower:", [base, try parsePower()])
    }

    /// unary ::= "-" unary | postfix. A negated number is folded into a negative constant.
    private mutating func parseUnary() throws(PredicateSyntaxError) -> ExpressionNode {
        guard consume(.minus) else { return try parsePostfix() }
        try enterNesting()
        defer { leaveNesting() }
        let operand = try parseUnary()
        switch operand {
        case .constant(.integer(let value)) where value != Int64.min: return .constant(.integer(-value))
        case .constant(.integer(let value)): return .constant(.double(-Double(value)))
        case .constant(.double(let value)): return .constant(.double(-value))
        case .constant(.decimal(let value)): return .constant(.decimal(-value))
        default: return .function("from:subtract:", [.constant(.integer(0)), operand])
        }
    }

    /// postfix ::= primary { "." component | "[" index "]" }
    private mutating func parsePostfix() throws(PredicateSyntaxError) -> ExpressionNode {
        var expression = try parsePrimary()
        var chainLength = 0
        defer { depth -= chainLength }
        while true {
            if consume(.dot) {
                let component = try parseKeyPathComponent()
                switch expression {
                case .evaluatedObject: expression = .keyPath(component)
                case .keyPath(let path): expression = .keyPath(path + "." + component)
                case .keyPathOnExpression(let base, let path): expression = .keyPathOnExpression(base, path + "." + component)
                default:
                    try extendChain(&chainLength)
                    expression = .keyPathOnExpression(expression, component)
                }
            } else if isPunctuation(.leftBracket) {
                advance()
                try extendChain(&chainLength)
                expression = .index(canonical(expression), try parseIndexSelector())
            } else {
                return canonical(expression)
            }
        }
    }

    private func canonical(_ expression: ExpressionNode) -> ExpressionNode {
        if case .keyPath(let path) = expression { return .canonicalKeyPath(path) }
        return expression
    }

    /// component ::= identifier | "#" word | "@" operator | %K
    private mutating func parseKeyPathComponent() throws(PredicateSyntaxError) -> String {
        switch currentKind {
        case .identifier(let name):
            advance()
            return name
        case .atIdentifier(let name):
            try checkCollectionOperator(name)
            advance()
            return "@" + name
        case .formatArgument(.keyPath):
            return try keyPathArgument()
        case .keyword(let keyword):
            throw error(expected: "a key after '.' (write #\(keyword.rawValue.lowercased()) to use a reserved word as a key)")
        default:
            throw error(expected: "a key after '.'")
        }
    }

    func checkCollectionOperator(_ name: String) throws(PredicateSyntaxError) {
        guard CollectionOperator(rawValue: name) != nil else {
            throw error(expected: "a collection operator (@count, @sum, @avg, @min, @max, @distinctUnionOfObjects, @unionOfObjects, @distinctUnionOfArrays, @unionOfArrays, @distinctUnionOfSets)")
        }
    }

    /// index ::= FIRST | LAST | SIZE | expression, then "]".
    private mutating func parseIndexSelector() throws(PredicateSyntaxError) -> IndexSelector {
        let selector: IndexSelector
        switch currentKind {
        case .keyword(.first): advance(); selector = .first
        case .keyword(.last): advance(); selector = .last
        case .keyword(.size): advance(); selector = .size
        default: selector = .at(try parseExpression())
        }
        try expect(.rightBracket, " to close the index")
        return selector
    }

    /// A comma-separated list up to `closing`, which is consumed.
    mutating func parseExpressionList(until closing: Punctuation) throws(PredicateSyntaxError) -> [ExpressionNode] {
        var items: [ExpressionNode] = []
        if consume(closing) { return items }
        repeat {
            items.append(try parseExpression())
        } while consume(.comma)
        try expect(closing, items.isEmpty ? "" : " or ','")
        return items
    }
}
