import Foundation

/// A comparison of two expressions, Apple's `NSComparisonPredicate`.
open class NSComparisonPredicate: NSPredicate, @unchecked Sendable {
    /// Apple's operator type, with its raw values.
    public typealias Operator = ComparisonOperator
    /// Apple's modifier type (`direct`, `all`, `any`).
    public typealias Modifier = ComparisonModifier
    /// Apple's string options (`caseInsensitive`, `diacriticInsensitive`, `normalized`).
    public typealias Options = ComparisonOptions

    /// The comparison this predicate holds.
    public let comparisonNode: ComparisonNode

    /// Wraps a `.comparison` node; any other node is a programmer error.
    public override init(predicateNode: PredicateNode) {
        guard case .comparison(let comparison) = predicateNode else {
            preconditionFailure("NSComparisonPredicate needs a comparison, got \(predicateNode.predicateFormat)")
        }
        comparisonNode = comparison
        super.init(predicateNode: predicateNode)
    }

    /// Apple's designated initializer.
    public convenience init(
        leftExpression lhs: NSExpression, rightExpression rhs: NSExpression,
        modifier: Modifier, type: Operator, options: Options = []
    ) {
        self.init(predicateNode: .comparison(ComparisonNode(
            lhs.expressionNode, type, rhs.expressionNode, modifier: modifier, options: options)))
    }

    /// The left operand.
    public var leftExpression: NSExpression { NSExpression(expressionNode: comparisonNode.left) }
    /// The right operand.
    public var rightExpression: NSExpression { NSExpression(expressionNode: comparisonNode.right) }
    /// The operator.
    public var predicateOperatorType: Operator { comparisonNode.operatorType }
    /// `ANY`, `ALL` or direct.
    public var comparisonPredicateModifier: Modifier { comparisonNode.modifier }
    /// The `[c]`, `[d]`, `[n]` options.
    public var options: Options { comparisonNode.options }
}
