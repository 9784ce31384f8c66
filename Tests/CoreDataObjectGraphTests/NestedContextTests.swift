import CoreDataModel
import CoreDataObjectGraph
import CoreDataTestSupport
import Foundation
import Predicates
import SQLiteDatabase
import Testing

/// Child contexts, notifications, merging between contexts and merge policies.
struct NestedContextTests {
    private func child(of parent: NSManagedObjectContext) -> NSManagedObjectContext {
        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = parent
        return child
    }

    private func names(_ url: URL) throws -> [String] {
        try Connection(path: url.path, mode: .readOnly).query("SELECT ZNAME FROM ZCHEF ORDER BY Z_PK").map { $0[0].stringValue ?? "" }
    }

    @Test func discardingAChildLeavesTheParentUntouched() throws {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore(chefs: 2, recipes: 2)
        let stack = try TestStack(storeURL: url, model: model, options: [:])
        let parentChef = try stack.context.performAndWait { try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Chef"))[0] }
        let detail = child(of: stack.context)
        try detail.performAndWait {
            let chef = try detail.existingObject(with: parentChef.objectID)
            chef.setValue("Edited", forKey: "name")
        }
        // The child is thrown away: nothing reached the parent or the store.
        stack.context.performAndWait {
            #expect(parentChef.value(forKey: "name") as? String == "Chef 1")
            #expect(!stack.context.hasChanges)
        }
        #expect(try names(url) == ["Chef 1", "Chef 2"])
    }

    @Test func childSavePushesToTheParentAndTheParentSaveWritesTheStore() throws {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore(chefs: 2, recipes: 2)
        let stack = try TestStack(storeURL: url, model: model, options: [:])
        let chefID = try stack.context.performAndWait { try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Chef"))[0].objectID }
        let detail = child(of: stack.context)
        try detail.performAndWait {
            let chef = try detail.existingObject(with: chefID)
            chef.setValue("Pushed", forKey: "name")
            let added = NSEntityDescription.insertNewObject(forEntityName: "Chef", into: detail)
            added.setValue("New chef", forKey: "name")
            try detail.save()
        }
        #expect(try names(url) == ["Chef 1", "Chef 2"], "a child's save does not write the store")
        try stack.context.performAndWait {
            #expect(stack.context.object(with: chefID).value(forKey: "name") as? String == "Pushed")
            #expect(stack.context.insertedObjects.count == 1 && stack.context.updatedObjects.count == 1)
            // The pushed values are the parent's changes, on the inserted object as on the updated one.
            #expect(stack.context.insertedObjects.first?.changedValues()["name"] as? String == "New chef")
            #expect(stack.context.object(with: chefID).changedValues()["name"] as? String == "Pushed")
            try stack.context.save()
        }
        #expect(try names(url) == ["Pushed", "Chef 2", "New chef"])
    }

    @Test func aChildFetchSeesTheParentsUnsavedChanges() throws {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore(chefs: 3, recipes: 3)
        let stack = try TestStack(storeURL: url, model: model, options: [:])
        try stack.context.performAndWait {
            let chefs = try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Chef"))
            chefs[0].setValue("Zed", forKey: "name")
            stack.context.delete(chefs[1])
            let added = NSEntityDescription.insertNewObject(forEntityName: "Chef", into: stack.context)
            added.setValue("Anna", forKey: "name")
        }
        let detail = child(of: stack.context)
        try detail.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Chef")
            request.sortDescriptors = [Predicates.NSSortDescriptor(key: "name", ascending: true)]
            let all = try detail.fetch(request).map { $0.value(forKey: "name") as? String }
            #expect(all == ["Anna", "Chef 3", "Zed"])
            request.predicate = Predicates.NSPredicate(format: "name BEGINSWITH %@", "Z")
            let zs = try detail.fetch(request).map { $0.value(forKey: "name") as? String }
            #expect(zs == ["Zed"])
        }
    }

    @Test func mergeChangesBringsAnotherContextsSave() throws {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore(chefs: 2, recipes: 2)
        let writer = try TestStack(storeURL: url, model: model, options: [:])
        let reader = try TestStack(storeURL: url, model: model, options: [:])  // another coordinator on the same file
        let readerChef = try reader.context.performAndWait {
            let chef = try reader.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Chef"))[0]
            _ = chef.value(forKey: "name")
            return chef
        }
        // Notifications are delivered synchronously on the saving queue; the box only carries it out.
        final class Received: @unchecked Sendable { var note: Notification? }
        let received = Received()
        let observer = NotificationCenter.default.addObserver(forName: NSManagedObjectContext.didSaveObjectsNotification,
                                                              object: writer.context, queue: nil) { note in
            received.note = note
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        try writer.context.performAndWait {
            try writer.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Chef"))[0].setValue("Merged", forKey: "name")
            try writer.context.save()
        }
        let note = try #require(received.note)
        #expect((note.userInfo?[NSUpdatedObjectsKey] as? Set<NSManagedObject>)?.count == 1)
        reader.context.performAndWait {
            #expect(readerChef.value(forKey: "name") as? String == "Chef 1", "not merged yet")
            reader.context.mergeChanges(fromContextDidSave: note)
            #expect(readerChef.value(forKey: "name") as? String == "Merged")
        }
    }

    /// A did-save notification names the inserted, updated and deleted objects; merged into another context of the
    /// same coordinator, the update is seen, the deleted object is forgotten, and the new one is reached through
    /// the refreshed inverse.
    @Test func didSaveCarriesInsertsUpdatesAndDeletesAndMergesThemAll() throws {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore(chefs: 1, recipes: 3)
        let stack = try TestStack(storeURL: url, model: model, options: [:])
        let reader = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        reader.persistentStoreCoordinator = stack.coordinator
        let (chefID, recipeIDs) = try reader.performAndWait {
            let chef = try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Chef"))[0]
            let recipes = try #require(chef.value(forKey: "recipes") as? Set<NSManagedObject>)
            for recipe in recipes { _ = recipe.value(forKey: "name") }
            return (chef.objectID, recipes.map(\.objectID).sorted { $0.primaryKey < $1.primaryKey })
        }
        let kept = try reader.performAndWait { UncheckedBox(try reader.existingObject(with: chefID)) }

        final class Received: @unchecked Sendable { var saves: [Notification] = []; var changes: [Notification] = [] }
        let received = Received()
        let observers = [
            NotificationCenter.default.addObserver(forName: NSManagedObjectContext.didSaveObjectsNotification, object: stack.context,
                                                   queue: nil) { received.saves.append($0) },
            NotificationCenter.default.addObserver(forName: NSManagedObjectContext.objectsDidChangeNotification, object: stack.context,
                                                   queue: nil) { received.changes.append($0) },
        ]
        defer { observers.forEach(NotificationCenter.default.removeObserver) }
        let (newID, deletedIDs) = try stack.context.performAndWait {
            let chef = try stack.context.existingObject(with: chefID)
            let first = try stack.context.existingObject(with: recipeIDs[0]), second = try stack.context.existingObject(with: recipeIDs[1])
            first.setValue("Renamed", forKey: "name")
            // The second recipe's ingredients go with it (Cascade).
            let ingredients = try #require(second.value(forKey: "ingredients") as? [NSManagedObject])
            #expect(ingredients.count == 2)
            let deletedIDs = Set([second.objectID] + ingredients.map(\.objectID))
            stack.context.delete(second)
            let added = NSEntityDescription.insertNewObject(forEntityName: "Tag", into: stack.context)
            added.setValue("new", forKey: "label")
            stack.context.processPendingChanges()
            let change = try #require(received.changes.last?.userInfo)
            #expect(Set((change[NSDeletedObjectsKey] as? Set<NSManagedObject>)?.map(\.objectID) ?? []) == deletedIDs)
            #expect((change[NSInsertedObjectsKey] as? Set<NSManagedObject>) == [added])
            try stack.context.save()
            _ = chef
            return (added.objectID, deletedIDs)
        }
        let note = try #require(received.saves.last)
        let info = try #require(note.userInfo)
        #expect((info[NSInsertedObjectsKey] as? Set<NSManagedObject>)?.map(\.objectID) == [newID])
        #expect(Set((info[NSUpdatedObjectsKey] as? Set<NSManagedObject>)?.map(\.objectID) ?? []) == [recipeIDs[0], chefID],
                "the renamed recipe, and the chef whose recipes lost the deleted one")
        #expect(Set((info[NSDeletedObjectsKey] as? Set<NSManagedObject>)?.map(\.objectID) ?? []) == deletedIDs)
        #expect(info[NSManagedObjectContext.deletedObjectIDsKey] as? Set<NSManagedObjectID> == deletedIDs)

        try reader.performAndWait {
            reader.mergeChanges(fromContextDidSave: note)
            #expect(reader.registeredObject(for: recipeIDs[1]) == nil, "the deleted recipe is forgotten")
            let recipes = try #require(kept.value.value(forKey: "recipes") as? Set<NSManagedObject>)
            #expect(Set(recipes.map(\.objectID)) == [recipeIDs[0], recipeIDs[2]])
            #expect(try reader.existingObject(with: recipeIDs[0]).value(forKey: "name") as? String == "Renamed")
            #expect(try reader.existingObject(with: newID).value(forKey: "label") as? String == "new")
            #expect(!reader.hasChanges)
        }
    }

    @Test(arguments: [
        (NSMergePolicy.mergeByPropertyObjectTrump, "Mine", "other@example.com"),
        (NSMergePolicy.mergeByPropertyStoreTrump, "Theirs", "other@example.com"),
        (NSMergePolicy.overwrite, "Mine", nil),
        (NSMergePolicy.rollback, "Theirs", "other@example.com"),
    ] as [(NSMergePolicy, String, String?)])
    func mergePoliciesResolveConflicts(policy: NSMergePolicy, expectedName: String, expectedEmail: String?) throws {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore(chefs: 1, recipes: 1)
        let mine = try TestStack(storeURL: url, model: model, options: [:])
        let theirs = try TestStack(storeURL: url, model: model, options: [:])
        let chef = try mine.context.performAndWait {
            let chef = try mine.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Chef"))[0]
            _ = chef.value(forKey: "name")
            return chef
        }
        try theirs.context.performAndWait {
            let other = try theirs.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Chef"))[0]
            other.setValue("Theirs", forKey: "name")
            other.setValue("other@example.com", forKey: "email")
            try theirs.context.save()
        }
        try mine.context.performAndWait {
            mine.context.mergePolicy = policy
            chef.setValue("Mine", forKey: "name")
            try mine.context.save()
        }
        let row = try Connection(path: url.path, mode: .readOnly).query("SELECT ZNAME, ZEMAIL FROM ZCHEF")[0]
        #expect(row[0].stringValue == expectedName)
        #expect(row[1].stringValue == expectedEmail)
    }
}

struct ObjectsDidChangeTests {
    @Test func processPendingChangesAnnouncesWhatChanged() throws {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore(chefs: 1, recipes: 2)
        let stack = try TestStack(storeURL: url, model: model, options: [:])
        final class Received: @unchecked Sendable { var notes: [Notification] = [] }
        let received = Received()
        let observer = NotificationCenter.default.addObserver(forName: NSManagedObjectContext.objectsDidChangeNotification,
                                                              object: stack.context, queue: nil) { received.notes.append($0) }
        defer { NotificationCenter.default.removeObserver(observer) }
        try stack.context.performAndWait {
            let recipes = try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Recipe"))
            recipes[0].setValue("Changed", forKey: "name")
            let tag = NSEntityDescription.insertNewObject(forEntityName: "Tag", into: stack.context)
            tag.setValue("new", forKey: "label")
            stack.context.processPendingChanges()
            stack.context.processPendingChanges()
        }
        #expect(received.notes.count == 1, "one notification per event with changes")
        let info = try #require(received.notes.first?.userInfo)
        #expect((info[NSInsertedObjectsKey] as? Set<NSManagedObject>)?.count == 1)
        #expect((info[NSUpdatedObjectsKey] as? Set<NSManagedObject>)?.count == 1)
    }
}
