/// A predicate as a Sendable value: the data behind ``NSPredicate`` and its subclasses.
///
/// Walk it with a `switch`; every case is a complete description (no hidden state lives in the classes):
/// ```swift
/// func visit(_ node: PredicateNode) {
///     switch node {
///     case .constant(let value): …            // TRUEPREDICATE / FALSEPREDICATE
///     case .comparison(let comparison): …     // left, operator, right, modifier, options
///     case .and(let subpredicates), .or(let subpredicates): …
///     case .not(let subpredicate): …
///     }
/// }
/// ```
/// The parser builds flat `.and`/`.or` lists for chains (`a AND b AND c`) and keeps explicitly
/// parenthesised compounds nested, so printing and re-parsing gives the same value.
public indirect enum PredicateNode: Sendable, Hashable {
    /// `TRUEPREDICATE` (true) or `FALSEPREDICATE` (false).
    case constant(Bool)
    /// `left op right`, possibly with `ANY`/`ALL` and string options.
    case comparison(ComparisonNode)
    /// All subpredicates hold; an empty list is true.
    case and([PredicateNode])
    /// Some subpredicate holds; an empty list is false.
    case or([PredicateNode])
    /// The subpredicate does not hold. `NONE x op y` parses as `.not(ANY x op y)`.
    case not(PredicateNode)
}

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
