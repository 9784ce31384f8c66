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
/// dying object's `deinit` then leaves the new entry alone). The object's memory cannot be freed while the lock is
/// held, because its `deinit` waits for the lock. Nothing that may release a managed object runs under the lock.
final class ObjectRegistry: Sendable {
    /// Where a registered object lives; compared, never dereferenced without a successful try-retain.
    private struct Address: Hashable, Sendable {
        let bits: UInt

        init(_ object: NSManagedObject) {
            bits = UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque())
        }

        /// A strong reference to the object, or nil when it is being deinitialised. Call with the lock held.
        func retainedObject() -> Address? {
            guard let pointer = UnsafeMutableRawPointer(bitPattern: bits), c_swift_try_retain(pointer) != 0 else { return nil }
            return self
        }

        /// Takes over the reference `retainedObject()` took.
        func takeRetainedObject() -> NSManagedObject {
            Unmanaged<NSManagedObject>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!).takeRetainedValue()
        }
    }

    private let entries = Mutex<[NSManagedObjectID: Address]>([:])

    /// The registered object for `id`, if it is alive.
    func object(for id: NSManagedObjectID) -> NSManagedObject? {
        entries.withLock { $0[id]?.retainedObject() }?.takeRetainedObject()
    }

    /// Registers `object` under `id` (replacing any other object's entry) and makes the object remove the entry
    /// when it is deinitialised.
    /// An object whose entry is replaced is no longer its context's (it forgets the context, which does not list it
    /// any more and so could not tell it when it goes away).
    func insert(_ object: NSManagedObject, for id: NSManagedObjectID) {
        object.registration = self
        let address = Address(object)
        let replaced = entries.withLock { entries -> Address? in
            guard let old = entries.updateValue(address, forKey: id), old != address else { return nil }
            return old.retainedObject()
        }
        replaced?.takeRetainedObject().managedObjectContext = nil
    }

    /// Forgets the entry for `id`; the object, if alive, stays as it is.
    func removeValue(forKey id: NSManagedObjectID) {
        _ = entries.withLock { $0.removeValue(forKey: id) }
    }

    /// Forgets every entry.
    func removeAll() {
        entries.withLock { $0.removeAll() }
    }

    /// Makes room for `count` more entries (a fetch knows how many objects it is about to register).
    func reserveCapacity(forAdditional count: Int) {
        entries.withLock { $0.reserveCapacity($0.count + count) }
    }

    /// How many entries there are (some may belong to objects being deinitialised).
    var count: Int { entries.withLock { $0.count } }

    /// Every registered object that is alive, in no particular order.
    var liveObjects: [NSManagedObject] {
        let retained = entries.withLock { entries in entries.values.compactMap { $0.retainedObject() } }
        return retained.map { $0.takeRetainedObject() }
    }

    /// Called from `NSManagedObject.deinit` on whatever thread released the object last: removes its entry unless
    /// another object has taken the ID since.
    func objectWillDeinitialize(_ object: NSManagedObject) {
        let id = object.objectID
        let address = Address(object)
        entries.withLock { entries in
            if let index = entries.index(forKey: id), entries[index].value == address { entries.remove(at: index) }
        }
    }
}
