import CoreDataModel
import CoreDataObjectGraph
import CoreDataTestSupport
import Foundation
import Testing

/// `NSManagedObjectContext.mergeChanges(fromRemoteContextSave:into:)`: changes another coordinator (standing for
/// another process or a batch request) saved reach the given contexts from a dictionary of IDs or URIs.
struct RemoteChangeMergeTests {
    static func context(at url: URL, model: NSManagedObjectModel) throws -> NSManagedObjectContext {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }

    @Test func updatesAndDeletionsSavedElsewhereReachTheContexts() throws {
        let url = try TemporaryDirectory.make().appendingPathComponent("Items.sqlite")
        let model = IdentityEqualityTests.model()
        let viewer = try Self.context(at: url, model: model)
        let writer = try Self.context(at: url, model: model)
        let (kept, removed) = try writer.performAndWait {
            let kept = NSEntityDescription.insertNewObject(forEntityName: "Item", into: writer)
            kept.setValue("old", forKey: "name")
            let removed = NSEntityDescription.insertNewObject(forEntityName: "Item", into: writer)
            removed.setValue("gone", forKey: "name")
            try writer.save()
            return (kept.objectID, removed.objectID)
        }
        // The viewer has both objects in memory, filled.
        let (keptInViewer, removedInViewer) = try viewer.performAndWait {
            let keptObject = try viewer.existingObject(with: kept)
            let removedObject = try viewer.existingObject(with: removed)
            #expect(keptObject.value(forKey: "name") as? String == "old")
            _ = removedObject.value(forKey: "name")
            return (keptObject, removedObject)
        }
        try writer.performAndWait {
            writer.object(with: kept).setValue("new", forKey: "name")
            writer.delete(writer.object(with: removed))
            try writer.save()
        }

        final class Box: @unchecked Sendable { var reported: [AnyHashable: Any] = [:] }
        let box = Box()
        let observer = NotificationCenter.default.addObserver(forName: NSManagedObjectContext.objectsDidChangeNotification,
                                                              object: viewer, queue: nil) { box.reported = $0.userInfo ?? [:] }
        defer { NotificationCenter.default.removeObserver(observer) }
        // As code merging a batch delete's result or persistent history writes it: URIs for one key, IDs for another.
        NSManagedObjectContext.mergeChanges(fromRemoteContextSave: [NSUpdatedObjectsKey: [kept.uriRepresentation()],
                                                                    NSDeletedObjectsKey: [removed]],
                                            into: [viewer])
        try viewer.performAndWait {
            #expect(keptInViewer.value(forKey: "name") as? String == "new", "the updated object reads the saved value")
            // As Apple's merge: the deleted object is deleted here (`delete(_:)`), registered until the next save,
            // which has nothing to write for it.
            #expect(viewer.deletedObjects == [removedInViewer])
            #expect(viewer.registeredObject(for: removed) === removedInViewer)
            try viewer.save()
            #expect(viewer.registeredObject(for: removed) == nil, "the saved deletion left the context")
            #expect(removedInViewer.managedObjectContext == nil)
        }
        #expect((box.reported[NSRefreshedObjectsKey] as? Set<NSManagedObject>)?.contains(keptInViewer) == true)
        #expect(box.reported[NSUpdatedObjectsKey] == nil, "a merged update is a refresh")
        #expect((box.reported[NSDeletedObjectsKey] as? Set<NSManagedObject>)?.contains(removedInViewer) == true)
    }
}
