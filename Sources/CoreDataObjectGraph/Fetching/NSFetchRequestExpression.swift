import Foundation
import Predicates

/// Core Data's `NSFetchRequestExpressionType` (50): the type of a `FETCH(request, context, countOnly)` expression.
public let NSFetchRequestExpressionType = Predicates.ExpressionType.fetchRequest

/// Core Data's fetch request expression: `FETCH(request, context, countOnly)`, what a request finds in a managed object
/// context (or how many), as a mapping model's source expressions select the source instances.
///
/// `NSExpression(format: "FETCH(…)")` gives the same expression as a plain `NSExpression` (a Swift initialiser cannot
/// return a subclass); read its parts from ``Predicates/NSExpression/expressionNode`` there, or build one with
/// ``expression(forFetch:context:countOnly:)`` to have this class.
open class NSFetchRequestExpression: Predicates.NSExpression, @unchecked Sendable {
    /// `FETCH(fetch, context, countFlag)`: `fetch` evaluates to a fetch request, `context` to the managed object context
    /// that runs it; with `countFlag` the value is the number of objects found.
    open class func expression(forFetch fetch: Predicates.NSExpression, context: Predicates.NSExpression,
                               countOnly countFlag: Bool) -> Predicates.NSExpression {
        NSFetchRequestExpression(expressionNode: .fetch(request: fetch.expressionNode, context: context.expressionNode, countOnly: countFlag))
    }

    private var parts: (request: ExpressionNode, context: ExpressionNode, countOnly: Bool) {
        guard case .fetch(let request, let context, let countOnly) = expressionNode else {
            preconditionFailure("NSFetchRequestExpression holds \(predicateFormat), not a FETCH expression")
        }
        return (request, context, countOnly)
    }

    /// The expression that gives the fetch request.
    open var requestExpression: Predicates.NSExpression { Predicates.NSExpression(expressionNode: parts.request) }

    /// The expression that gives the managed object context.
    open var contextExpression: Predicates.NSExpression { Predicates.NSExpression(expressionNode: parts.context) }

    /// Whether the expression's value is the number of objects found rather than the objects.
    open var isCountOnlyRequest: Bool { parts.countOnly }
}
