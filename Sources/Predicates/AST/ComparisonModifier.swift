/// How a comparison treats a collection on its left, with the raw values of `NSComparisonPredicate.Modifier`.
public enum ComparisonModifier: UInt, Sendable, Hashable, CaseIterable {
    /// Compare the left value itself.
    case direct = 0
    /// True when every element of the left collection satisfies the comparison (`ALL`).
    case all = 1
    /// True when some element satisfies it (`ANY`, `SOME`; `NONE` is `NOT ANY`).
    case any = 2
}
