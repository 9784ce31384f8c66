/// The registry's table for temporary IDs (and for permanent IDs whose slot in `RegistryBlocks` another ID holds):
/// open addressing with linear probing over (hash, address) buckets, an object's ID hash beside its unretained
/// address. Every method runs under the registry's lock.
///
/// An address is that of a managed object whose entry has not been removed, so its `objectID` may be read (see
/// `ObjectRegistry` for why it stays valid under the lock). Removal leaves a tombstone, never moving another entry,
/// so a bucket index stays meaningful until the table grows; growing rehashes the live entries and drops the
/// tombstones.
struct RegistryTable: ~Copyable {
    struct Bucket {
        /// `empty`, `tombstone`, or an object's address.
        var address: UInt
        var hash: Int
    }

    static let empty: UInt = 0
    static let tombstone: UInt = 1

    // Raw storage rather than an array: every probe and write under the lock otherwise paid a bounds check and a
    // uniqueness check (the insertion cost twice the probe).
    private(set) var buckets = UnsafeMutableBufferPointer<Bucket>(start: nil, count: 0)
    /// Live entries.
    private(set) var count = 0
    /// Live entries and tombstones: what probing has to step over.
    private(set) var occupied = 0
    /// Where the ID that the last lookup found absent would go, until an insertion or a resize changes the table
    /// (removals only turn other entries into tombstones, which leaves it right). The ID is held so that its
    /// identity cannot pass to another ID.
    private var vacancy: (id: NSManagedObjectID, bucket: Int)?

    init() {}

    deinit {
        buckets.deallocate()
    }

    /// The hash an ID is filed under.
    static func hash(of id: NSManagedObjectID) -> Int {
        id.mixedHash(seed: 0)
    }

    /// The bucket holding a live entry for `id`, or nil (remembering where `id` would go).
    mutating func lookUp(_ id: NSManagedObjectID, hash: Int) -> Int? {
        guard !buckets.isEmpty else { return nil }
        let mask = buckets.count - 1
        var index = hash & mask
        var firstTombstone: Int?
        while true {
            let bucket = buckets[index]
            if bucket.address == Self.empty {
                vacancy = (id, firstTombstone ?? index)
                return nil
            }
            if bucket.address == Self.tombstone {
                if firstTombstone == nil { firstTombstone = index }
            } else if bucket.hash == hash, ObjectRegistry.objectID(at: bucket.address) == id {
                return index
            }
            index = (index + 1) & mask
        }
    }

    /// The bucket holding `address`, which was filed under `hash`, or nil when its entry is gone.
    func bucket(holding address: UInt, hash: Int) -> Int? {
        guard !buckets.isEmpty else { return nil }
        let mask = buckets.count - 1
        var index = hash & mask
        while buckets[index].address != Self.empty {
            if buckets[index].address == address { return index }
            index = (index + 1) & mask
        }
        return nil
    }

    func address(at bucket: Int) -> UInt {
        buckets[bucket].address
    }

    /// Every live entry's address.
    var addresses: [UInt] {
        buckets.compactMap { $0.address > Self.tombstone ? $0.address : nil }
    }

    /// Files `address` under `id`; returns the address it replaced, if any.
    mutating func insert(_ address: UInt, for id: NSManagedObjectID, hash: Int) -> UInt? {
        var target: Int?
        if let vacancy, vacancy.id === id {
            // The lookup just before found the ID absent (the usual way here: a fetch looks a row's ID up, then
            // registers a new object for it), and nothing has been added since: no second probe.
            target = vacancy.bucket
        } else if let existing = lookUp(id, hash: hash) {
            let replaced = buckets[existing].address
            buckets[existing].address = address
            vacancy = nil
            return replaced
        } else {
            target = vacancy?.bucket
        }
        vacancy = nil
        // Keep a quarter of the buckets empty, so that every probe ends.
        if target == nil || (buckets[target!].address == Self.empty && occupied >= maximumOccupancy) {
            reserveCapacity(count + 1)
            _ = lookUp(id, hash: hash)
            target = vacancy?.bucket
            vacancy = nil
        }
        fill(target!, with: address, hash: hash)
        return nil
    }

    /// Removes every entry. A table of up to `retainedBuckets` buckets is kept and cleared rather than freed: a
    /// context that resets after every batch of an import registers a batch of the same size next, and growing the
    /// table again from nothing rehashed each entry about twice.
    mutating func removeAll(keepingUpTo retainedBuckets: Int) {
        vacancy = nil
        count = 0
        occupied = 0
        if buckets.count <= retainedBuckets {
            buckets.update(repeating: Bucket(address: Self.empty, hash: 0))
        } else {
            buckets.deallocate()
            buckets = UnsafeMutableBufferPointer(start: nil, count: 0)
        }
    }

    /// Removes the entry at `bucket`, leaving a tombstone.
    mutating func remove(at bucket: Int) {
        buckets[bucket].address = Self.tombstone
        count -= 1
    }

    /// Makes room for `capacity` live entries without growing again; drops the tombstones when it grows.
    mutating func reserveCapacity(_ capacity: Int) {
        var size = max(buckets.count, 16)
        while capacity >= size * 3 / 4 { size *= 2 }
        guard size > buckets.count || occupied >= maximumOccupancy else { return }
        let old = buckets
        buckets = .allocate(capacity: size)
        buckets.initialize(repeating: Bucket(address: Self.empty, hash: 0))
        occupied = count
        vacancy = nil
        let mask = size - 1
        for bucket in old where bucket.address > Self.tombstone {
            var index = bucket.hash & mask
            while buckets[index].address != Self.empty { index = (index + 1) & mask }
            buckets[index] = bucket
        }
        old.deallocate()
    }

    var maximumOccupancy: Int { buckets.count * 3 / 4 }

    private mutating func fill(_ bucket: Int, with address: UInt, hash: Int) {
        if buckets[bucket].address == Self.empty { occupied += 1 }
        buckets[bucket] = Bucket(address: address, hash: hash)
        count += 1
    }
}
