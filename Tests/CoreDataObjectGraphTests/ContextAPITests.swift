import CoreDataModel
import CoreDataObjectGraph
import CoreDataTestSupport
import Foundation
import Testing

/// Contexts and containers as Apple's documentation uses them: automatic merging, the async `perform` with its
/// schedule, the notification names and keys, the context options, and the container's background tasks.
@Suite(.serialized)
struct ContextAPITests {
    private static func model() -> NSManagedObjectModel {
        let note = NSEntityDescription(name: "Note")
        note.setProperties([NSAttributeDescription(name: "title", type: .stringAttributeType)])
        return NSManagedObjectModel(entities: [note])
    }

    private func coordinator() throws -> NSPersistentStoreCoordinator {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: Self.model())
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, at: try TemporaryDirectory.make().appendingPathComponent("N.sqlite"), options: nil)
        return coordinator
    }

    private func context(_ coordinator: NSPersistentStoreCoordinator) -> NSManagedObjectContext {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }

    @Test func optionsHaveApplesDefaults() throws {
        let context = context(try coordinator())
        #expect(!context.automaticallyMergesChangesFromParent)
        #expect(context.stalenessInterval == -1)
        #expect(context.shouldDeleteInaccessibleFaults)
        #expect(!context.retainsRegisteredObjects)
        #expect(context.transactionAuthor == nil)
        let type: NSManagedObjectContextConcurrencyType = .privateQueueConcurrencyType
        #expect(type == context.concurrencyType)
        let policy: NSMergePolicyType = .mergeByPropertyObjectTrumpMergePolicyType
        #expect(NSMergePolicy(merge: policy).mergeType == policy)
    }

    @Test func aContextMergesTheSavesOfItsSiblingsAutomatically() throws {
        let coordinator = try coordinator()
        let viewer = context(coordinator), writer = context(coordinator)
        viewer.automaticallyMergesChangesFromParent = true
        let id = try writer.performAndWait {
            let note = NSEntityDescription.insertNewObject(forEntityName: "Note", into: writer)
            note.setValue("draft", forKey: "title")
            try writer.save()
            return note.objectID
        }
        let seen = viewer.performAndWait { viewer.object(with: id).value(forKey: "title") as? String }
        #expect(seen == "draft")
        try writer.performAndWait {
            writer.object(with: id).setValue("final", forKey: "title")
            try writer.save()
        }
        // The merge was queued on the viewer's queue by the save; this block runs after it.
        let merged = viewer.performAndWait { viewer.object(with: id).value(forKey: "title") as? String }
        #expect(merged == "final")
    }

    @Test func aChildMergesItsParentsSavesAutomatically() throws {
        let coordinator = try coordinator()
        let parent = context(coordinator)
        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = parent
        child.automaticallyMergesChangesFromParent = true
        let id = try parent.performAndWait {
            let note = NSEntityDescription.insertNewObject(forEntityName: "Note", into: parent)
            note.setValue("one", forKey: "title")
            try parent.save()
            return note.objectID
        }
        #expect(child.performAndWait { child.object(with: id).value(forKey: "title") as? String } == "one")
        try parent.performAndWait {
            parent.object(with: id).setValue("two", forKey: "title")
            try parent.save()
        }
        #expect(child.performAndWait { child.object(with: id).value(forKey: "title") as? String } == "two")
    }

    @Test func asyncPerformReturnsTheBlocksValueAndRethrows() async throws {
        let context = context(try coordinator())
        // A block that cannot throw needs no `try`, as with Apple's `rethrows`.
        let count = await context.perform { context.registeredObjects.count }
        #expect(count == 0)
        let title = try await context.perform(schedule: .enqueued) {
            let note = NSEntityDescription.insertNewObject(forEntityName: "Note", into: context)
            note.setValue("async", forKey: "title")
            try context.save()
            return note.value(forKey: "title") as? String
        }
        #expect(title == "async")
        struct Refused: Error {}
        await #expect(throws: Refused.self) { try await context.perform { throw Refused() } }
    }

    @Test func saveNotificationsByApplesNames() throws {
        let context = context(try coordinator())
        final class Box: @unchecked Sendable { var names: [Notification.Name] = []; var ids: Set<NSManagedObjectID> = [] }
        let box = Box()
        let center = NotificationCenter.default
        let tokens = [
            center.addObserver(forName: .NSManagedObjectContextWillSave, object: context, queue: nil) { box.names.append($0.name) },
            center.addObserver(forName: .NSManagedObjectContextDidSave, object: context, queue: nil) { box.names.append($0.name) },
            center.addObserver(forName: NSManagedObjectContext.didSaveObjectIDsNotification, object: context, queue: nil) { note in
                box.names.append(note.name)
                box.ids = note.userInfo?[NSManagedObjectContext.NotificationKey.insertedObjectIDs.rawValue] as? Set<NSManagedObjectID> ?? []
            },
        ]
        defer { tokens.forEach(center.removeObserver) }
        let id = try context.performAndWait {
            let note = NSEntityDescription.insertNewObject(forEntityName: "Note", into: context)
            note.setValue("x", forKey: "title")
            try context.save()
            return note.objectID
        }
        #expect(box.names == [NSManagedObjectContext.willSaveObjectsNotification, .NSManagedObjectContextDidSave,
                              NSManagedObjectContext.didSaveObjectIDsNotification])
        #expect(box.ids == [id])
        #expect(NSEntityDescription.entity(forEntityName: "Note", in: context)?.entityName == "Note")
        #expect(NSEntityDescription.entity(forEntityName: "Nope", in: context) == nil)
    }

    @Test func mergingPostsTheMergedObjectIDs() throws {
        let coordinator = try coordinator()
        let writer = context(coordinator), reader = context(coordinator)
        final class Box: @unchecked Sendable { var saved: Notification?; var merged: Set<NSManagedObjectID> = [] }
        let box = Box()
        let center = NotificationCenter.default
        let tokens = [
            center.addObserver(forName: .NSManagedObjectContextDidSave, object: writer, queue: nil) { box.saved = $0 },
            center.addObserver(forName: NSManagedObjectContext.didMergeChangesObjectIDsNotification, object: reader, queue: nil) { note in
                box.merged = note.userInfo?[NSManagedObjectContext.NotificationKey.insertedObjectIDs.rawValue] as? Set<NSManagedObjectID> ?? []
            },
        ]
        defer { tokens.forEach(center.removeObserver) }
        let id = try writer.performAndWait {
            let note = NSEntityDescription.insertNewObject(forEntityName: "Note", into: writer)
            note.setValue("m", forKey: "title")
            try writer.save()
            return note.objectID
        }
        let saved = try #require(box.saved)
        reader.performAndWait { reader.mergeChanges(fromContextDidSave: saved) }
        #expect(box.merged == [id])
    }

    @Test func retainsRegisteredObjectsKeepsFetchedObjectsAlive() throws {
        let context = context(try coordinator())
        try context.performAndWait {
            for title in ["a", "b"] {
                NSEntityDescription.insertNewObject(forEntityName: "Note", into: context).setValue(title, forKey: "title")
            }
            try context.save()
            context.reset()
            context.retainsRegisteredObjects = true
            _ = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Note"))
            // Past this block's unit of work too, which keeps fetched objects only until it ends.
        }
        #expect(context.performAndWait { context.registeredObjects.count } == 2,
                "the fetched objects stay registered without the caller holding them")
        context.performAndWait { context.retainsRegisteredObjects = false }
        #expect(context.performAndWait { context.registeredObjects.isEmpty })
    }

    @Test func aZeroStalenessIntervalReadsTheStoreForEveryFault() throws {
        let coordinator = try coordinator()
        let context = context(coordinator)
        let id = try context.performAndWait {
            let note = NSEntityDescription.insertNewObject(forEntityName: "Note", into: context)
            note.setValue("cached", forKey: "title")
            try context.save()
            return note.objectID
        }
        let other = self.context(coordinator)
        other.stalenessInterval = 0
        let before = coordinator.statistics.snapshot.rowCacheHits
        let title = other.performAndWait { other.object(with: id).value(forKey: "title") as? String }
        #expect(title == "cached")
        #expect(coordinator.statistics.snapshot.rowCacheHits == before, "the row cache was not consulted")
    }

    @Test func containerBackgroundTasksInBothForms() async throws {
        let container = NSPersistentContainer(name: "Notes", managedObjectModel: Self.model())
        let description = NSPersistentStoreDescription(url: try TemporaryDirectory.make().appendingPathComponent("Notes.sqlite"))
        #expect(!description.shouldAddStoreAsynchronously)
        description.setValue("WAL" as NSString, forPragmaNamed: "journal_mode")
        #expect(description.sqlitePragmas["journal_mode"] as? String == "WAL")
        container.persistentStoreDescriptions = [description]
        container.loadPersistentStores { _, error in #expect(error == nil) }
        let title = try await container.performBackgroundTask { context in
            let note = NSEntityDescription.insertNewObject(forEntityName: "Note", into: context)
            note.setValue("background", forKey: "title")
            try context.save()
            return note.value(forKey: "title") as? String
        }
        #expect(title == "background")
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            container.performBackgroundTask { context in
                let count = (try? context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Note"))) ?? -1
                #expect(count == 1)
                done.resume()
            }
        }
    }
}
