/// The closure of a block predicate (`NSPredicate(block:)`), compared by identity.
///
/// Block predicates evaluate in memory only: they have no format string that parses back and no SQL translation.
public struct PredicateBlock: @unchecked Sendable, Hashable {
    // Unchecked, as Apple's NSPredicate is: the closure is only called by the evaluating thread.
    /// The condition: the evaluated object and the substitution variables.
    public let condition: (Any?, [String: Any]?) -> Bool
    private let identity = Identity()

    /// A reference that gives each block its own identity.
    private final class Identity: Sendable {}

    /// Wraps `condition`.
    public init(_ condition: @escaping (Any?, [String: Any]?) -> Bool) {
        self.condition = condition
    }

    /// The same block (not merely the same code).
    public static func == (lhs: PredicateBlock, rhs: PredicateBlock) -> Bool { lhs.identity === rhs.identity }

    /// Consistent with `==`.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(identity)) }

    /// How Apple prints a block predicate: `BLOCKPREDICATE(<address>)`.
    public var predicateFormat: String {
        "BLOCKPREDICATE(0x" + String(UInt(bitPattern: ObjectIdentifier(identity).hashValue), radix: 16) + ")"
    }
}
