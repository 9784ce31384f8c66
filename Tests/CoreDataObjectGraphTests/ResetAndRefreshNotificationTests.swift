import CoreDataModel
import CoreDataObjectGraph
import CoreDataTestSupport
import Foundation
import Testing

/// `reset()` and `refreshAllObjects()` tell objects-did-change observers what happened, as Apple's do.
struct ResetAndRefreshNotificationTests {
    final class Box: @unchecked Sendable { var infos: [[AnyHashable: Any]] = [] }

    @Test func resetPostsInvalidatedAllAndRefreshAllObjectsPostsTheRefreshedObjects() throws {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: IdentityEqualityTests.model())
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil,
                                           at: TemporaryDirectory.make().appendingPathComponent("Items.sqlite"))
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        let box = Box()
        let observer = NotificationCenter.default.addObserver(forName: NSManagedObjectContext.didChangeObjectsNotification,
                                                              object: context, queue: nil) { box.infos.append($0.userInfo ?? [:]) }
        defer { NotificationCenter.default.removeObserver(observer) }
        try context.performAndWait {
            let item = NSEntityDescription.insertNewObject(forEntityName: "Item", into: context)
            item.setValue("a", forKey: "name")
            try context.save()
            box.infos.removeAll()

            context.refreshAllObjects()
            #expect((box.infos.last?[NSRefreshedObjectsKey] as? Set<NSManagedObject>) == [item])

            let id = item.objectID
            box.infos.removeAll()
            context.reset()
            #expect((box.infos.last?[NSInvalidatedAllObjectsKey] as? [NSManagedObjectID]) == [id])
        }
        // An inserted object that nothing but the context holds is invalidated too (CoreDataPlus's
        // test_ObserveInsertionsAndInvalidationsOnDidChangeNotification).
        let insertedID = context.performAndWait {
            let item = NSEntityDescription.insertNewObject(forEntityName: "Item", into: context)
            item.setValue("b", forKey: "name")
            return item.objectID
        }
        box.infos.removeAll()
        context.performAndWait { context.reset() }
        #expect((box.infos.last?[NSInvalidatedAllObjectsKey] as? [NSManagedObjectID]) == [insertedID])
        #expect(Notification.Name.NSManagedObjectContextDidSaveObjectIDs == NSManagedObjectContext.didSaveObjectIDsNotification)
        #expect(Notification.Name.NSManagedObjectContextDidMergeChangesObjectIDs == NSManagedObjectContext.didMergeChangesObjectIDsNotification)
    }

    /// An insert that `rollback()` discarded is not announced afterwards: the next objects-did-change (a main-queue
    /// context's run-loop turn, or `processPendingChanges()`) lists neither it nor anything for it.
    @Test func aRolledBackInsertIsNotAnnouncedLater() throws {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: IdentityEqualityTests.model())
        try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        let box = Box()
        let observer = NotificationCenter.default.addObserver(forName: NSManagedObjectContext.didChangeObjectsNotification,
                                                              object: context, queue: nil) { box.infos.append($0.userInfo ?? [:]) }
        defer { NotificationCenter.default.removeObserver(observer) }
        context.performAndWait {
            let item = NSEntityDescription.insertNewObject(forEntityName: "Item", into: context)
            item.setValue("a", forKey: "name")
            context.rollback()
            context.processPendingChanges()
            #expect(item.managedObjectContext == nil)
        }
        let announced = box.infos.flatMap { info in
            [NSInsertedObjectsKey, NSUpdatedObjectsKey, NSDeletedObjectsKey].flatMap { (info[$0] as? Set<NSManagedObject>) ?? [] }
        }
        #expect(announced.isEmpty, "announced after the rollback: \(announced)")
    }
}
