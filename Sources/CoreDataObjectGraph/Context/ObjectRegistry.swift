import CSwiftRuntime
import Synchronization

/// The objects a context has registered, at most one per object ID, held without keeping them alive.
///
/// Core Data's contexts keep only changed objects alive: an object nobody references leaves its context, so a
/// browser scrolling a million rows stays within bounded memory. Swift's `weak` references would express that, but
/// the first weak reference to an object gives it a side table, and from then on every retain and release of that
/// object takes the runtime's slow path (measured: a third of a 100,000-object fetch went to side-table reference
/// counting, its allocation and its release). So the registry keeps each object's address unretained, and every
/// object removes its own entry when it is deinitialised (`objectWillDeinitialize(_:)`).
///
/// The last release of an object may happen on any thread, so entries are read and written under a lock, and a
/// lookup takes a strong reference only through the runtime's `swift_tryRetain`, which refuses an object whose
/// deinitialisation has begun: such an entry is treated as absent, and a new object may take the ID's place (the
/// dying object's `deinit` then leaves the new entry alone). The object's memory, and its `objectID`, stay valid while
/// the lock is held, because its `deinit` waits for the lock before anything of it is destroyed. Nothing that may
/// release a managed object runs under the lock.
///
/// The entries live in an open-addressing table of (hash, address) pairs rather than a `Dictionary` keyed by ID: a
/// probe compares the stored hashes and reaches an object (for its ID) only when they match, so registering a new
/// object touches the table alone; the IDs are not retained a second time; and the lookup that finds an ID absent
/// remembers where it would go, so the insertion that usually follows costs no second probe.
final class ObjectRegistry: Sendable {
    private let table = Mutex(RegistryTable())

    /// The registered object for `id`, if it is alive.
    func object(for id: NSManagedObjectID) -> NSManagedObject? {
        let hash = RegistryTable.hash(of: id)
        let retained = table.withLock { table -> UInt? in
            guard let bucket = table.lookUp(id, hash: hash) else { return nil }
            let address = table.address(at: bucket)
            return c_swift_try_retain(UnsafeMutableRawPointer(bitPattern: address)!) != 0 ? address : nil
        }
        return retained.map { Unmanaged<NSManagedObject>.fromOpaque(UnsafeRawPointer(bitPattern: $0)!).takeRetainedValue() }
    }

    /// Registers `object` under its ID (replacing any other object's entry) and makes the object remove the entry
    /// when it is deinitialised. An object whose entry is replaced is no longer its context's (it forgets the
    /// context, which does not list it any more and so could not tell it when it goes away).
    func insert(_ object: NSManagedObject, for id: NSManagedObjectID) {
        assert(object.objectID == id, "objects are registered under their own ID")
        object.registration = self
        let hash = RegistryTable.hash(of: id)
        let address = Self.address(of: object)
        let replaced = table.withLock { table -> UInt? in
            guard let old = table.insert(address, for: id, hash: hash), old != address,
                  c_swift_try_retain(UnsafeMutableRawPointer(bitPattern: old)!) != 0 else { return nil }
            return old
        }
        if let replaced {
            Unmanaged<NSManagedObject>.fromOpaque(UnsafeRawPointer(bitPattern: replaced)!).takeRetainedValue().managedObjectContext = nil
        }
    }

    /// Forgets the entry for `id`; the object, if alive, stays as it is.
    func removeValue(forKey id: NSManagedObjectID) {
        let hash = RegistryTable.hash(of: id)
        table.withLock { table in
            if let bucket = table.lookUp(id, hash: hash) { table.remove(at: bucket) }
        }
    }

    /// Forgets every entry, keeping a table of up to 65,536 buckets (1 MB) for the objects registered next.
    func removeAll() {
        table.withLock { $0.removeAll(keepingUpTo: 65_536) }
    }

    /// Makes room for `count` more entries (a fetch knows how many objects it is about to register).
    func reserveCapacity(forAdditional count: Int) {
        table.withLock { $0.reserveCapacity($0.count + count) }
    }

    /// How many entries there are (some may belong to objects being deinitialised).
    var count: Int { table.withLock { $0.count } }

    /// Every registered object that is alive, in no particular order.
    var liveObjects: [NSManagedObject] {
        let retained = table.withLock { table in
            table.addresses.filter { c_swift_try_retain(UnsafeMutableRawPointer(bitPattern: $0)!) != 0 }
        }
        return retained.map { Unmanaged<NSManagedObject>.fromOpaque(UnsafeRawPointer(bitPattern: $0)!).takeRetainedValue() }
    }

    /// Called from `NSManagedObject.deinit` on whatever thread released the object last: removes its entry unless
    /// another object has taken the ID since. Compares addresses only, never reaching another object.
    func objectWillDeinitialize(_ object: NSManagedObject) {
        let hash = RegistryTable.hash(of: object.objectID)
        let address = Self.address(of: object)
        table.withLock { table in
            if let bucket = table.bucket(holding: address, hash: hash) { table.remove(at: bucket) }
        }
    }

    private static func address(of object: NSManagedObject) -> UInt {
        UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque())
    }
}
