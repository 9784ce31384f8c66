import Foundation

/// An object that answers `FUNCTION(object, "selector:", arguments…)` in an evaluated expression: what Objective-C's
/// method dispatch gives Apple's `NSExpression`, offered here by the types that need it (Core Data's migration manager
/// and entity migration policies).
///
/// The evaluator hands each argument as a plain value (`nil` for a null, arrays for collections, the object itself for
/// an object) and turns the result back into an expression value. A selector the receiver does not know should throw,
/// naming it; `nil` is the null result.
public protocol ExpressionFunctionReceiver: AnyObject {
    /// The result of calling `selector` (Objective-C spelling, colons included) with `arguments`.
    func evaluateFunction(_ selector: String, arguments: [Any?]) throws -> Any?
}

/// The context a `FETCH(request, context, countOnly)` expression runs its request in: Core Data's managed object
/// context, which Apple's `NSFetchRequestExpression` asks to execute the request.
public protocol ExpressionFetchContext: AnyObject {
    /// The objects `request` finds (their count when `countOnly`); `request` is whatever the request expression gave,
    /// so a value that is no fetch request should throw, naming it.
    func executeFetchExpression(request: Any?, countOnly: Bool) throws -> Any?
}
