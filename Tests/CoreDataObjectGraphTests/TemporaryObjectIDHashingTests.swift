@testable import CoreDataObjectGraph
import CoreDataModel
import Foundation
import Testing

/// Temporary object IDs hash a word folded from their random UUID: equal IDs still hash alike, and different ones
/// spread as their UUIDs do.
struct TemporaryObjectIDHashingTests {
    @Test func temporaryIDsHashConsistentlyWithEqualityAndSpread() {
        let entity = NSEntityDescription(name: "Item")
        let ids = (0..<2_000).map { _ in NSManagedObjectID(temporaryFor: entity) }
        #expect(Set(ids.map(\.hashValue)).count == ids.count)
        #expect(Set(ids).count == ids.count)
        for id in ids.prefix(10) {
            #expect(id == id && id.hashValue == id.hashValue)
            #expect(Set(ids).contains(id))
        }
    }

    /// Temporary IDs take a per-process UUID and a counter instead of asking the system for randomness each time:
    /// they must still be distinct when made on several threads at once, and still read as Core Data's URIs.
    @Test func temporaryIDsMadeConcurrentlyAreDistinctAndReadAsURIs() async {
        let uris = await withTaskGroup(of: [String].self) { group in
            for _ in 0..<4 {
                group.addTask {
                    let entity = NSEntityDescription(name: "Item")
                    return (0..<1_000).map { _ in NSManagedObjectID(temporaryFor: entity).uriRepresentation().absoluteString }
                }
            }
            var all: [String] = []
            for await batch in group { all += batch }
            return all
        }
        #expect(uris.count == 4_000)
        #expect(Set(uris).count == uris.count)
        for uri in uris.prefix(20) {
            #expect(uri.hasPrefix("x-coredata:///Item/t"))
            #expect(UUID(uuidString: String(uri.dropFirst("x-coredata:///Item/t".count))) != nil)
        }
    }
}

/// Managed objects hash by identity through `_rawHashValue` in sets (the notifications' sets of saved objects).
struct ManagedObjectHashingTests {
    @Test func objectsHashByIdentityInSets() {
        let entity = NSEntityDescription(name: "Item")
        let objects = (0..<2_000).map { _ in
            NSManagedObject(entity: entity, objectID: NSManagedObjectID(temporaryFor: entity), context: nil, slots: PropertySlots(entity: entity))
        }
        let set = Set(objects)
        #expect(set.count == objects.count)
        for object in objects.prefix(50) { #expect(set.contains(object)) }
        #expect(Set(objects.map { $0._rawHashValue(seed: 7) }).count > 1_990)
    }
}
