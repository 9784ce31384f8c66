import CoreDataModel
import CoreDataObjectGraph
import Foundation
import Testing

/// The bookkeeping behind a main-queue context's processing when the main run loop turns (MainRunLoopProcessingTests
/// runs the loop): the first change of an event asks for one turn, later changes ride on it, and private-queue contexts
/// never ask. Swift Testing never turns the main run loop, so what is asked for stays asked for while a test looks.
struct RunLoopSchedulingTests {
    private func context(_ type: NSManagedObjectContext.ConcurrencyType) throws -> NSManagedObjectContext {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: IdentityEqualityTests.model())
        try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil, options: nil)
        let context = NSManagedObjectContext(concurrencyType: type)
        context.persistentStoreCoordinator = coordinator
        return context
    }

    @Test func aMainQueueContextAsksForATurnAtItsFirstChange() throws {
        let context = try context(.mainQueueConcurrencyType)
        #expect(!context.isProcessingScheduledForRunLoop)
        let item = NSEntityDescription.insertNewObject(forEntityName: "Item", into: context)
        #expect(context.isProcessingScheduledForRunLoop)
        item.setValue("a", forKey: "name")
        // Processed by hand before the turn: the turn already asked for takes the next event's changes.
        context.processPendingChanges()
        item.setValue("b", forKey: "name")
        #expect(context.isProcessingScheduledForRunLoop)
    }

    @Test func aPrivateQueueContextNeverAsks() throws {
        let context = try context(.privateQueueConcurrencyType)
        context.performAndWait {
            let item = NSEntityDescription.insertNewObject(forEntityName: "Item", into: context)
            item.setValue("a", forKey: "name")
            context.delete(item)
            #expect(!context.isProcessingScheduledForRunLoop)
        }
    }

    @Test func changesWithoutATurnAreAnnouncedOnlyWhenProcessed() throws {
        final class Box: @unchecked Sendable { var count = 0 }
        let context = try context(.mainQueueConcurrencyType)
        let box = Box()
        let observer = NotificationCenter.default.addObserver(forName: .NSManagedObjectContextObjectsDidChange, object: context,
                                                              queue: nil) { _ in box.count += 1 }
        defer { NotificationCenter.default.removeObserver(observer) }
        NSEntityDescription.insertNewObject(forEntityName: "Item", into: context).setValue("a", forKey: "name")
        #expect(box.count == 0)
        context.processPendingChanges()
        #expect(box.count == 1)
    }
}
