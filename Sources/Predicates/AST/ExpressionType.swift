/// The kind of an expression, with the raw values of Apple's `NSExpression.ExpressionType`.
public enum ExpressionType: UInt, Sendable, Hashable, CaseIterable {
    case constantValue = 0
    case evaluatedObject = 1
    case variable = 2
    case keyPath = 3
    case function = 4
    case unionSet = 5
    case intersectSet = 6
    case minusSet = 7
    case subquery = 13
    case aggregate = 14
    case anyKey = 15
    case block = 19
    case conditional = 20
    /// Core Data's `NSFetchRequestExpressionType`: `FETCH(request, context, countOnly)`.
    case fetchRequest = 50
}
