import CoreDataModel
import CoreDataObjectGraph
import CoreDataTestSupport
import Foundation
import Testing

/// `mergeChanges(fromContextDidSave:)` as Apple documents it: it "refreshes any objects which have been updated in the
/// other context, faults in any newly-inserted objects, and invokes delete(_:) on those which have been deleted", and
/// posts `didMergeChangesObjectIDsNotification` with the merged IDs; and `save()` posts did-save even without changes.
@Suite(.serialized)
struct MergeChangesTests {
    /// Person (`name`, `pets` cascading to Pet) and Pet (`name`, `owner`, nullified), built in code.
    private static let model = AppleSpellingTests.modelInCode()

    private static func coordinator(_ storeType: String = NSSQLiteStoreType) throws -> NSPersistentStoreCoordinator {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let url = try TemporaryDirectory.make().appendingPathComponent("Merge.store")
        try coordinator.addPersistentStore(ofType: storeType, configurationName: nil, at: url, options: nil)
        return coordinator
    }

    private static func context(_ coordinator: NSPersistentStoreCoordinator) -> NSManagedObjectContext {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }

    /// Collects the notifications named `name` that `object` posts while `body` runs.
    private final class Recorder: @unchecked Sendable {
        var notes: [Notification] = []
        private var token: (any NSObjectProtocol)?
        init(_ name: Notification.Name, from object: AnyObject) {
            token = NotificationCenter.default.addObserver(forName: name, object: object, queue: nil) { [unowned self] in
                notes.append($0)
            }
        }
        func stop() { if let token { NotificationCenter.default.removeObserver(token) } }
        var infos: [[AnyHashable: Any]] { notes.map { $0.userInfo ?? [:] } }
    }

    /// Inserts people named `names` in `context` and saves; returns their IDs in order.
    private static func savePeople(_ names: [String], in context: NSManagedObjectContext) throws -> [NSManagedObjectID] {
        try context.performAndWait {
            let people = names.map { name in
                let person = NSEntityDescription.insertNewObject(forEntityName: "Person", into: context)
                person.setValue(name, forKey: "name")
                return person
            }
            try context.save()
            return people.map(\.objectID)
        }
    }

    /// The did-save notification of `body`'s save in `context`.
    private static func didSave(of context: NSManagedObjectContext, _ body: () throws -> Void) throws -> Notification {
        let recorder = Recorder(NSManagedObjectContext.didSaveObjectsNotification, from: context)
        defer { recorder.stop() }
        try context.performAndWait { try body(); try context.save() }
        return try #require(recorder.notes.last)
    }

    @Test func mergedUpdatesAreReportedAsRefreshedAndInsertsAsInserted() throws {
        let coordinator = try Self.coordinator()
        let viewer = Self.context(coordinator), writer = Self.context(coordinator)
        let ids = try Self.savePeople(["Edythe", "Ellis", "Faye"], in: writer)
        // The viewer uses the first two; the third it holds as a fault only.
        let (used, fault) = viewer.performAndWait {
            let used = ids.prefix(2).map { viewer.object(with: $0) }
            for person in used { _ = person.value(forKey: "name") }
            return (used, viewer.object(with: ids[2]))
        }
        let saved = try Self.didSave(of: writer) {
            for id in ids { writer.object(with: id).setValue("\(writer.object(with: id).value(forKey: "name")!) Updated", forKey: "name") }
            NSEntityDescription.insertNewObject(forEntityName: "Person", into: writer).setValue("Alessandro", forKey: "name")
        }
        let changes = Recorder(NSManagedObjectContext.objectsDidChangeNotification, from: viewer)
        let merges = Recorder(NSManagedObjectContext.didMergeChangesObjectIDsNotification, from: viewer)
        defer { changes.stop(); merges.stop() }
        viewer.performAndWait { viewer.mergeChanges(fromContextDidSave: saved) }

        #expect(changes.notes.count == 1, "one objects-did-change for the merge")
        let info = try #require(changes.infos.first)
        #expect(info[NSRefreshedObjectsKey] as? Set<NSManagedObject> == Set(used), "updates of objects in use are refreshes")
        #expect(info[NSUpdatedObjectsKey] == nil, "a merge updates nothing this context would save")
        #expect((info[NSInsertedObjectsKey] as? Set<NSManagedObject>)?.map { $0.value(forKey: "name") as? String } == ["Alessandro"])
        #expect(info[NSDeletedObjectsKey] == nil)
        viewer.performAndWait {
            #expect(used.map { $0.value(forKey: "name") as? String } == ["Edythe Updated", "Ellis Updated"])
            #expect(!used[0].isFault, "a refreshed object in use stays filled")
            #expect(fault.isFault, "a fault is not in use: it reads the new values when it fires")
            #expect(fault.value(forKey: "name") as? String == "Faye Updated")
            #expect(!viewer.hasChanges)
            #expect(viewer.insertedObjects.isEmpty && viewer.updatedObjects.isEmpty)
        }

        let merged = try #require(merges.infos.first)
        #expect((merged[NSInsertedObjectIDsKey] as? Set<NSManagedObjectID>)?.count == 1)
        #expect(merged[NSUpdatedObjectIDsKey] as? Set<NSManagedObjectID> == Set(ids))
        #expect(merged[NSRefreshedObjectIDsKey] as? Set<NSManagedObjectID> == Set(used.map(\.objectID)))
        #expect(merged[NSDeletedObjectIDsKey] as? Set<NSManagedObjectID> == [])
        #expect(merged[NSInvalidatedObjectIDsKey] as? Set<NSManagedObjectID> == [])
        #expect(NSRefreshedObjectIDsKey == NSManagedObjectContext.NotificationKey.refreshedObjectIDs.rawValue)
    }

    /// The pattern of Apple's guide: another context's did-save observer merges it into this context and saves
    /// this one, which has nothing to save after the merge and still posts did-save, with empty sets.
    @Test func aContextSavedRightAfterAMergeHasNothingToSave() throws {
        let coordinator = try Self.coordinator()
        let viewer = Self.context(coordinator), background = Self.context(coordinator)
        let people = try viewer.performAndWait {
            let people = ["Edythe", "Ellis"].map { name in
                let person = NSEntityDescription.insertNewObject(forEntityName: "Person", into: viewer)
                person.setValue(name, forKey: "name")
                return person
            }
            try viewer.save()
            return people
        }
        let viewerSaves = Recorder(NSManagedObjectContext.didSaveObjectsNotification, from: viewer)
        let changes = Recorder(NSManagedObjectContext.objectsDidChangeNotification, from: viewer)
        let merges = Recorder(NSManagedObjectContext.didMergeChangesObjectIDsNotification, from: viewer)
        let token = NotificationCenter.default.addObserver(forName: .NSManagedObjectContextDidSave, object: background,
                                                           queue: nil) { note in
            viewer.mergeChanges(fromContextDidSave: note)
            viewer.performAndWait { try? viewer.save() }
        }
        defer { NotificationCenter.default.removeObserver(token); viewerSaves.stop(); changes.stop(); merges.stop() }
        try background.performAndWait {
            for person in try background.fetch(NSFetchRequest<NSManagedObject>(entityName: "Person")) {
                person.setValue("\(person.value(forKey: "name")!) Updated", forKey: "name")
            }
            NSEntityDescription.insertNewObject(forEntityName: "Person", into: background).setValue("Alessandro", forKey: "name")
            try background.save()
        }
        #expect(changes.notes.count == 1)
        #expect(changes.infos.first?[NSRefreshedObjectsKey] as? Set<NSManagedObject> == Set(people))
        #expect((changes.infos.first?[NSInsertedObjectsKey] as? Set<NSManagedObject>)?.count == 1)
        #expect(changes.infos.first?[NSUpdatedObjectsKey] == nil)
        let merged = try #require(merges.infos.first)
        #expect((merged[NSUpdatedObjectIDsKey] as? Set<NSManagedObjectID>)?.count == 2)
        #expect((merged[NSRefreshedObjectIDsKey] as? Set<NSManagedObjectID>)?.count == 2)
        #expect(viewerSaves.notes.count == 1, "the save after the merge posts did-save")
        for key in [NSInsertedObjectsKey, NSUpdatedObjectsKey, NSDeletedObjectsKey] {
            #expect((viewerSaves.infos.first?[key] as? Set<NSManagedObject>)?.isEmpty == true)
        }
        #expect(!viewer.performAndWait { viewer.hasChanges })
        #expect(try background.performAndWait { try background.count(for: NSFetchRequest<NSManagedObject>(entityName: "Person")) } == 3)
    }

    /// As CoreDataPlus's investigation of Apple's merge shows: afterwards the context holds the objects in use (the
    /// refreshed one and the deleted one, kept until the save), not the inserted fault nobody references.
    @Test func afterAMergeTheContextHoldsWhatIsInUseAndTheDeletedObjects() throws {
        let coordinator = try Self.coordinator()
        let viewer = Self.context(coordinator), writer = Self.context(coordinator)
        let ids = try Self.savePeople(["Alessandro", "Andrea"], in: writer)
        let people = viewer.performAndWait {
            let people = ids.map { viewer.object(with: $0) }
            for person in people { _ = person.value(forKey: "name") }
            return people
        }
        let saved = try Self.didSave(of: writer) {
            writer.delete(writer.object(with: ids[0]))
            writer.object(with: ids[1]).setValue("Andrea**", forKey: "name")
            NSEntityDescription.insertNewObject(forEntityName: "Person", into: writer).setValue("Edythe", forKey: "name")
        }
        viewer.performAndWait {
            viewer.mergeChanges(fromContextDidSave: saved)
            #expect(viewer.registeredObjects == Set(people))
            #expect(viewer.insertedObjects.isEmpty)
            #expect(viewer.deletedObjects == [people[0]])
            #expect(people[1].value(forKey: "name") as? String == "Andrea**")
        }
    }

    @Test func aRefreshKeepsThisContextsUnsavedChangesOnTop() throws {
        let coordinator = try Self.coordinator()
        let viewer = Self.context(coordinator), writer = Self.context(coordinator)
        let id = try Self.savePeople(["Ann"], in: writer)[0]
        let person = viewer.performAndWait {
            let person = viewer.object(with: id)
            person.setValue("Mine", forKey: "name")
            return person
        }
        let saved = try Self.didSave(of: writer) { writer.object(with: id).setValue("Theirs", forKey: "name") }
        let changes = Recorder(NSManagedObjectContext.objectsDidChangeNotification, from: viewer)
        defer { changes.stop() }
        try viewer.performAndWait {
            viewer.mergeChanges(fromContextDidSave: saved)
            #expect(person.value(forKey: "name") as? String == "Mine")
            #expect(viewer.updatedObjects == [person], "its own change is still there to save")
            // The refresh took the saved version: this context's save is no conflict.
            try viewer.save()
        }
        #expect(changes.infos.first?[NSRefreshedObjectsKey] as? Set<NSManagedObject> == [person])
    }

    /// Apple's merge invokes `delete(_:)` on the deleted objects this context holds: they stay registered and in
    /// `deletedObjects` until the next save, which then has nothing to write for them, on every kind of store.
    @Test(arguments: [NSSQLiteStoreType, NSInMemoryStoreType, NSBinaryStoreType, NSXMLStoreType])
    func aMergedDeletionIsADeletionUntilTheNextSave(storeType: String) throws {
        let coordinator = try Self.coordinator(storeType)
        let viewer = Self.context(coordinator), writer = Self.context(coordinator)
        let (personID, petID) = try writer.performAndWait {
            let person = NSEntityDescription.insertNewObject(forEntityName: "Person", into: writer)
            person.setValue("Ada", forKey: "name")
            let pet = NSEntityDescription.insertNewObject(forEntityName: "Pet", into: writer)
            pet.setValue("Tom", forKey: "name")
            pet.setValue(person, forKey: "owner")
            try writer.save()
            return (person.objectID, pet.objectID)
        }
        let (person, pet) = viewer.performAndWait {
            let person = viewer.object(with: personID), pet = viewer.object(with: petID)
            _ = person.value(forKey: "name")
            _ = person.value(forKey: "pets")
            _ = pet.value(forKey: "name")
            return (person, pet)
        }
        // The pet goes with its owner (Cascade) in the writer's save.
        let saved = try Self.didSave(of: writer) { writer.delete(writer.object(with: personID)) }
        let changes = Recorder(NSManagedObjectContext.objectsDidChangeNotification, from: viewer)
        defer { changes.stop() }
        viewer.performAndWait { viewer.mergeChanges(fromContextDidSave: saved) }
        #expect(changes.infos.first?[NSDeletedObjectsKey] as? Set<NSManagedObject> == [person, pet])
        viewer.performAndWait {
            #expect(viewer.deletedObjects == [person, pet])
            #expect(viewer.registeredObject(for: personID) === person)
            #expect(person.isDeleted && person.managedObjectContext === viewer)
            #expect(person.value(forKey: "name") as? String == "Ada", "a deleted object keeps its values until the save")
            #expect(viewer.hasChanges)
            let people = (try? viewer.fetch(NSFetchRequest<NSManagedObject>(entityName: "Person"))) ?? [person]
            #expect(people.isEmpty)
        }
        let viewerSaved = try Self.didSave(of: viewer) {}
        #expect(viewerSaved.userInfo?[NSDeletedObjectsKey] as? Set<NSManagedObject> == [person, pet])
        try viewer.performAndWait {
            #expect(!viewer.hasChanges)
            #expect(viewer.registeredObject(for: personID) == nil)
            #expect(person.managedObjectContext == nil)
            // The store is as the writer left it, and takes the next save.
            #expect(try viewer.count(for: NSFetchRequest<NSManagedObject>(entityName: "Person")) == 0)
            NSEntityDescription.insertNewObject(forEntityName: "Person", into: viewer).setValue("Bea", forKey: "name")
            try viewer.save()
        }
        #expect(try writer.performAndWait { try writer.count(for: NSFetchRequest<NSManagedObject>(entityName: "Person")) } == 1)
    }

    @Test func anObjectDeletedHereAndThereIsSavedWithoutAConflict() throws {
        let coordinator = try Self.coordinator()
        let viewer = Self.context(coordinator), writer = Self.context(coordinator)
        let id = try Self.savePeople(["Ada"], in: writer)[0]
        let person = viewer.performAndWait {
            let person = viewer.object(with: id)
            viewer.delete(person)
            viewer.processPendingChanges()
            return person
        }
        let saved = try Self.didSave(of: writer) { writer.delete(writer.object(with: id)) }
        try viewer.performAndWait {
            viewer.mergeChanges(fromContextDidSave: saved)
            #expect(viewer.deletedObjects == [person])
            try viewer.save()
            #expect(!viewer.hasChanges)
        }
    }

    /// `delete(_:)`'s rules apply to what this context holds: an unsaved pet of the deleted owner goes with it
    /// (Cascade) instead of being saved pointing at a row that is gone.
    @Test func aMergedDeletionAppliesItsDeleteRulesHere() throws {
        let coordinator = try Self.coordinator()
        let viewer = Self.context(coordinator), writer = Self.context(coordinator)
        let id = try Self.savePeople(["Ada"], in: writer)[0]
        let pet = viewer.performAndWait {
            let pet = NSEntityDescription.insertNewObject(forEntityName: "Pet", into: viewer)
            pet.setValue("Rex", forKey: "name")
            pet.setValue(viewer.object(with: id), forKey: "owner")
            return pet
        }
        let saved = try Self.didSave(of: writer) { writer.delete(writer.object(with: id)) }
        try viewer.performAndWait {
            viewer.mergeChanges(fromContextDidSave: saved)
            #expect(pet.isDeleted)
            try viewer.save()
            #expect(try viewer.count(for: NSFetchRequest<NSManagedObject>(entityName: "Pet")) == 0)
        }
    }

    @Test func automaticMergingDeletesTheSameWay() throws {
        let coordinator = try Self.coordinator()
        let viewer = Self.context(coordinator), writer = Self.context(coordinator)
        viewer.automaticallyMergesChangesFromParent = true
        let id = try Self.savePeople(["Ada"], in: writer)[0]
        let person = viewer.performAndWait {
            let person = viewer.object(with: id)
            _ = person.value(forKey: "name")
            return person
        }
        try writer.performAndWait {
            writer.delete(writer.object(with: id))
            try writer.save()
        }
        // The merge was queued on the viewer's queue by the save; this block runs after it.
        try viewer.performAndWait {
            #expect(viewer.deletedObjects == [person])
            try viewer.save()
            #expect(viewer.registeredObject(for: id) == nil)
        }
    }

    /// A child that merges its parent's saves automatically deletes what the parent's save deleted; its own save
    /// hands nothing back for the parent to write.
    @Test func aChildMergingItsParentsSavesDeletesTheSameWay() throws {
        let coordinator = try Self.coordinator()
        let parent = Self.context(coordinator)
        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = parent
        child.automaticallyMergesChangesFromParent = true
        let id = try Self.savePeople(["Ada"], in: parent)[0]
        let inChild = child.performAndWait {
            let person = child.object(with: id)
            _ = person.value(forKey: "name")
            return person
        }
        try parent.performAndWait {
            parent.delete(parent.object(with: id))
            try parent.save()
        }
        try child.performAndWait {
            #expect(child.deletedObjects == [inChild])
            try child.save()
            #expect(child.registeredObject(for: id) == nil)
        }
        try parent.performAndWait {
            #expect(!parent.hasChanges, "the parent had saved the deletion already")
            try parent.save()
        }
    }

    /// A save across several stores writes each store's share; a merged deletion in either store is no share of it.
    @Test func aMergedDeletionIsNoShareOfASaveAcrossStores() throws {
        let stack = try MultipleStoresTests.stack()
        let viewer = stack.context, writer = Self.context(stack.coordinator)
        let (goneID, keptID) = try writer.performAndWait {
            let gone = MultipleStoresTests.insertFeedback("Gone", rating: 1, into: writer)
            writer.assign(gone, to: stack.part2)
            let kept = MultipleStoresTests.insertFeedback("Kept", rating: 2, into: writer)
            writer.assign(kept, to: stack.part1)
            try writer.save()
            return (gone.objectID, kept.objectID)
        }
        let gone = viewer.performAndWait {
            let gone = viewer.object(with: goneID)
            _ = gone.value(forKey: "authorAlias")
            return gone
        }
        let saved = try Self.didSave(of: writer) { writer.delete(writer.object(with: goneID)) }
        try viewer.performAndWait {
            viewer.mergeChanges(fromContextDidSave: saved)
            #expect(viewer.deletedObjects == [gone])
            // Changes for both stores besides the merged deletion.
            viewer.object(with: keptID).setValue(5.0, forKey: "rating")
            let added = MultipleStoresTests.insertFeedback("New", rating: 3, into: viewer)
            viewer.assign(added, to: stack.part2)
            try viewer.save()
            #expect(!viewer.hasChanges)
            #expect(viewer.registeredObject(for: goneID) == nil)
            let all = NSFetchRequest<NSManagedObject>(entityName: "Feedback")
            #expect(Set(try viewer.fetch(all).compactMap { $0.value(forKey: "authorAlias") as? String }) == ["Kept", "New"])
        }
    }

    /// A child that merged a deletion pushes it to its parent as one already made: neither writes it again.
    @Test func aChildPushesAMergedDeletionToItsParentWithoutAWrite() throws {
        let coordinator = try Self.coordinator()
        let parent = Self.context(coordinator), writer = Self.context(coordinator)
        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = parent
        let id = try Self.savePeople(["Ada"], in: writer)[0]
        let inParent = parent.performAndWait {
            let person = parent.object(with: id)
            _ = person.value(forKey: "name")
            return person
        }
        let inChild = child.performAndWait {
            let person = child.object(with: id)
            _ = person.value(forKey: "name")
            return person
        }
        let saved = try Self.didSave(of: writer) { writer.delete(writer.object(with: id)) }
        try child.performAndWait {
            child.mergeChanges(fromContextDidSave: saved)
            #expect(child.deletedObjects == [inChild])
            try child.save()
        }
        try parent.performAndWait {
            #expect(parent.deletedObjects == [inParent])
            try parent.save()
            #expect(!parent.hasChanges)
        }
    }

    /// Apple posts will-save and did-save for every save, with empty sets when nothing changed.
    /// CoreDataPlus's `test_InvestigationAutomaticallyMergesChangesFromParent`: the parent saves and then, still on
    /// its queue, waits for the child, whose automatic merge of that save runs first. The merge must not wait for the
    /// parent's queue (it leaves the child's copy a fault that the read then fills in place); the scenario runs on a
    /// thread of its own so that a deadlock fails the test instead of hanging the run.
    @Test func aChildsAutomaticMergeDoesNotWaitForItsBusyParent() throws {
        let coordinator = try Self.coordinator()
        let parent = Self.context(coordinator)
        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = parent
        child.automaticallyMergesChangesFromParent = true
        let id = try Self.savePeople(["Ann"], in: parent)[0]
        nonisolated(unsafe) let childsPerson = child.performAndWait {
            let person = child.object(with: id)
            _ = person.value(forKey: "name")
            return person
        }
        final class Outcome: @unchecked Sendable { var name: String?; var error: (any Error)? }
        let outcome = Outcome()
        let finished = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            do {
                try parent.performAndWait {
                    parent.object(with: id).setValue("Bea", forKey: "name")
                    try parent.save()
                    outcome.name = child.performAndWait { childsPerson.value(forKey: "name") as? String }
                }
            } catch { outcome.error = error }
            finished.signal()
        }
        let done = finished.wait(timeout: .now() + 20) == .success
        #expect(done, "the child's merge and the parent waiting for the child deadlocked")
        guard done else { return }
        #expect(outcome.error == nil)
        #expect(outcome.name == "Bea", "the child sees the parent's saved change")
    }

    @Test func aSaveWithoutChangesStillPostsDidSave() throws {
        let coordinator = try Self.coordinator()
        let context = Self.context(coordinator)
        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = context
        for saver in [context, child] {
            let willSave = Recorder(NSManagedObjectContext.willSaveObjectsNotification, from: saver)
            let didSave = Recorder(NSManagedObjectContext.didSaveObjectsNotification, from: saver)
            defer { willSave.stop(); didSave.stop() }
            try saver.performAndWait { try saver.save() }
            #expect(willSave.notes.count == 1)
            #expect(didSave.notes.count == 1)
            let info = try #require(didSave.infos.first)
            for key in [NSInsertedObjectsKey, NSUpdatedObjectsKey, NSDeletedObjectsKey] {
                #expect((info[key] as? Set<NSManagedObject>)?.isEmpty == true)
            }
        }
    }
}
