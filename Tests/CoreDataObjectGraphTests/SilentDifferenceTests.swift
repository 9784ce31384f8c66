import CoreDataMacros
import CoreDataModel
import CoreDataObjectGraph
import CoreDataTestSupport
import Foundation
import Predicates
import SQLiteDatabase
import Testing
import UndoManagement

/// Behaviour that must match Apple's documentation without an error to point at it: refreshing with merged
/// changes, relationship counts, did-save and did-change notifications, optional to-one properties, undo and redo of
/// insertions, and transient attributes.
struct SilentDifferenceTests {
    final class Photo: NSManagedObject {
        @Managed var caption: String?
        @Managed var recipe: Recipe?
    }

    private func stack(chefs: Int = 3, recipes: Int = 4) throws -> (TestStack, URL) {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore(chefs: chefs, recipes: recipes)
        return (try TestStack(storeURL: url, model: model, options: [:]), url)
    }

    private func child(of parent: NSManagedObjectContext) -> NSManagedObjectContext {
        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = parent
        return child
    }

    /// Collects the notifications `name` posted by `object` while `body` runs.
    private func notifications(_ name: Notification.Name, from object: AnyObject, during body: () throws -> Void) rethrows -> [Notification] {
        final class Box: @unchecked Sendable { var received: [Notification] = [] }
        let box = Box()
        let token = NotificationCenter.default.addObserver(forName: name, object: object, queue: nil) { box.received.append($0) }
        defer { NotificationCenter.default.removeObserver(token) }
        try body()
        return box.received
    }

    // MARK: refresh(_:mergeChanges: true)

    @Test func refreshWithMergeChangesReappliesUnsavedChangesOverTheStoresValues() throws {
        let (stack, url) = try stack()
        try stack.context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Chef")
            request.predicate = Predicates.NSPredicate(format: "name == %@", "Chef 1")
            let chef = try #require(try stack.context.fetch(request).first)
            chef.setValue("Renamed", forKey: "name")
            // Another writer changes the email underneath.
            try Connection(path: url.path, mode: .readWrite).execute(sql: "UPDATE ZCHEF SET ZEMAIL = 'new@example.com', Z_OPT = 2 WHERE Z_PK = 1")
            stack.context.refresh(chef, mergeChanges: true)
            #expect(chef.value(forKey: "name") as? String == "Renamed")
            #expect(chef.value(forKey: "email") as? String == "new@example.com")
            #expect(chef.hasChanges && chef.changedValues().keys.sorted() == ["name"])
            // The refreshed version is the one the save checks against: no conflict.
            try stack.context.save()
        }
        let row = try Connection(path: url.path, mode: .readOnly).query("SELECT ZNAME, ZEMAIL FROM ZCHEF WHERE Z_PK = 1")[0]
        #expect(row[0].stringValue == "Renamed" && row[1].stringValue == "new@example.com")
    }

    // MARK: Relationship counts

    @Test func anEmptyNonOptionalToManyWithMinimumCountZeroIsValid() throws {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore(chefs: 1, recipes: 1)
        let stack = try TestStack(storeURL: url, model: model, options: [:])
        // Made non-optional after the store opened (the version hash covers optionality).
        let recipes = try #require(model.entitiesByName["Chef"]?.relationshipsByName["recipes"])
        recipes.isOptional = false
        recipes.minCount = 0
        try stack.context.performAndWait {
            let added = NSEntityDescription.insertNewObject(forEntityName: "Chef", into: stack.context)
            added.setValue("Empty", forKey: "name")
            try added.validateForInsert()
            // The declared minimum still holds.
            recipes.minCount = 1
            #expect(throws: (any Error).self) { try added.validateForInsert() }
        }
    }

    // MARK: Notifications

    @Test func savingAChildContextPostsDidSave() throws {
        let (stack, _) = try stack()
        let detail = child(of: stack.context)
        try detail.performAndWait {
            let added = NSEntityDescription.insertNewObject(forEntityName: "Chef", into: detail)
            added.setValue("From the child", forKey: "name")
            let posted = try notifications(NSManagedObjectContext.didSaveObjectsNotification, from: detail) { try detail.save() }
            #expect(posted.count == 1)
            let inserted = posted.first?.userInfo?[NSInsertedObjectsKey] as? Set<NSManagedObject>
            #expect(inserted?.map { $0.value(forKey: "name") as? String } == ["From the child"])
        }
    }

    @Test func mergingADidSavePostsObjectsDidChangeWithTheInsertedObjects() throws {
        let (stack, _) = try stack()
        let writer = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        writer.persistentStoreCoordinator = stack.coordinator
        var saved: Notification?
        try writer.performAndWait {
            let added = NSEntityDescription.insertNewObject(forEntityName: "Chef", into: writer)
            added.setValue("Merged", forKey: "name")
            saved = try notifications(NSManagedObjectContext.didSaveObjectsNotification, from: writer) { try writer.save() }.first
        }
        let didSave = try #require(saved)
        stack.context.performAndWait {
            let posted = notifications(NSManagedObjectContext.objectsDidChangeNotification, from: stack.context) {
                stack.context.mergeChanges(fromContextDidSave: didSave)
            }
            #expect(posted.count == 1)
            let inserted = posted.first?.userInfo?[NSInsertedObjectsKey] as? Set<NSManagedObject>
            #expect(inserted?.map { $0.value(forKey: "name") as? String } == ["Merged"])
            #expect(inserted?.first?.managedObjectContext === stack.context)
        }
    }

    // MARK: @Managed

    @Test func settingAnOptionalToOneToNilThroughManaged() throws {
        NSManagedObject.register(Photo.self, forEntityName: "Photo")
        let (stack, _) = try stack()
        try stack.context.performAndWait {
            let recipe = try #require(try stack.context.fetch(NSFetchRequest<Recipe>(entityName: "Recipe")).first)
            let photo = try #require(NSEntityDescription.insertNewObject(forEntityName: "Photo", into: stack.context) as? Photo)
            photo.recipe = recipe
            #expect(photo.recipe === recipe)
            photo.recipe = nil
            #expect(photo.recipe == nil)
            #expect(recipe.value(forKey: "photo") == nil)
            photo.caption = "kept"
            photo.caption = nil
            #expect(photo.caption == nil)
        }
    }

    // MARK: NSNull in predicates

    @Test func anNSNullConstantFetchesWhatNilFetches() throws {
        let (stack, _) = try stack()
        try stack.context.performAndWait { () throws in
            let request = NSFetchRequest<NSManagedObject>(entityName: "Chef")
            request.predicate = Predicates.NSPredicate(format: "email == %@", NSNull())
            #expect(request.predicate?.predicateFormat == "email == <null>")
            #expect(try stack.context.count(for: request) == 3)
            request.predicate = Predicates.NSPredicate(format: "email != %@", NSNull())
            #expect(try stack.context.fetch(request).isEmpty)
        }
    }

    // MARK: Undo

    @Test func undoingInsertionsThenRedoingBringsEveryObjectBack() throws {
        let (stack, _) = try stack()
        try stack.context.performAndWait {
            stack.context.undoManager = UndoManager()
            for index in 0..<20 {
                let added = NSEntityDescription.insertNewObject(forEntityName: "Chef", into: stack.context)
                added.setValue("New \(index)", forKey: "name")
            }
            stack.context.processPendingChanges()
            #expect(stack.context.insertedObjects.count == 20)
            stack.context.undo()
            #expect(stack.context.insertedObjects.isEmpty)
            stack.context.redo()
            #expect(stack.context.insertedObjects.count == 20)
            #expect(Set(stack.context.insertedObjects.compactMap { $0.value(forKey: "name") as? String }) == Set((0..<20).map { "New \($0)" }))
            try stack.context.save()
            #expect(try stack.context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Chef")) == 23)
        }
    }

    // MARK: Transient attributes

    @Test func aTransientAttributeReadsItsDefaultAfterRefreshingAllObjects() throws {
        let model = try SampleStoreBuilder.recipesModel()
        let recipeEntity = try #require(model.entitiesByName["Recipe"])
        try #require(recipeEntity.attributesByName["isFavorite"]).defaultValue = true
        let views = NSAttributeDescription(name: "viewCount", type: .integer16AttributeType)
        views.isTransient = true
        views.isOptional = true
        views.defaultValue = 7
        recipeEntity.addProperty(views)
        let (url, _) = try SampleStoreBuilder.makeRecipesStore(chefs: 1, recipes: 2)
        let stack = try TestStack(storeURL: url, model: model, options: [:])
        try stack.context.performAndWait {
            let recipe = try #require(try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Recipe")).first)
            #expect(recipe.value(forKey: "isFavorite") as? Bool == true)
            recipe.setValue(false, forKey: "isFavorite")
            #expect(recipe.value(forKey: "isFavorite") as? Bool == false)
            stack.context.refreshAllObjects()
            #expect(recipe.value(forKey: "isFavorite") as? Bool == true)
            #expect(recipe.value(forKey: "viewCount", as: Int16.self) == 7)
            let typed = recipe.value(forKey: "viewCount").map { ($0 as? Int64) ?? Int64(($0 as? Int16) ?? -1) }
            #expect(typed == 7)
        }
    }

    @Test func aTransientValueSetInAChildReachesTheParentOnSave() throws {
        let (stack, _) = try stack()
        let recipeID = try stack.context.performAndWait {
            try #require(try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Recipe")).first).objectID
        }
        let detail = child(of: stack.context)
        try detail.performAndWait {
            let recipe = try detail.existingObject(with: recipeID)
            recipe.setValue(true, forKey: "isFavorite")
            try detail.save()
        }
        stack.context.performAndWait {
            #expect(stack.context.object(with: recipeID).value(forKey: "isFavorite") as? Bool == true)
        }
    }
}
