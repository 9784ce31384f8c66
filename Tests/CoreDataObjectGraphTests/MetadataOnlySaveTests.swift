import CoreDataModel
import CoreDataObjectGraph
import CoreDataTestSupport
import Foundation
import Testing

/// Metadata set with `setMetadata(_:for:)` is written by the next context save, even one without object changes, as
/// Apple's is.
struct MetadataOnlySaveTests {
    @Test(arguments: [NSSQLiteStoreType, NSXMLStoreType])
    func aSaveWithoutObjectChangesWritesChangedMetadata(storeType: String) throws {
        let url = try TemporaryDirectory.make().appendingPathComponent("Items.store")
        let model = IdentityEqualityTests.model()
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let store = try coordinator.addPersistentStore(ofType: storeType, configurationName: nil, at: url)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        var metadata = coordinator.metadata(for: store)
        metadata["lastImport"] = "2026-11-26"
        coordinator.setMetadata(metadata, for: store)
        #expect(try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: storeType, at: url)["lastImport"] == nil,
                "not written before a save")
        try context.performAndWait {
            #expect(!context.hasChanges)
            try context.save()
        }
        let written = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: storeType, at: url)
        #expect(written["lastImport"] as? String == "2026-11-26")
    }
}
