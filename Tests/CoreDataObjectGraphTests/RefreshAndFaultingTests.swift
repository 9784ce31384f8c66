import CoreDataMacros
import CoreDataModel
import CoreDataObjectGraph
import CoreDataTestSupport
import Foundation
import Predicates
import SQLiteDatabase
import Testing
import UndoManagement

/// `refresh(_:mergeChanges:)` and `refreshAllObjects()` as Apple's documentation describes them. With `false` "the
/// context discards pending changes and the managed object becomes a fault. Upon next access, the context reloads the
/// object's values from the persistent store or last cached state"; with `true` it "reloads the object's property
/// values from the store or the cache. Then the context applies local changes over the newly loaded values", and
/// transient properties are left alone (with `false` they are disposed of). An inserted object has no row to reload
/// from: it becomes a fault too (CoreDataPlus's `test_FaultAndMaterialize*` pass on Apple's platforms), is still
/// inserted, and comes back with the values it had, so a save, a child's save, undo and fetches still see them.
/// Uses the Recipes classes of `AppleDocumentationManagedTests.swift`.
struct RefreshAndFaultingTests {
    private func container() throws -> NSPersistentContainer { try AppleDocumentationManagedTests.recipesContainer() }

    private func recipe(_ name: String, in context: NSManagedObjectContext) -> Recipe {
        AppleDocumentationManagedTests.recipe(name, in: context)
    }

    private func child(of parent: NSManagedObjectContext) -> NSManagedObjectContext {
        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = parent
        return child
    }

    /// Runs `body` with the recipes the store holds, by name, read in a fresh context (on its queue).
    private func withSavedRecipes<T>(in container: NSPersistentContainer, _ body: ([String: Recipe]) throws -> T) throws -> T {
        let context = container.newBackgroundContext()
        return try context.performAndWait {
            let recipes = try context.fetch(NSFetchRequest<Recipe>(entityName: "Recipe"))
            return try body(Dictionary(uniqueKeysWithValues: recipes.map { ($0.name ?? "", $0) }))
        }
    }

    // MARK: Inserted objects

    @Test func refreshWithoutMergingTurnsAnInsertedObjectIntoAFaultThatKeepsItsValues() throws {
        let container = try container()
        let context = container.newBackgroundContext()
        context.performAndWait {
            let soup = recipe("Soup", in: context)
            soup.setValue(true, forKey: "isFavorite")
            #expect(soup.objectID.isTemporaryID && !soup.isFault)

            context.refresh(soup, mergeChanges: false)
            #expect(soup.isFault)
            #expect(soup.isInserted && context.insertedObjects == [soup] && context.hasChanges)
            // Apple: "invoke this method with the key value of nil to ensure that a fault has been fired".
            soup.willAccessValue(forKey: nil)
            #expect(!soup.isFault)
            #expect(soup.name == "Soup" && soup.normalizedName == "soup")
            #expect(soup.value(forKey: "isFavorite") == nil, "transient values are disposed of when the flag is false")
            #expect(soup.faultingError == nil)

            // Faulting it again, and reading it through a property, fires it as well.
            context.refresh(soup, mergeChanges: false)
            #expect(soup.isFault)
            #expect(soup.name == "Soup")
            #expect(!soup.isFault)
        }
    }

    @Test func anInsertedObjectTurnedIntoAFaultIsSavedWithItsValuesAndRelationships() throws {
        let container = try container()
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let soup = recipe("Soup", in: context)
            let chef = Chef(context: context)
            chef.name = "Ada"
            soup.chef = chef
            let tag = Tag(context: context)
            tag.label = "Warm"
            tag.recipes = [soup]
            for object in [soup, chef, tag] as [NSManagedObject] { context.refresh(object, mergeChanges: false) }
            #expect(soup.isFault && chef.isFault && tag.isFault)
            try context.save()
            #expect(!soup.objectID.isTemporaryID)
        }
        try withSavedRecipes(in: container) { saved in
            let soup = try #require(saved["Soup"])
            #expect(soup.normalizedName == "soup")
            #expect(soup.chef?.name == "Ada")
            #expect((soup.tags ?? NSSet()).compactMap { ($0 as? Tag)?.label } == ["Warm"])
        }
    }

    @Test func aChildsInsertedObjectTurnedIntoAFaultGoesUpToTheParentWithItsValues() throws {
        let container = try container()
        let parent = container.newBackgroundContext()
        let child = child(of: parent)
        try child.performAndWait {
            let soup = recipe("Soup", in: child)
            soup.minutes = 45
            child.refresh(soup, mergeChanges: false)
            try child.save()
        }
        try parent.performAndWait {
            let soup = try #require(parent.insertedObjects.first as? Recipe)
            #expect(soup.name == "Soup" && soup.minutes == 45)
            try parent.save()
        }
        #expect(try withSavedRecipes(in: container) { $0["Soup"]?.minutes } == 45)
    }

    @Test func aChildReadsAnInsertedObjectItsParentTurnedIntoAFault() throws {
        let container = try container()
        let parent = container.newBackgroundContext()
        let id = parent.performAndWait {
            let soup = recipe("Soup", in: parent)
            parent.refresh(soup, mergeChanges: false)
            return soup.objectID
        }
        let child = child(of: parent)
        child.performAndWait {
            let soup = child.object(with: id)
            // Apple: object(with:) returns a fault; the child's values come from its parent when it fires.
            #expect(soup.isFault)
            #expect(soup.value(forKey: "name") as? String == "Soup")
            #expect(!soup.isFault && soup.faultingError == nil)
        }
    }

    @Test func undoingAndRedoingTheInsertionOfAnObjectTurnedIntoAFaultKeepsItsValues() throws {
        let container = try container()
        let context = container.newBackgroundContext()
        context.undoManager = UndoManager()
        try context.performAndWait {
            let soup = recipe("Soup", in: context)
            context.processPendingChanges()
            context.refresh(soup, mergeChanges: false)
            // The undo takes back the insertion and the values set with it; the redo brings both back, and the
            // values it did not set (the model's defaults) are still there.
            context.undo()
            #expect(context.insertedObjects.isEmpty && soup.managedObjectContext == nil)
            context.redo()
            #expect(context.insertedObjects == [soup])
            #expect(soup.name == "Soup" && soup.minutes == 30 && soup.servings == 2)
            try context.save()
        }
        #expect(try withSavedRecipes(in: container) { $0.keys.sorted() } == ["Soup"])
    }

    @Test func fetchesAndFetchedResultsControllersReadTheValuesOfInsertedObjectsTurnedIntoFaults() throws {
        let container = try container()
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let stew = recipe("Stew", in: context), soup = recipe("Soup", in: context)
            context.processPendingChanges()
            context.refresh(stew, mergeChanges: false)
            context.refresh(soup, mergeChanges: false)

            let request = NSFetchRequest<Recipe>(entityName: "Recipe")
            request.predicate = NSPredicate(format: "name == %@", "Soup")
            #expect(try context.fetch(request) == [soup], "a fetch includes pending changes, the fault's values among them")

            let sorted = NSFetchRequest<Recipe>(entityName: "Recipe")
            sorted.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
            let controller = NSFetchedResultsController(fetchRequest: sorted, managedObjectContext: context,
                                                        sectionNameKeyPath: nil, cacheName: nil)
            // With a delegate the controller follows the context's changes (without one it does not).
            let recorder = ChangeRecorder()
            controller.delegate = recorder
            try controller.performFetch()
            #expect(controller.fetchedObjects == [soup, stew])

            // A new object goes in before the two faults: placing it reads their names.
            context.refresh(stew, mergeChanges: false)
            context.refresh(soup, mergeChanges: false)
            context.processPendingChanges()
            _ = recorder.take()
            let broth = recipe("Broth", in: context)
            context.processPendingChanges()
            #expect(controller.fetchedObjects == [broth, soup, stew])
            #expect(recorder.take() == [.willChange, .object("Broth", .insert, nil, path(0, 0)), .didChange])
        }
    }

    @Test func existingObjectAndBatchFaultingFillInsertedObjectsTurnedIntoFaults() throws {
        let container = try container()
        let parent = container.newBackgroundContext()
        let (soupID, stewID) = try parent.performAndWait {
            let soup = recipe("Soup", in: parent), stew = recipe("Stew", in: parent)
            parent.refresh(soup, mergeChanges: false)
            parent.refresh(stew, mergeChanges: false)
            #expect(try parent.existingObject(with: soup.objectID) === soup)
            #expect(!soup.isFault && soup.name == "Soup")
            try parent.fulfillFaults(for: [stew])
            #expect(!stew.isFault && stew.name == "Stew")
            return (soup.objectID, stew.objectID)
        }
        // A child's objects for its parent's inserts fill from the parent, one by one or together.
        let child = child(of: parent)
        try child.performAndWait {
            let soup = child.object(with: soupID), stew = child.object(with: stewID)
            try child.fulfillFaults(for: [soup, stew])
            #expect(!soup.isFault && !stew.isFault)
            #expect(soup.value(forKey: "name") as? String == "Soup" && stew.value(forKey: "name") as? String == "Stew")
        }
    }

    // MARK: refreshAllObjects() and refresh(_:mergeChanges: true)

    @Test func refreshAllObjectsLeavesInsertedObjectsAsTheyAreAndTurnsUnchangedOnesIntoFaults() throws {
        let container = try container()
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let saved = recipe("Saved", in: context)
            try context.save()
            _ = saved.name
            let soup = recipe("Soup", in: context)
            soup.setValue(true, forKey: "isFavorite")
            context.refreshAllObjects()
            // refreshAllObjects() refreshes with merged changes: an object with changes keeps them (transient values
            // included), one without becomes a fault.
            #expect(!soup.isFault && soup.isInserted && soup.name == "Soup")
            #expect(soup.value(forKey: "isFavorite") as? Bool == true)
            #expect(saved.isFault)
        }
    }

    @Test func refreshAllObjectsReloadsAnObjectWithChangesAndReappliesThem() throws {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore(chefs: 3, recipes: 4)
        let stack = try TestStack(storeURL: url, model: model, options: [:])
        try stack.context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Chef")
            request.predicate = NSPredicate(format: "name == %@", "Chef 1")
            let chef = try #require(try stack.context.fetch(request).first)
            chef.setValue("Renamed", forKey: "name")
            // Another writer changes the email underneath.
            try Connection(path: url.path, mode: .readWrite).execute(sql: "UPDATE ZCHEF SET ZEMAIL = 'new@example.com', Z_OPT = 2 WHERE Z_PK = 1")
            // "This refreshes all the objects in the context while preserving the unsaved changes" (WWDC 2015).
            stack.context.refreshAllObjects()
            #expect(chef.value(forKey: "name") as? String == "Renamed")
            #expect(chef.value(forKey: "email") as? String == "new@example.com")
            #expect(chef.changedValues().keys.sorted() == ["name"])
            // The reloaded version is the one the save checks against: no conflict.
            try stack.context.save()
        }
        let row = try Connection(path: url.path, mode: .readOnly).query("SELECT ZNAME, ZEMAIL FROM ZCHEF WHERE Z_PK = 1")[0]
        #expect(row[0].stringValue == "Renamed" && row[1].stringValue == "new@example.com")
    }

    @Test func refreshWithMergeChangesTurnsAnObjectWithoutChangesIntoAFaultAsRefreshAllObjectsDoes() throws {
        let container = try container()
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let soup = recipe("Soup", in: context)
            try context.save()
            _ = soup.name
            context.refresh(soup, mergeChanges: true)
            #expect(soup.isFault)
            #expect(soup.name == "Soup")
            // With a change it stays realized, with the change re-applied.
            soup.minutes = 10
            context.refresh(soup, mergeChanges: true)
            #expect(!soup.isFault && soup.minutes == 10 && soup.hasChanges)
        }
    }

    // MARK: Deleted objects

    @Test(arguments: [false, true])
    func refreshingADeletedObjectKeepsItDeleted(mergeChanges: Bool) throws {
        let container = try container()
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let soup = recipe("Soup", in: context)
            try context.save()
            context.delete(soup)
            context.refresh(soup, mergeChanges: mergeChanges)
            #expect(soup.isDeleted && context.deletedObjects == [soup])
            try context.save()
        }
        #expect(try withSavedRecipes(in: container) { $0.isEmpty })
    }

    // MARK: Child contexts

    @Test func refreshInAChildReloadsFromTheParentsUnsavedValues() throws {
        let container = try container()
        let parent = container.newBackgroundContext()
        let id = try parent.performAndWait {
            let soup = recipe("Soup", in: parent)
            try parent.save()
            soup.minutes = 90  // the parent's unsaved change
            return soup.objectID
        }
        let child = child(of: parent)
        child.performAndWait {
            let soup = child.object(with: id) as! Recipe
            #expect(soup.minutes == 90)
            soup.servings = 6  // the child's change
            parent.performAndWait { (parent.object(with: id) as! Recipe).name = "Parent's soup" }

            // The child's store is its parent: merging reads the parent's current values under the child's change.
            child.refresh(soup, mergeChanges: true)
            #expect(soup.name == "Parent's soup" && soup.minutes == 90 && soup.servings == 6)
            #expect(soup.hasChanges)

            child.refresh(soup, mergeChanges: false)
            #expect(soup.isFault && !soup.hasChanges)
            #expect(soup.name == "Parent's soup" && soup.minutes == 90 && soup.servings == 2)
        }
    }
}
