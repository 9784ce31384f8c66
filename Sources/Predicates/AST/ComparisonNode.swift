/// A comparison `left op right`: the data behind ``NSComparisonPredicate``.
public struct ComparisonNode: Sendable, Hashable {
    /// The left operand; with a modifier of `.any` or `.all` it evaluates to a collection.
    public var left: ExpressionNode
    /// The comparison operator.
    public var operatorType: ComparisonOperator
    /// The right operand (for `BETWEEN`, a two-element collection; for `IN`, a collection or string).
    public var right: ExpressionNode
    /// `ANY`/`SOME`, `ALL`, or `.direct`.
    public var modifier: ComparisonModifier
    /// The `[c]`, `[d]`, `[n]` options.
    public var options: ComparisonOptions

    /// Makes a comparison.
    public init(
        _ left: ExpressionNode, _ operatorType: ComparisonOperator, _ right: ExpressionNode,
        modifier: ComparisonModifier = .direct, options: ComparisonOptions = []
    ) {
        self.left = left
        self.operatorType = operatorType
        self.right = right
        self.modifier = modifier
        self.options = options
    }
}
