@testable import CoreDataObjectGraph
import CoreDataModel
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
}
