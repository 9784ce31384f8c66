import CoreDataModel
import CoreDataObjectGraph
import Foundation
import Testing

/// Apple's throwaway SQLite store: a store added at `/dev/null` (Apple's documented idiom for an SQLite store that
/// keeps nothing) or from a description without a URL starts empty every time, and leaves no file behind.
struct ThrowawaySQLiteStoreTests {
    private func insertAndCount(_ context: NSManagedObjectContext) throws -> Int {
        try context.performAndWait {
            NSEntityDescription.insertNewObject(forEntityName: "Item", into: context).setValue("a", forKey: "name")
            try context.save()
            return try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Item"))
        }
    }

    @Test func aStoreAtDevNullStartsEmptyEachTimeAndLeavesNoFile() throws {
        let model = IdentityEqualityTests.model()
        var files: [URL] = []
        for _ in 0..<2 {
            let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
            let store = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil,
                                                           at: URL(fileURLWithPath: "/dev/null"), options: nil)
            let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            context.persistentStoreCoordinator = coordinator
            #expect(try insertAndCount(context) == 1, "each store starts empty")
            files.append(try #require(store.url))
            try coordinator.remove(store)
        }
        #expect(files[0] != files[1])
        #expect(files.allSatisfy { !FileManager.default.fileExists(atPath: $0.path) }, "nothing is left once the store is gone")
    }

    @Test func aContainerDescriptionWithoutAURLGivesAFreshStore() throws {
        let model = IdentityEqualityTests.model()
        for _ in 0..<2 {
            let description = NSPersistentStoreDescription()
            description.type = NSSQLiteStoreType
            description.shouldAddStoreAsynchronously = false
            let container = NSPersistentContainer(name: "Items", managedObjectModel: model)
            container.persistentStoreDescriptions = [description]
            var failure: (any Error)?
            container.loadPersistentStores { _, error in failure = error }
            #expect(failure == nil)
            #expect(try insertAndCount(container.newBackgroundContext()) == 1, "the store starts empty")
        }
    }
}
