/// A reference to one entry of a keyed archive's `$objects` array: what a `CF$UID` points at.
///
/// References are plain indices, so walking a cyclic graph (Core Data's entity → model → entities) never
/// recurses by itself: callers follow references one step at a time.
public struct ArchivedObjectReference: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The index into `$objects`. Index 0 is the `$null` placeholder in archives Apple writes.
    public let index: Int

    /// A reference to `$objects[index]`.
    public init(index: Int) {
        self.index = index
    }

    /// The `.uid` property-list value that stores this reference in an archive.
    public var uid: PropertyListValue { .uid(UInt64(index)) }

    /// Orders references by index.
    public static func < (lhs: ArchivedObjectReference, rhs: ArchivedObjectReference) -> Bool {
        lhs.index < rhs.index
    }

    /// `@N`, the index.
    public var description: String { "@\(index)" }
}
