import Synchronization

/// Snapshots shared by every context of a coordinator, so that firing a fault after a fetch does not go back to
/// the store. It is a bounded cache: the least recently used snapshots leave first, and a miss only costs a
/// fetch, so memory stays flat while a browser scrolls a million rows.
final class RowCache: Sendable {
    private struct State {
        var entries: [NSManagedObjectID: (snapshot: Snapshot, tick: UInt64)] = [:]
        var tick: UInt64 = 0
    }

    let capacity: Int
    /// The most rows one fetch or save stores: a quarter of the capacity. A scan larger than that keeps only its last
    /// rows, so three quarters of what other work had cached survive it (as a database's buffer pool gives a
    /// sequential scan a small ring of its own, rather than letting it flush the pool). It also bounds the work a
    /// large fetch spends here: storing a row retains its ID and values, which the fetch has long left cold.
    let batchLimit: Int
    private let state = Mutex(State())

    init(capacity: Int = 50_000) {
        self.capacity = capacity
        self.batchLimit = max(1, capacity / 4)
    }

    func snapshot(for id: NSManagedObjectID) -> Snapshot? {
        state.withLock { state in
            guard var entry = state.entries[id] else { return nil }
            state.tick &+= 1
            entry.tick = state.tick
            state.entries[id] = entry
            return entry.snapshot
        }
    }

    /// Keeps `snapshot` unless the cache holds a newer version of the row. Contexts read rows under the
    /// coordinator's lock but store them here after releasing it, so a fetch that read version 1 may arrive after
    /// a save stored version 2; versions (`Z_OPT`) only grow, so the newer one stays.
    func store(_ snapshot: Snapshot, for id: NSManagedObjectID) {
        state.withLock { state in Self.store(snapshot, for: id, in: &state, capacity: capacity) }
    }

    /// Keeps many snapshots under one acquisition of the lock (a child context's fetch, a save). Of more rows than
    /// `batchLimit`, only the last `batchLimit` are stored. An older snapshot the cache holds for one of the earlier
    /// rows is dropped, so it cannot be read in place of the new one.
    func store(contentsOf rows: [(id: NSManagedObjectID, snapshot: Snapshot)]) {
        guard !rows.isEmpty else { return }
        let skipped = rows.count - min(rows.count, batchLimit)
        state.withLock { state in
            if !state.entries.isEmpty {
                for row in rows[..<skipped] { state.entries.removeValue(forKey: row.id) }
            }
            // Room for the rows at once, rather than growing (and rehashing) step by step.
            state.entries.reserveCapacity(min(state.entries.count + rows.count - skipped, capacity + 1))
            for row in rows[skipped...] { Self.store(row.snapshot, for: row.id, in: &state, capacity: capacity) }
        }
    }

    /// Keeps the rows that a fetch left waiting in its faults (`pendingValues`), as `store(contentsOf:)` keeps rows:
    /// the last `batchLimit` of them. They are read from the objects' end, so a large fetch reaches only the objects
    /// it made last; the earlier ones are visited only when the cache has entries that might be older versions of
    /// their rows. (Collecting every row of a fetch in a list beside its objects cost a retain of each ID and values
    /// array, and their releases on memory long gone cold.)
    func store(pendingRowsOf objects: [NSManagedObject]) {
        // The first of the last `batchLimit` objects with a row waiting: walking back from the end, then storing forward
        // (the cache's order of use is the fetch's), straight from the objects, with no list of rows in between (the
        // list, and reversing it, cost as much as storing the rows).
        var first = objects.endIndex
        var waiting = 0
        while first > objects.startIndex && waiting < batchLimit {
            first -= 1
            if objects[first].pendingValues != nil { waiting += 1 }
        }
        guard waiting > 0 else { return }
        let skippedIDs = first > objects.startIndex && count > 0
            ? objects[..<first].compactMap { $0.pendingValues == nil ? nil : $0.objectID } : []
        // The objects are read under the lock: they belong to the calling context's queue, which is where this runs.
        nonisolated(unsafe) let objects = objects
        state.withLock { state in
            for id in skippedIDs { state.entries.removeValue(forKey: id) }
            // Room for the rows at once, rather than growing (and rehashing) step by step.
            state.entries.reserveCapacity(min(state.entries.count + waiting, capacity + 1))
            // Each object is read unretained (the array holds it): a retain and a release of every object, on memory
            // the fetch has left cold, were a third of this loop's reference counting.
            objects.forEachUnretained(in: first..<objects.endIndex) { object in
                guard let values = object.pendingValues else { return }
                Self.store(Snapshot(values: values, version: object.snapshotVersion), for: object.objectID, in: &state, capacity: capacity)
            }
        }
    }

    private static func store(_ snapshot: Snapshot, for id: NSManagedObjectID, in state: inout State, capacity: Int) {
        state.tick &+= 1
        // One hash in the common case (a new row, or a newer version); a newer cached version is put back.
        if let cached = state.entries.updateValue((snapshot, state.tick), forKey: id), cached.snapshot.version > snapshot.version {
            state.entries[id] = (cached.snapshot, state.tick)
            return
        }
        if state.entries.count > capacity { evictOldest(&state, keeping: capacity * 3 / 4) }
    }

    func remove(_ id: NSManagedObjectID) {
        _ = state.withLock { $0.entries.removeValue(forKey: id) }
    }

    /// Removes many rows under one acquisition of the lock (a save's deleted rows).
    func remove<IDs: Sequence<NSManagedObjectID>>(contentsOf ids: IDs) {
        state.withLock { state in
            for id in ids { state.entries.removeValue(forKey: id) }
        }
    }

    func removeAll() {
        state.withLock { $0.entries.removeAll() }
    }

    var count: Int { state.withLock { $0.entries.count } }

    /// Drops the oldest entries, keeping the `target` most recent, once per quarter of the capacity. The cutoff tick
    /// is found by selection (linear on average; sorting every tick cost about a third of an eviction) and the older
    /// entries are removed in place (`filter` rehashed and copied every entry it kept into a new table). Ticks are
    /// unique, so exactly `target` entries stay, as with a sort.
    private static func evictOldest(_ state: inout State, keeping target: Int) {
        var ticks = state.entries.values.map(\.tick)
        let cutoff = tick(ofRank: ticks.count - target, in: &ticks)
        let stale = state.entries.compactMap { $0.value.tick < cutoff ? $0.key : nil }
        for id in stale { state.entries.removeValue(forKey: id) }
    }

    /// The `rank`-th smallest of `ticks` (0-based), by quickselect; reorders `ticks`.
    static func tick(ofRank rank: Int, in ticks: inout [UInt64]) -> UInt64 {
        var low = 0, high = ticks.count - 1
        while low < high {
            let pivot = ticks[low + (high - low) / 2]
            var left = low, right = high
            while left <= right {
                while ticks[left] < pivot { left += 1 }
                while ticks[right] > pivot { right -= 1 }
                if left <= right {
                    ticks.swapAt(left, right)
                    left += 1
                    right -= 1
                }
            }
            if rank <= right {
                high = right
            } else if rank >= left {
                low = left
            } else {
                return ticks[rank]
            }
        }
        return ticks[rank]
    }
}
