@testable import CoreDataObjectGraph
import CoreDataModel
import Foundation
import Testing

/// The coordinator's row cache under interleavings that contexts on several queues produce.
struct RowCacheTests {
    @Test func anOlderSnapshotArrivingLateDoesNotReplaceANewerOne() throws {
        let entity = NSEntityDescription(name: "Chef")
        let id = NSManagedObjectID(entity: entity, storeIdentifier: "S", primaryKey: 1)
        let cache = RowCache(capacity: 10)
        // A save stores version 2; a fetch that read version 1 before the save stores its row afterwards.
        cache.store(Snapshot(values: [.attribute(.string("saved"))], version: 2), for: id)
        cache.store(Snapshot(values: [.attribute(.string("stale"))], version: 1), for: id)
        #expect(cache.snapshot(for: id)?.version == 2)
        #expect(cache.snapshot(for: id)?.values == [.attribute(.string("saved"))])
        cache.store(Snapshot(values: [.attribute(.string("newer"))], version: 3), for: id)
        #expect(cache.snapshot(for: id)?.version == 3)
        // Removing the row (a refresh, a delete) lets any version in again.
        cache.remove(id)
        cache.store(Snapshot(values: [.null], version: 1), for: id)
        #expect(cache.snapshot(for: id)?.version == 1)
    }

    @Test func moreRowsThanABatchMayStoreKeepTheLastOnesAndNoStaleEarlierOne() throws {
        let entity = NSEntityDescription(name: "Chef")
        let ids = (1...25).map { NSManagedObjectID(entity: entity, storeIdentifier: "S", primaryKey: Int64($0)) }
        let cache = RowCache(capacity: 40)
        #expect(cache.batchLimit == 10)
        // An earlier fetch left version 1 of the first row.
        cache.store(Snapshot(values: [.attribute(.string("old"))], version: 1), for: ids[0])
        // A save (or a fetch) of 25 rows, the first at version 2.
        cache.store(contentsOf: ids.map { ($0, Snapshot(values: [.attribute(.integer($0.primaryKey))], version: 2)) })
        #expect(cache.count == 10)
        #expect(ids[15...].allSatisfy { cache.snapshot(for: $0)?.version == 2 }, "the last rows are kept")
        #expect(cache.snapshot(for: ids[0]) == nil, "the stale version of a row stored too early to keep is gone")
        #expect(ids[..<15].allSatisfy { cache.snapshot(for: $0) == nil })
    }

    /// A fetch's faults keep their rows, and the cache takes the last of them from the objects: the same rows
    /// `store(contentsOf:)` would keep, skipping objects without a waiting row, and no stale earlier version.
    @Test func pendingRowsOfFetchedFaultsKeepTheLastOnesAndNoStaleEarlierOne() throws {
        let entity = NSEntityDescription(name: "Chef")
        entity.setProperties([NSAttributeDescription(name: "number", type: .integer64AttributeType)])
        let slots = PropertySlots(entity: entity)
        let objects = (1...25).map { key -> NSManagedObject in
            let id = NSManagedObjectID(entity: entity, storeIdentifier: "S", primaryKey: Int64(key))
            let object = NSManagedObject(entity: entity, objectID: id, context: nil, slots: slots)
            // Every fifth object is already filled, so it has no row waiting.
            if key % 5 == 0 {
                object.fill(from: Snapshot(values: [.attribute(.integer(Int64(key)))], version: 2))
            } else {
                object.keepPending(Snapshot(values: [.attribute(.integer(Int64(key)))], version: 2))
            }
            return object
        }
        let cache = RowCache(capacity: 40)
        cache.store(Snapshot(values: [.attribute(.string("old"))], version: 1), for: objects[0].objectID)
        cache.store(pendingRowsOf: objects)
        let waiting = objects.filter { $0.pendingValues != nil }
        #expect(waiting.count == 20)
        #expect(cache.count == 10)
        #expect(waiting[10...].allSatisfy { cache.snapshot(for: $0.objectID)?.values == $0.pendingValues })
        #expect(cache.snapshot(for: objects[0].objectID) == nil, "the stale version of a row stored too early to keep is gone")
        #expect(waiting[..<10].allSatisfy { cache.snapshot(for: $0.objectID) == nil })
        #expect(objects.filter { $0.pendingValues == nil }.allSatisfy { cache.snapshot(for: $0.objectID) == nil }, "filled objects have no row waiting")
    }

    /// A fetch or save larger than a quarter of the cache stores only its last quarter, so most of the rows other
    /// work cached before it are still there after it.
    @Test func aLargeScanLeavesThreeQuartersOfAFullCacheInPlace() throws {
        let entity = NSEntityDescription(name: "Chef")
        entity.setProperties([NSAttributeDescription(name: "number", type: .integer64AttributeType)])
        let slots = PropertySlots(entity: entity)
        let cache = RowCache(capacity: 40)
        let working = (1...40).map { NSManagedObjectID(entity: entity, storeIdentifier: "S", primaryKey: Int64($0)) }
        for id in working { cache.store(Snapshot(values: [.attribute(.integer(id.primaryKey))], version: 1), for: id) }
        #expect(cache.count == 40)

        // A fetch of 1,000 rows, as faults keeping their rows.
        let scanned = (1_001...2_000).map { key -> NSManagedObject in
            let id = NSManagedObjectID(entity: entity, storeIdentifier: "S", primaryKey: Int64(key))
            let object = NSManagedObject(entity: entity, objectID: id, context: nil, slots: slots)
            object.keepPending(Snapshot(values: [.attribute(.integer(Int64(key)))], version: 1))
            return object
        }
        cache.store(pendingRowsOf: scanned)
        #expect(scanned.suffix(10).allSatisfy { cache.snapshot(for: $0.objectID) != nil }, "the scan's last rows are stored")
        #expect(scanned.dropLast(10).allSatisfy { cache.snapshot(for: $0.objectID) == nil })
        // The first stored scan row overfills the cache, which drops to three quarters (30 rows, that row included).
        #expect(working.filter { cache.snapshot(for: $0) != nil }.count == 29, "all but a quarter of the earlier rows stay")

        // The same through `store(contentsOf:)` (a save, a child context's fetch).
        let saved = (3_001...3_100).map { NSManagedObjectID(entity: entity, storeIdentifier: "S", primaryKey: Int64($0)) }
        cache.store(contentsOf: saved.map { ($0, Snapshot(values: [.null], version: 1)) })
        #expect(saved.filter { cache.snapshot(for: $0) != nil }.count == 10)
        #expect(cache.count <= 40)
    }

    /// Eviction keeps the most recently stored or read rows: past the capacity, the cache drops to three quarters of
    /// it, oldest first (a read makes a row recent again).
    @Test func evictionKeepsTheMostRecentlyUsedRows() throws {
        let entity = NSEntityDescription(name: "Chef")
        let ids = (1...9).map { NSManagedObjectID(entity: entity, storeIdentifier: "S", primaryKey: Int64($0)) }
        let cache = RowCache(capacity: 8)
        for id in ids[..<8] { cache.store(Snapshot(values: [.null], version: 1), for: id) }
        #expect(cache.snapshot(for: ids[0]) != nil)  // row 1 is now the most recently used but one
        cache.store(Snapshot(values: [.null], version: 1), for: ids[8])
        #expect(cache.count == 6)
        #expect([1, 5, 6, 7, 8, 9].allSatisfy { cache.snapshot(for: ids[$0 - 1]) != nil })
        #expect([2, 3, 4].allSatisfy { cache.snapshot(for: ids[$0 - 1]) == nil })
    }

    /// The selection that finds the eviction cutoff agrees with sorting, whatever the order and the rank.
    @Test func tickSelectionAgreesWithSorting() {
        var generator = SystemRandomNumberGenerator()
        for count in [1, 2, 3, 10, 257, 5_000] {
            let ticks = (0..<count).map { _ in UInt64.random(in: 0..<UInt64(count * 4), using: &generator) }
            let sorted = ticks.sorted()
            for rank in Set([0, count / 4, count / 2, count - 1]) {
                var scratch = ticks
                #expect(RowCache.tick(ofRank: rank, in: &scratch) == sorted[rank])
            }
        }
        var ascending = (0..<1_000).map(UInt64.init), descending = Array(ascending.reversed())
        #expect(RowCache.tick(ofRank: 250, in: &ascending) == 250)
        #expect(RowCache.tick(ofRank: 250, in: &descending) == 250)
    }
}
