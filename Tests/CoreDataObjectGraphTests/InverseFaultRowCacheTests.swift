import CoreDataModel
import CoreDataObjectGraph
import CoreDataTestSupport
import Foundation
import Testing

/// A fault changed only through the inverse of a to-many relationship is saved without being read (its version is
/// read inside the save). The coordinator's row cache may still hold an older snapshot of that row: it must not
/// outlive the save, or the next context to fill the fault gets the old version and its save is taken for a
/// conflict (found by a batched migration, which saves a batch, resets and faults the same rows back in).
struct InverseFaultRowCacheTests {
    @Test func aRowWrittenThroughAnInverseIsNotFilledAtItsOldVersionAfterwards() throws {
        let model = SaveVersionTests.model()
        let url = try TemporaryDirectory.make(prefix: "inverse-fault").appendingPathComponent("Store.sqlite")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, at: url)
        func context() -> NSManagedObjectContext {
            let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            context.persistentStoreCoordinator = coordinator
            return context
        }
        // Version 1 of the shelf, in the row cache after the save.
        let first = context()
        let shelfID = try first.performAndWait {
            let shelf = NSEntityDescription.insertNewObject(forEntityName: "Shelf", into: first)
            shelf.setValue("Shelf", forKey: "name")
            try first.save()
            return shelf.objectID
        }
        // Version 2: a new book on the shelf, the shelf an unread fault that only its to-many inverse changes.
        let second = context()
        try second.performAndWait {
            let shelf = second.object(with: shelfID)
            let book = NSEntityDescription.insertNewObject(forEntityName: "Book", into: second)
            book.setValue(shelf, forKey: "shelf")
            #expect(shelf.isFault)
            try second.save()
        }
        // A third context fills the shelf and changes it: its save must see version 2, not a conflict.
        let third = context()
        try third.performAndWait {
            let shelf = third.object(with: shelfID)
            shelf.setValue("Renamed", forKey: "name")
            try third.save()
            #expect((shelf.value(forKey: "books") as? Set<NSManagedObject>)?.count == 1)
        }
    }
}
