import CoreDataModel
import CoreDataObjectGraph
import CoreDataTestSupport
import Foundation
import Testing

/// `NSFetchRequest.execute()` fetches in the context whose perform block runs, and `shouldRefreshRefetchedObjects`
/// brings filled objects up to the store's values when they are fetched again.
struct FetchRequestExecuteTests {
    static func stack(at url: URL) throws -> NSManagedObjectContext {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: IdentityEqualityTests.model())
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }

    @Test func executeFetchesInTheContextOfThePerformBlock() async throws {
        let context = try Self.stack(at: TemporaryDirectory.make().appendingPathComponent("Items.sqlite"))
        let request = NSFetchRequest<NSManagedObject>(entityName: "Item")
        try context.performAndWait {
            NSEntityDescription.insertNewObject(forEntityName: "Item", into: context).setValue("a", forKey: "name")
            try context.save()
            let items = try request.execute()
            #expect(items.map { $0.value(forKey: "name") as? String } == ["a"])
            #expect(items.first?.managedObjectContext === context)
        }
        let names = try await context.perform { try request.execute().map { $0.value(forKey: "name") as? String } }
        #expect(names == ["a"], "the async perform runs its block as the current context too")

        let other = try Self.stack(at: TemporaryDirectory.make().appendingPathComponent("Other.sqlite"))
        try context.performAndWait {
            let inner = try other.performAndWait { try request.execute().count }
            #expect(inner == 0, "the innermost perform's context fetches")
            #expect(try request.execute().count == 1, "and the outer one again once the inner block returned")
        }
        #expect {
            try request.execute()
        } throws: { error in
            "\(error)".contains("outside a block given to a context's perform or performAndWait")
        }
    }

    @Test func refetchedObjectsTakeTheStoresValuesOnlyWhenAsked() throws {
        let url = try TemporaryDirectory.make().appendingPathComponent("Items.sqlite")
        let reader = try Self.stack(at: url)
        let writer = try Self.stack(at: url)
        let request = NSFetchRequest<NSManagedObject>(entityName: "Item")
        request.returnsObjectsAsFaults = false
        let id = try writer.performAndWait {
            let item = NSEntityDescription.insertNewObject(forEntityName: "Item", into: writer)
            item.setValue("first", forKey: "name")
            try writer.save()
            return item.objectID
        }
        let item = try reader.performAndWait { try #require(try reader.fetch(request).first) }
        try writer.performAndWait {
            writer.object(with: id).setValue("second", forKey: "name")
            try writer.save()
        }
        try reader.performAndWait {
            _ = try reader.fetch(request)
            #expect(item.value(forKey: "name") as? String == "first", "by default a filled object keeps its values")
            request.shouldRefreshRefetchedObjects = true
            _ = try reader.fetch(request)
            #expect(item.value(forKey: "name") as? String == "second")
            #expect(!item.hasChanges)
        }
        try writer.performAndWait {
            writer.object(with: id).setValue("third", forKey: "name")
            try writer.save()
        }
        try reader.performAndWait {
            item.setValue("mine", forKey: "name")
            _ = try reader.fetch(request)
            #expect(item.value(forKey: "name") as? String == "mine", "an unsaved change stays over the fresh values")
            #expect(item.hasChanges)
            item.managedObjectContext?.rollback()
            #expect(item.value(forKey: "name") as? String == "third", "the fresh value is what the change was made over")
        }
    }
}
