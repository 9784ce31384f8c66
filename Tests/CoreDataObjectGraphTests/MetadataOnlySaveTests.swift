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

    /// The same through the store's own `metadata` property, as CoreDataPlus's
    /// `test_InvestigationSettingMetadataFromPersistentStore` sets it on Apple's platforms.
    @Test(arguments: [NSSQLiteStoreType, NSXMLStoreType])
    func metadataSetOnTheStoreIsWrittenByTheNextSave(storeType: String) throws {
        let url = try TemporaryDirectory.make().appendingPathComponent("Items.store")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: IdentityEqualityTests.model())
        let store = try coordinator.addPersistentStore(ofType: storeType, configurationName: nil, at: url)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        var metadata = store.metadata ?? [:]
        metadata["testKey"] = "Test"
        store.metadata = metadata
        try context.performAndWait { try context.save() }
        let written = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: storeType, at: url)
        #expect(written["testKey"] as? String == "Test")
        // A second coordinator opening the file reads it too.
        let second = NSPersistentStoreCoordinator(managedObjectModel: IdentityEqualityTests.model())
        let reopened = try second.addPersistentStore(ofType: storeType, configurationName: nil, at: url)
        #expect(reopened.metadata["testKey"] as? String == "Test")
    }
}
