/// The kind of a compound predicate, with the raw values of `NSCompoundPredicate.LogicalType`.
public enum CompoundPredicateType: UInt, Sendable, Hashable, CaseIterable {
    case not = 0
    case and = 1
    case or = 2
}
