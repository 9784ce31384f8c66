import CoreDataModel
import CoreDataObjectGraph
import CoreDataTestSupport
import Foundation
import Testing

/// The coordinator takes store options as Apple's does, `[AnyHashable: Any]`: code keeps them in that type (or in
/// `[NSObject: AnyObject]`) and passes a store's own `options` back when it re-adds the store.
struct StoreOptionsTypeTests {
    @Test func optionsTypedAsApplesAreHonouredAndSurviveReAddingTheStore() throws {
        let model = IdentityEqualityTests.model()
        let url = try TemporaryDirectory.make().appendingPathComponent("Items.sqlite")
        let writer = NSPersistentStoreCoordinator(managedObjectModel: model)
        try writer.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: nil)

        let options: [AnyHashable: Any] = [NSReadOnlyPersistentStoreOption: true,
                                           NSMigratePersistentStoresAutomaticallyOption: true]
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let store = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: options)
        #expect(store.isReadOnly, "the read-only option given as [AnyHashable: Any] applies")

        try coordinator.remove(store)
        let again = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: store.options)
        #expect(again.isReadOnly, "a store's own options re-add it as it was")

        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            NSEntityDescription.insertNewObject(forEntityName: "Item", into: context).setValue("a", forKey: "name")
            #expect(throws: (any Error).self, "a read-only store refuses the save") { try context.save() }
        }
        try coordinator.destroyPersistentStore(at: url, ofType: NSSQLiteStoreType, options: options)
        #expect(FileManager.default.contents(atPath: url.path) == Data(), "the database is truncated, as Apple's is")
    }
}
