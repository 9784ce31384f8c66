/// A predicate or expression that could not be evaluated: an unbound variable, an invalid regular expression,
/// a function that is unknown or unsupported on Linux, an index out of range.
///
/// Comparisons of mismatched types are not errors: they are false, as a SQL comparison would be.
public struct PredicateEvaluationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, naming the construct.
    public var reason: String

    /// Makes an error.
    public init(_ reason: String) { self.reason = reason }

    /// The reason.
    public var description: String { reason }
}
