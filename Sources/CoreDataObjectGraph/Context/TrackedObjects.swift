/// A set of a context's objects (its changed objects, or those awaiting an objects-did-change notice) that also
/// marks membership on each object, so asking "already in?" on every setter costs a bit test instead of hashing
/// the object into a dictionary.
///
/// Every insertion and removal goes through this type, which keeps the marks and the dictionary in step.
struct TrackedObjects {
    /// Which bit of `NSManagedObject.trackingMarks` this set owns.
    enum Membership: UInt8 {
        case changed = 1
        case unposted = 2
    }

    private let membership: Membership
    private var byIdentity: [ObjectIdentifier: NSManagedObject] = [:]

    init(_ membership: Membership) {
        self.membership = membership
    }

    var values: Dictionary<ObjectIdentifier, NSManagedObject>.Values { byIdentity.values }
    var isEmpty: Bool { byIdentity.isEmpty }
    var count: Int { byIdentity.count }

    func contains(_ object: NSManagedObject) -> Bool {
        object.trackingMarks & membership.rawValue != 0
    }

    /// Adds `object`; false when it was already in.
    @discardableResult
    mutating func insert(_ object: NSManagedObject) -> Bool {
        guard !contains(object) else { return false }
        object.trackingMarks |= membership.rawValue
        byIdentity[ObjectIdentifier(object)] = object
        return true
    }

    mutating func remove(_ object: NSManagedObject) {
        guard byIdentity.removeValue(forKey: ObjectIdentifier(object)) != nil else { return }
        object.trackingMarks &= ~membership.rawValue
    }

    mutating func removeAll() {
        for object in byIdentity.values { object.trackingMarks &= ~membership.rawValue }
        byIdentity.removeAll()
    }

    mutating func removeAll(where shouldRemove: (NSManagedObject) -> Bool) {
        for object in Array(byIdentity.values) where shouldRemove(object) { remove(object) }
    }
}
