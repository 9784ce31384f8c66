import Synchronization

/// The source of the stamps objects join a `TrackedObjects` set with: one counter for the process, so a stamp never
/// matches an entry of another context's set (an object can leave one context and be inserted into another).
private let joinStamps = Atomic<Int>(0)

/// A set of a context's objects (its changed objects, or those awaiting an objects-did-change notice) that also
/// marks membership on each object, so asking "already in?" on every setter costs a bit test instead of hashing
/// the object into a dictionary.
///
/// Members are kept in the order they joined, which is the order saves write them in (inserted objects get primary
/// keys in insertion order, and the same sequence of edits always writes the same file): an array append per
/// object instead of a dictionary insertion, and no sort when saving. An object that leaves keeps its entry until
/// the entries are compacted; an entry counts only while its object is a member that joined with the entry's stamp,
/// so an object that leaves and joins again appears once, at its new place.
///
/// Every insertion and removal goes through this type, which keeps the marks, the stamps and the entries in step.
struct TrackedObjects {
    /// Which bit of `NSManagedObject.trackingMarks` this set owns, and which of the object's stamps.
    enum Membership: UInt8 {
        /// Stamps in `NSManagedObject.changeOrder`.
        case changed = 1
        /// Stamps in `NSManagedObject.unpostedStamp`.
        case unposted = 2
    }

    private let membership: Membership
    private var entries: [(object: NSManagedObject, stamp: Int)] = []
    /// How many entries belong to objects that have left.
    private var staleEntries = 0

    init(_ membership: Membership) {
        self.membership = membership
    }

    /// The members, in the order they joined.
    var values: Members { Members(tracked: self) }
    var isEmpty: Bool { entries.count == staleEntries }
    var count: Int { entries.count - staleEntries }

    func contains(_ object: NSManagedObject) -> Bool {
        object.trackingMarks & membership.rawValue != 0
    }

    /// Adds `object`; false when it was already in.
    @discardableResult
    mutating func insert(_ object: NSManagedObject) -> Bool {
        guard !contains(object) else { return false }
        let stamp = joinStamps.add(1, ordering: .relaxed).newValue
        object.trackingMarks |= membership.rawValue
        setStamp(stamp, of: object)
        entries.append((object, stamp))
        return true
    }

    mutating func remove(_ object: NSManagedObject) {
        guard contains(object) else { return }
        object.trackingMarks &= ~membership.rawValue
        staleEntries += 1
        // Compacting once the stale entries outnumber the members keeps removal amortised O(1) and memory bounded.
        if staleEntries > 16 && staleEntries * 2 > entries.count {
            let membership = membership
            entries.removeAll { !Self.isCurrent($0, in: membership) }
            staleEntries = 0
        }
    }

    mutating func removeAll() {
        for entry in entries where isCurrent(entry) { entry.object.trackingMarks &= ~membership.rawValue }
        entries.removeAll()
        staleEntries = 0
    }

    mutating func removeAll(where shouldRemove: (NSManagedObject) -> Bool) {
        for object in Array(values) where shouldRemove(object) { remove(object) }
    }

    /// Whether an entry stands for a member (not for an object that has left, or has joined again since).
    private func isCurrent(_ entry: (object: NSManagedObject, stamp: Int)) -> Bool {
        Self.isCurrent(entry, in: membership)
    }

    private static func isCurrent(_ entry: (object: NSManagedObject, stamp: Int), in membership: Membership) -> Bool {
        entry.object.trackingMarks & membership.rawValue != 0 && stamp(of: entry.object, in: membership) == entry.stamp
    }

    private static func stamp(of object: NSManagedObject, in membership: Membership) -> Int {
        switch membership {
        case .changed: object.changeOrder
        case .unposted: object.unpostedStamp
        }
    }

    private func setStamp(_ stamp: Int, of object: NSManagedObject) {
        switch membership {
        case .changed: object.changeOrder = stamp
        case .unposted: object.unpostedStamp = stamp
        }
    }

    /// The members of a `TrackedObjects`, in the order they joined.
    struct Members: Sequence {
        fileprivate let tracked: TrackedObjects

        func makeIterator() -> Iterator { Iterator(tracked: tracked) }

        var underestimatedCount: Int { tracked.count }

        struct Iterator: IteratorProtocol {
            fileprivate let tracked: TrackedObjects
            private var index = 0

            fileprivate init(tracked: TrackedObjects) {
                self.tracked = tracked
            }

            mutating func next() -> NSManagedObject? {
                while index < tracked.entries.count {
                    let entry = tracked.entries[index]
                    index += 1
                    if tracked.staleEntries == 0 || tracked.isCurrent(entry) { return entry.object }
                }
                return nil
            }
        }
    }
}
