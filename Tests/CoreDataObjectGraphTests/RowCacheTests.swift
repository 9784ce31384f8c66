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
}
