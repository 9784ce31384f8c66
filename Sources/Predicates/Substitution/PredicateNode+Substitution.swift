extension PredicateNode {
    /// The predicate with each `$variable` named in `values` replaced by its value (a collection becomes an
    /// aggregate, as a `%@` argument does). Variables not in `values`, and `SUBQUERY` iteration variables
    /// inside their subquery, stay as they are.
    public func substitutingVariables(_ values: [String: ConstantValue]) -> PredicateNode {
        switch self {
        case .constant, .block:
            return self
        case .comparison(var comparison):
            comparison.left = comparison.left.substitutingVariables(values)
            comparison.right = comparison.right.substitutingVariables(values)
            return .comparison(comparison)
        case .and(let subpredicates): return .and(subpredicates.map { $0.substitutingVariables(values) })
        case .or(let subpredicates): return .or(subpredicates.map { $0.substitutingVariables(values) })
        case .not(let subpredicate): return .not(subpredicate.substitutingVariables(values))
        }
    }

    /// The names of the `$variables` the predicate uses freely (not SUBQUERY iteration variables).
    public var variableNames: Set<String> {
        switch self {
        case .constant, .block: []
        case .comparison(let comparison): comparison.left.variableNames.union(comparison.right.variableNames)
        case .and(let subpredicates), .or(let subpredicates): subpredicates.reduce(into: []) { $0.formUnion($1.variableNames) }
        case .not(let subpredicate): subpredicate.variableNames
        }
    }
}

extension ExpressionNode {
    /// The expression with the variables named in `values` replaced; see ``PredicateNode/substitutingVariables(_:)``.
    public func substitutingVariables(_ values: [String: ConstantValue]) -> ExpressionNode {
        func substitute(_ node: ExpressionNode) -> ExpressionNode { node.substitutingVariables(values) }
        switch self {
        case .constant, .evaluatedObject, .keyPath, .anyKey:
            return self
        case .variable(let name):
            guard let value = values[name] else { return self }
            return Parser.expression(forObjectArgument: value)
        case .keyPathOnExpression(let base, let path):
            return .keyPathOnExpression(substitute(base), path)
        case .function(let name, let arguments):
            return .function(name, arguments.map(substitute))
        case .customFunction(let receiver, let selector, let arguments):
            return .customFunction(receiver: substitute(receiver), selector: selector, arguments: arguments.map(substitute))
        case .index(let collection, let selector):
            if case .at(let position) = selector { return .index(substitute(collection), .at(substitute(position))) }
            return .index(substitute(collection), selector)
        case .aggregate(let elements):
            return .aggregate(elements.map(substitute))
        case .setOperation(let left, let operation, let right):
            return .setOperation(substitute(left), operation, substitute(right))
        case .subquery(let collection, let variable, let predicate):
            var inner = values
            inner[variable] = nil
            return .subquery(collection: substitute(collection), variable: variable,
                             predicate: predicate.substitutingVariables(inner))
        case .conditional(let condition, let whenTrue, let whenFalse):
            return .conditional(condition.substitutingVariables(values), substitute(whenTrue), substitute(whenFalse))
        case .fetch(let request, let context, let countOnly):
            return .fetch(request: substitute(request), context: substitute(context), countOnly: countOnly)
        }
    }

    /// The names of the `$variables` the expression uses freely.
    public var variableNames: Set<String> {
        switch self {
        case .constant, .evaluatedObject, .keyPath, .anyKey: return []
        case .variable(let name): return [name]
        case .keyPathOnExpression(let base, _): return base.variableNames
        case .function(_, let arguments), .aggregate(let arguments):
            return arguments.reduce(into: []) { $0.formUnion($1.variableNames) }
        case .customFunction(let receiver, _, let arguments):
            return arguments.reduce(into: receiver.variableNames) { $0.formUnion($1.variableNames) }
        case .index(let collection, let selector):
            if case .at(let position) = selector { return collection.variableNames.union(position.variableNames) }
            return collection.variableNames
        case .setOperation(let left, _, let right): return left.variableNames.union(right.variableNames)
        case .subquery(let collection, let variable, let predicate):
            return collection.variableNames.union(predicate.variableNames.subtracting([variable]))
        case .conditional(let condition, let whenTrue, let whenFalse):
            return condition.variableNames.union(whenTrue.variableNames).union(whenFalse.variableNames)
        case .fetch(let request, let context, _): return request.variableNames.union(context.variableNames)
        }
    }
}
