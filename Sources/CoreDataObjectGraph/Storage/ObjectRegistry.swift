import CoreDataModel
import CSwiftRuntime
import Synchronization

/// The objects a context has registered, at most one per object ID, held without keeping them alive.
///
/// Core Data's contexts keep only changed objects alive: an object nobody references leaves its context, so a
/// browser scrolling a million rows stays within bounded memory. Swift's `weak` references would express that, but
/// the first weak reference to an object gives it a side table, and from then on every retain and release of that
/// object takes the runtime's slow path (a large share of a fetch). So the registry keeps each object's address
/// unretained, and every object removes its own entry when it is deinitialised (`objectWillDeinitialize(_:)`); the
/// invariants that make this safe are stated once, in `MemorySafety.swift` (invariant 1).
///
/// The last release of an object may happen on any thread, so entries are read and written under a lock, and a
/// lookup takes a strong reference only through the runtime's `swift_tryRetain`, which refuses an object whose
/// deinitialisation has begun: such an entry is treated as absent, and a new object may take the ID's place (the
/// dying object's `deinit` then leaves the new entry alone). The object's memory, and its `objectID`, stay valid while
/// the lock is held, because its `deinit` waits for the lock before anything of it is destroyed. Nothing that may
/// release a managed object runs under the lock.
///
/// Permanent IDs are filed by primary key in blocks of consecutive keys (`RegistryBlocks`), so that a fetch, which
/// registers rows in key order, fills memory in order instead of one random cache line per object; each object
/// remembers its slot, so its removal needs no search. Temporary IDs, and the rare permanent ID whose slot another ID
/// holds (the same key in another store), go to an open-addressing table of (hash, address) pairs (`RegistryTable`).
final class ObjectRegistry: Sendable {
    /// Both tables, under one lock.
    struct Tables: ~Copyable {
        var blocks = RegistryBlocks()
        var hashed = RegistryTable()

        /// The address filed for `id`, if any.
        mutating func lookUp(_ id: NSManagedObjectID) -> UInt? {
            if !id.isTemporaryID, let slot = blocks.slot(tree: id.entity.inheritanceTreeToken, key: id.primaryKey) {
                let address = blocks.address(at: slot)
                if address != 0 && ObjectRegistry.objectID(at: address) == id { return address }
            }
            guard hashed.count > 0, let bucket = hashed.lookUp(id, hash: RegistryTable.hash(of: id)) else { return nil }
            return hashed.address(at: bucket)
        }

        /// Files `address` under `id`; returns the address it replaced, if any, and the slot it took in `blocks` (-1
        /// for the hashed table).
        mutating func insert(_ address: UInt, for id: NSManagedObjectID) -> (replaced: UInt?, slot: Int32) {
            if !id.isTemporaryID {
                let slot = blocks.slotCreatingBlock(tree: id.entity.inheritanceTreeToken, key: id.primaryKey)
                let filed = blocks.address(at: slot)
                if filed == 0 {
                    if hashed.count == 0 || hashed.lookUp(id, hash: RegistryTable.hash(of: id)) == nil {
                        blocks.fill(slot, with: address)
                        return (nil, Int32(slot))
                    }
                    // The ID went to the hashed table while another ID held this slot; it stays there.
                    blocks.releaseIfEmpty(slot: slot)
                } else if ObjectRegistry.objectID(at: filed) == id {
                    blocks.replace(slot, with: address)
                    return (filed, Int32(slot))
                }
            }
            return (hashed.insert(address, for: id, hash: RegistryTable.hash(of: id)), -1)
        }

        /// Removes the entry for `id`, if any.
        mutating func remove(_ id: NSManagedObjectID) {
            if !id.isTemporaryID, let slot = blocks.slot(tree: id.entity.inheritanceTreeToken, key: id.primaryKey) {
                let address = blocks.address(at: slot)
                if address != 0 && ObjectRegistry.objectID(at: address) == id {
                    blocks.remove(at: slot)
                    return
                }
            }
            if hashed.count > 0, let bucket = hashed.lookUp(id, hash: RegistryTable.hash(of: id)) { hashed.remove(at: bucket) }
        }

        /// Removes the entry of the object at `address` (filed under `id`, in `slot` or the hashed table), if it still
        /// has one.
        /// Files `address` under `id` (`insert(_:for:)`) and returns the slot it took, and the live object whose entry
        /// it replaced, retained (an object being deinitialised is left alone); the caller detaches that object
        /// after the lock.
        @inline(__always)
        mutating func file(_ address: UInt, for id: NSManagedObjectID) -> (replaced: UInt?, slot: Int32) {
            let (old, slot) = insert(address, for: id)
            guard let old, old != address, c_swift_try_retain(UnsafeMutableRawPointer(bitPattern: old)!) != 0 else { return (nil, slot) }
            return (old, slot)
        }

        mutating func remove(objectAt address: UInt, slot: Int, id: NSManagedObjectID) {
            if slot >= 0 && slot < blocks.slotCapacity && blocks.address(at: slot) == address {
                blocks.remove(at: slot)
                return
            }
            guard hashed.count > 0 else { return }
            if let bucket = hashed.bucket(holding: address, hash: RegistryTable.hash(of: id)) { hashed.remove(at: bucket) }
        }
    }

    let tables = Mutex(Tables())

    /// The registered object for `id`, if it is alive.
    func object(for id: NSManagedObjectID) -> NSManagedObject? {
        let retained = tables.withLock { tables -> UInt? in
            guard let address = tables.lookUp(id) else { return nil }
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
        let address = Self.address(of: object)
        let (replaced, slot) = tables.withLock { $0.file(address, for: id) }
        // Written after the lock: only the object's own deinit reads it, which cannot run while the caller holds it.
        object.registrySlot = slot
        if let replaced { Self.detach(replaced) }
    }

    /// Files many objects under their IDs under one acquisition of the lock, as `insert(_:for:)` files each (a save
    /// files every object it inserted under its permanent ID).
    func insert(contentsOf objects: [NSManagedObject]) {
        for object in objects { object.registration = self }
        let entries = objects.map { (address: Self.address(of: $0), id: $0.objectID) }
        let filed = tables.withLock { tables in entries.map { tables.file($0.address, for: $0.id) } }
        for (object, entry) in zip(objects, filed) { object.registrySlot = entry.slot }
        for case let replaced? in filed.map(\.replaced) { Self.detach(replaced) }
    }

    /// The object at `address`, whose entry another object took, retained by `Tables.file`: it forgets its context,
    /// which no longer lists it and so could not tell it when the context goes away.
    private static func detach(_ address: UInt) {
        Unmanaged<NSManagedObject>.fromOpaque(UnsafeRawPointer(bitPattern: address)!).takeRetainedValue().managedObjectContext = nil
    }

    /// Forgets the entries of `objects`, each registered here under its current ID, under one acquisition of the
    /// lock (before a save files them under new IDs). When they are everything the hashed table holds, as when a
    /// save's inserted objects are the context's only temporary IDs, the table is emptied at once instead of
    /// searched for each (a random probe, a cache miss, per object).
    func removeEntries(of objects: [NSManagedObject]) {
        let filed = objects.map { (address: Self.address(of: $0), slot: Int($0.registrySlot), id: $0.objectID) }
        // Filed here and in the hashed table: an object that names a context is listed in that context's registry
        // (see `NSManagedObject.contextReference`), and one that left its context may still name this registry.
        let allHashed = objects.allSatisfy { $0.registrySlot < 0 && $0.registration === self && $0.contextReference.isSet }
        tables.withLock { tables in
            if allHashed && tables.hashed.count == filed.count {
                tables.hashed.removeAll(keepingUpTo: 65_536)
                return
            }
            for entry in filed { tables.remove(objectAt: entry.address, slot: entry.slot, id: entry.id) }
        }
    }

    /// Forgets the entry for `id`; the object, if alive, stays as it is.
    func removeValue(forKey id: NSManagedObjectID) {
        tables.withLock { $0.remove(id) }
    }

    /// Forgets every entry, keeping up to 1 MB of each table for the objects registered next.
    func removeAll() {
        tables.withLock { tables in
            tables.blocks.removeAll(keepingUpTo: 131_072)
            tables.hashed.removeAll(keepingUpTo: 65_536)
        }
    }

    /// How many entries there are (some may belong to objects being deinitialised).
    var count: Int { tables.withLock { $0.blocks.count + $0.hashed.count } }

    /// Every registered object that is alive, in no particular order.
    var liveObjects: [NSManagedObject] {
        let retained = tables.withLock { tables in
            (tables.blocks.addresses + tables.hashed.addresses).filter { c_swift_try_retain(UnsafeMutableRawPointer(bitPattern: $0)!) != 0 }
        }
        return retained.map { Unmanaged<NSManagedObject>.fromOpaque(UnsafeRawPointer(bitPattern: $0)!).takeRetainedValue() }
    }

    /// Called from `NSManagedObject.deinit` on whatever thread released the object last: removes its entry unless
    /// another object has taken the ID since. Compares addresses only, never reaching another object.
    func objectWillDeinitialize(_ object: NSManagedObject) {
        let address = Self.address(of: object)
        let slot = Int(object.registrySlot)
        let id = object.objectID
        tables.withLock { $0.remove(objectAt: address, slot: slot, id: id) }
    }

    private static func address(of object: NSManagedObject) -> UInt {
        UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque())
    }

    /// The ID of the registered object at `address`, read without retaining the object (it may be deinitialising).
    static func objectID(at address: UInt) -> NSManagedObjectID {
        Unmanaged<NSManagedObject>.fromOpaque(UnsafeRawPointer(bitPattern: address)!)._withUnsafeGuaranteedRef { $0.objectID }
    }
}
