extension Parser {
    /// predicate ::= and { (OR | ||) and }
    mutating func parsePredicate() throws(PredicateSyntaxError) -> PredicateNode {
        let first = try parseAndPredicate()
        guard isOrOperator else { return first }
        var subpredicates = [first]
        while isOrOperator {
            advance()
            subpredicates.append(try parseAndPredicate())
        }
        return .or(subpredicates)
    }

    private var isOrOperator: Bool { isKeyword(.or) || isPunctuation(.doublePipe) }
    private var isAndOperator: Bool { isKeyword(.and) || isPunctuation(.doubleAmpersand) }

    /// and ::= not { (AND | &&) not }
    private mutating func parseAndPredicate() throws(PredicateSyntaxError) -> PredicateNode {
        let first = try parseNotPredicate()
        guard isAndOperator else { return first }
        var subpredicates = [first]
        while isAndOperator {
            advance()
            subpredicates.append(try parseNotPredicate())
        }
        return .and(subpredicates)
    }

    /// not ::= (NOT | !) not | atom
    private mutating func parseNotPredicate() throws(PredicateSyntaxError) -> PredicateNode {
        guard isKeyword(.not) || isPunctuation(.exclamation) else { return try parseAtomPredicate() }
        advance()
        try enterNesting()
        defer { leaveNesting() }
        return .not(try parseNotPredicate())
    }

    /// atom ::= TRUEPREDICATE | FALSEPREDICATE | "(" predicate ")" | comparison
    ///
    /// A parenthesis may open a predicate or an expression (`(a + 1) * 2 > 3`): the predicate reading is
    /// tried first and kept only when what follows the `)` cannot continue an expression.
    private mutating func parseAtomPredicate() throws(PredicateSyntaxError) -> PredicateNode {
        if isKeyword(.truePredicate) { advance(); return .constant(true) }
        if isKeyword(.falsePredicate) { advance(); return .constant(false) }
        guard isPunctuation(.leftParenthesis) else { return try parseComparison() }
        let start = checkpoint
        let predicateError: PredicateSyntaxError
        switch parenthesizedPredicates[start.index] {
        case .accepted(let predicate, let end)?:
            restore(Checkpoint(index: end.index, argumentIndex: end.argumentIndex, depth: start.depth))
            return predicate
        case .rejected(let error)?:
            predicateError = error
        case nil:
            do {
                advance()
                try enterNesting()
                defer { leaveNesting() }
                let predicate = try parsePredicate()
                try expect(.rightParenthesis, " to close the parenthesis")
                if !continuesExpression {
                    parenthesizedPredicates[start.index] = .accepted(predicate, checkpoint)
                    return predicate
                }
                predicateError = error(expected: "AND, OR, ')' or the end of the predicate")
            } catch {
                predicateError = error
            }
            parenthesizedPredicates[start.index] = .rejected(predicateError)
        }
        restore(start)
        do {
            return try parseComparison()
        } catch {
            throw error.offset >= predicateError.offset ? error : predicateError
        }
    }

    /// Whether the current token can continue an expression or start a comparison operator.
    private var continuesExpression: Bool {
        switch currentKind {
        case .punctuation(let symbol):
            return [.dot, .leftBracket, .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual,
                    .plus, .minus, .star, .slash, .doubleStar, .ampersand, .pipe, .caret].contains(symbol)
        case .keyword(let keyword):
            return [.in, .contains, .like, .matches, .beginsWith, .endsWith, .between, .union, .intersect, .minus]
                .contains(keyword)
        default:
            return false
        }
    }

    /// comparison ::= [ANY | SOME | ALL | NONE] expression operator [options] expression
    private mutating func parseComparison() throws(PredicateSyntaxError) -> PredicateNode {
        var modifier = ComparisonModifier.direct
        var negated = false
        switch currentKind {
        case .keyword(.any), .keyword(.some): modifier = .any; advance()
        case .keyword(.all): modifier = .all; advance()
        case .keyword(.none): modifier = .any; negated = true; advance()
        default: break
        }
        let left = try parseExpression()
        let operatorToken = current
        guard let operatorType = comparisonOperator(operatorToken.kind) else {
            throw error(expected: "a comparison operator (==, !=, <, >, <=, >=, IN, CONTAINS, BEGINSWITH, ENDSWITH, LIKE, MATCHES or BETWEEN)")
        }
        advance()
        let options = try parseOptions(for: operatorType)
        let right = try parseExpression()
        if operatorType == .between, case .aggregate(let bounds) = right, bounds.count != 2 {
            throw error(expected: "two bounds {low, high} after BETWEEN", at: operatorToken)
        }
        let comparison = PredicateNode.comparison(ComparisonNode(left, operatorType, right, modifier: modifier, options: options))
        return negated ? .not(comparison) : comparison
    }

    private func comparisonOperator(_ kind: Token.Kind) -> ComparisonOperator? {
        switch kind {
        case .punctuation(.equal): .equalTo
        case .punctuation(.notEqual): .notEqualTo
        case .punctuation(.less): .lessThan
        case .punctuation(.lessOrEqual): .lessThanOrEqualTo
        case .punctuation(.greater): .greaterThan
        case .punctuation(.greaterOrEqual): .greaterThanOrEqualTo
        case .keyword(.in): .in
        case .keyword(.contains): .contains
        case .keyword(.like): .like
        case .keyword(.matches): .matches
        case .keyword(.beginsWith): .beginsWith
        case .keyword(.endsWith): .endsWith
        case .keyword(.between): .between
        default: nil
        }
    }

    /// options ::= "[" letters from c, d, n "]", directly after the operator.
    private mutating func parseOptions(for operatorType: ComparisonOperator) throws(PredicateSyntaxError) -> ComparisonOptions {
        guard isPunctuation(.leftBracket) else { return [] }
        guard operatorType != .between else { throw error(expected: "the bounds of BETWEEN (it takes no options)") }
        advance()
        guard case .identifier(let letters) = currentKind else {
            throw error(expected: "comparison options: c, d or n")
        }
        var options: ComparisonOptions = []
        for letter in letters.lowercased() {
            switch letter {
            case "c": options.insert(.caseInsensitive)
            case "d": options.insert(.diacriticInsensitive)
            case "n": options.insert(.normalized)
            default: throw error(expected: "comparison options: c, d or n")
            }
        }
        advance()
        try expect(.rightBracket, " to close the comparison options")
        return options
    }
}
