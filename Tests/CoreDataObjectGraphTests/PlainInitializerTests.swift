import CoreDataModel
import CoreDataObjectGraph
import CoreDataTestSupport
import Foundation
import Testing

/// `Subclass()`, the plain initializer code written for Apple's platforms calls on a managed object subclass (Apple's
/// Core Data logs "Failed to call designated initializer" and returns an object in no context): here too an object in
/// no context, which context-based APIs skip, and which can still be inserted.
@Suite(.serialized)
struct PlainInitializerTests {
    final class Memo: NSManagedObject {}

    @Test func aPlainInitializerMakesAnObjectInNoContext() throws {
        let memo = NSEntityDescription(name: "Memo")
        memo.setProperties([NSAttributeDescription(name: "text", type: .stringAttributeType)])
        NSManagedObject.register(Memo.self, forEntityName: "Memo")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: NSManagedObjectModel(entities: [memo]))
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, at: try TemporaryDirectory.make().appendingPathComponent("M.sqlite"), options: nil)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator

        let loose = Memo()
        #expect(loose.managedObjectContext == nil)
        #expect(!loose.isInserted)
        try context.performAndWait {
            #expect(context.insertedObjects.isEmpty)
            context.insert(loose)
            loose.setValue("hello", forKey: "text")
            try context.save()
            #expect(try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Memo")) == 1)
        }
    }
}
