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
