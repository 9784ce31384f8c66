extension PredicateNode {
    /// A relative estimate of the work to evaluate the predicate once, following Apple's guidance in the Core
    /// Data performance sessions: numeric and equality tests are cheapest, then `BEGINSWITH`/`ENDSWITH`, then
    /// `CONTAINS`, `LIKE` and `MATCHES`; `[c]`/`[d]` folding costs more than `[n]`; collections, collection
    /// operators and subqueries multiply the cost. The units are arbitrary; only comparisons are meaningful.
    public var estimatedCost: Int {
        switch self {
        case .constant: return 0
        case .comparison(let comparison): return comparison.estimatedCost
        case .and(let subpredicates), .or(let subpredicates): return subpredicates.reduce(0) { $0 + $1.estimatedCost }
        case .not(let subpredicate): return subpredicate.estimatedCost
        case .block: return 100
        }
    }

    /// An equivalent predicate whose `AND` and `OR` operands run cheapest first (stable for equal costs), so that
    /// short-circuiting skips the expensive tests ("cheap comparisons first").
    ///
    /// Evaluation has no side effects, so the result is the same; only which of several failing operands reports
    /// an evaluation error may change.
    public func reorderedByEstimatedCost() -> PredicateNode {
        func reorder(_ subpredicates: [PredicateNode]) -> [PredicateNode] {
            subpredicates.map { $0.reorderedByEstimatedCost() }
                .enumerated()
                .sorted { ($0.element.estimatedCost, $0.offset) < ($1.element.estimatedCost, $1.offset) }
                .map(\.element)
        }
        switch self {
        case .constant, .comparison, .block: return self
        case .and(let subpredicates): return .and(reorder(subpredicates))
        case .or(let subpredicates): return .or(reorder(subpredicates))
        case .not(let subpredicate): return .not(subpredicate.reorderedByEstimatedCost())
        }
    }
}

extension ComparisonNode {
    /// The estimate for one comparison; see ``PredicateNode/estimatedCost``.
    public var estimatedCost: Int {
        let operatorCost: Int
        switch operatorType {
        case .equalTo, .notEqualTo, .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo: operatorCost = 1
        case .between, .beginsWith, .endsWith: operatorCost = 2
        case .contains, .in: operatorCost = 4
        case .like: operatorCost = 6
        case .matches: operatorCost = 20
        case .customSelector: operatorCost = 20
        }
        var foldingFactor = 1
        if !options.contains(.normalized) {
            if options.contains(.caseInsensitive) { foldingFactor += 1 }
            if options.contains(.diacriticInsensitive) { foldingFactor += 1 }
        }
        let collectionFactor = modifier == .direct ? 1 : 8
        return (left.estimatedCost + right.estimatedCost + operatorCost * foldingFactor) * collectionFactor
    }
}

extension ExpressionNode {
    /// The estimate for computing one expression; see ``PredicateNode/estimatedCost``.
    public var estimatedCost: Int {
        switch self {
        case .constant, .evaluatedObject, .variable: return 0
        case .keyPath(let path):
            let components = path.split(separator: ".")
            return components.count + 8 * components.filter { $0.hasPrefix("@") }.count
        case .keyPathOnExpression(let base, let path): return base.estimatedCost + path.split(separator: ".").count
        case .function(let name, let arguments):
            let aggregates: Set<String> = ["sum:", "count:", "min:", "max:", "average:", "median:", "mode:", "stddev:"]
            return (aggregates.contains(name) ? 8 : 1) + arguments.reduce(0) { $0 + $1.estimatedCost }
        case .customFunction(let receiver, _, let arguments):
            return 4 + arguments.reduce(receiver.estimatedCost) { $0 + $1.estimatedCost }
        case .index(let collection, _): return 1 + collection.estimatedCost
        case .aggregate(let elements): return elements.reduce(0) { $0 + $1.estimatedCost }
        case .setOperation(let left, _, let right): return 8 + left.estimatedCost + right.estimatedCost
        case .subquery(let collection, _, let predicate): return collection.estimatedCost + 16 * max(1, predicate.estimatedCost)
        case .conditional(let condition, let whenTrue, let whenFalse):
            return condition.estimatedCost + max(whenTrue.estimatedCost, whenFalse.estimatedCost)
        case .anyKey: return 8
        case .fetch(let request, let context, _): return 64 + request.estimatedCost + context.estimatedCost
        }
    }
}
