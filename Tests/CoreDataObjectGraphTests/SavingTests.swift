import CoreDataModel
import CoreDataObjectGraph
import CoreDataSQLiteFormat
import CoreDataTestSupport
import Foundation
import SQLiteDatabase
import Testing

/// The write half through the public API: inserts, updates, deletes with their rules, inverses, validation,
/// optimistic locking, and the bytes Apple's format expects.
struct SavingTests {
    private func writableStack(_ url: URL, _ model: NSManagedObjectModel) throws -> TestStack {
        try TestStack(storeURL: url, model: model, options: [:])
    }

    private func sql(_ url: URL, _ query: String) throws -> [[SQLiteValue]] {
        try Connection(path: url.path, mode: .readOnly).query(query)
    }

    @Test func insertSaveAndReopen() throws {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore(chefs: 2, recipes: 3)
        let stack = try writableStack(url, model)
        let id = try stack.context.performAndWait {
            let chef = NSEntityDescription.insertNewObject(forEntityName: "Chef", into: stack.context)
            chef.setValue("Zoë", forKey: "name")
            #expect(chef.objectID.isTemporaryID)
            #expect(chef.value(forKey: "recipeCount") as? Int64 == 0, "default value")
            let recipe = NSEntityDescription.insertNewObject(forEntityName: "Recipe", into: stack.context)
            recipe.setValue("Ratatouille", forKey: "name")
            recipe.setValue("ratatouille", forKey: "normalizedName")
            recipe.setValue(Date(timeIntervalSinceReferenceDate: 1000), forKey: "created")
            recipe.setValue(UUID(uuidString: "00000000-0000-0000-0000-000000000001")!, forKey: "identifier")
            recipe.setValue(chef, forKey: "chef")
            #expect((chef.value(forKey: "recipes") as? Set<NSManagedObject>)?.contains(recipe) == true, "inverse maintained")
            #expect(stack.context.insertedObjects.count == 2)
            try stack.context.save()
            #expect(!chef.objectID.isTemporaryID && !stack.context.hasChanges)
            return recipe.objectID
        }
        #expect(id.primaryKey == 4, "Z_MAX was 3")
        #expect(try sql(url, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Recipe'")[0][0] == .integer(4))
        #expect(try sql(url, "SELECT Z_OPT, ZNAME, ZCHEF FROM ZRECIPE WHERE Z_PK = 4")[0] == [.integer(1), .text("Ratatouille"), .integer(3)])
        #expect(try Connection(path: url.path, mode: .readOnly).integrityCheck() == ["ok"])
        let reopened = try TestStack(storeURL: url, model: model)
        try reopened.context.performAndWait {
            let recipe = try reopened.context.existingObject(with: id)
            #expect(recipe.value(forKey: "name") as? String == "Ratatouille")
            #expect((recipe.value(forKey: "chef") as? NSManagedObject)?.value(forKey: "name") as? String == "Zoë")
            #expect(recipe.value(forKey: "created") as? Date == Date(timeIntervalSinceReferenceDate: 1000))
        }
    }

    @Test func updatesIncrementZOptAndWriteOnlyChanges() throws {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore(chefs: 2, recipes: 3)
        let stack = try writableStack(url, model)
        try stack.context.performAndWait {
            let recipe = try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Recipe"))[0]
            recipe.setValue(Int16(45), forKey: "minutes")
            #expect(recipe.isUpdated)
            #expect(recipe.changedValues().keys.sorted() == ["minutes"])
            #expect(recipe.committedValues(forKeys: ["minutes"])["minutes"] as? Int64 == 5)
            try stack.context.save()
            recipe.setValue(Int16(50), forKey: "minutes")
            try stack.context.save()
        }
        #expect(try sql(url, "SELECT Z_OPT, ZMINUTES FROM ZRECIPE WHERE Z_PK = 1")[0] == [.integer(3), .integer(50)])
    }

    @Test func deleteRulesNullifyCascadeAndDeny() throws {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore(chefs: 2, recipes: 6)
        let stack = try writableStack(url, model)
        try stack.context.performAndWait {
            let recipes = try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Recipe"))
            // Recipe 3 has 3 ingredients (cascade); its chef keeps the other recipes (nullify on the inverse).
            let recipe = recipes[2]
            let chef = try #require(recipe.value(forKey: "chef") as? NSManagedObject)
            stack.context.delete(recipe)
            stack.context.processPendingChanges()
            #expect((chef.value(forKey: "recipes") as? Set<NSManagedObject>)?.contains(recipe) == false)
            #expect(stack.context.deletedObjects.count == 4, "the recipe and its 3 ingredients")
            try stack.context.save()
        }
        #expect(try sql(url, "SELECT count(*) FROM ZRECIPE")[0][0] == .integer(5))
        #expect(try sql(url, "SELECT count(*) FROM ZINGREDIENT WHERE ZRECIPE = 3")[0][0] == .integer(0))
        // Deny: a cuisine with recipes cannot be deleted.
        let cuisineNumber = StoreLayout(model: model).numbering["Cuisine"]!
        let writer = try Connection(path: url.path, mode: .readWrite)
        try DerivedAttributeFunctions.register(on: writer)
        try writer.execute(sql: "INSERT INTO ZCUISINE (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (1, \(cuisineNumber), 1, 'Thai'); UPDATE ZRECIPE SET ZCUISINE = 1 WHERE Z_PK = 1")
        let fresh = try writableStack(url, model)
        try fresh.context.performAndWait {
            let cuisine = try fresh.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Cuisine"))[0]
            fresh.context.delete(cuisine)
            do {
                try fresh.context.save()
                Issue.record("a Deny rule let the delete through")
            } catch let error as CoreDataError {
                #expect(error.code == .validationRelationshipDeniedDelete)
            }
        }
        #expect(try sql(url, "SELECT count(*) FROM ZCUISINE")[0][0] == .integer(1))
    }

    @Test func validationReportsEveryFailureAndWritesNothing() throws {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore(chefs: 1, recipes: 1)
        let before = try Data(contentsOf: url)
        let stack = try writableStack(url, model)
        try stack.context.performAndWait {
            let chef = NSEntityDescription.insertNewObject(forEntityName: "Chef", into: stack.context)
            chef.setValue(String(repeating: "x", count: 81), forKey: "name")
            chef.setValue("not an email", forKey: "email")
            let recipe = NSEntityDescription.insertNewObject(forEntityName: "Recipe", into: stack.context)
            recipe.setValue(Int16(2000), forKey: "minutes")
            // The lower bounds too: an empty name (at least 1 character), a negative rating (0...5).
            let unnamed = NSEntityDescription.insertNewObject(forEntityName: "Chef", into: stack.context)
            unnamed.setValue("", forKey: "name")
            recipe.setValue(-1.0, forKey: "rating")
            do {
                try stack.context.save()
                Issue.record("invalid objects were saved")
            } catch let error as CoreDataError {
                #expect(error.code == .validationMultipleErrors)
                let codes = Set(error.detailedErrors.map(\.code))
                #expect(codes.isSuperset(of: [.validationStringTooLong, .validationStringPatternMatching,
                                              .validationNumberTooLarge, .validationMissingMandatoryProperty,
                                              .validationStringTooShort, .validationNumberTooSmall]))
                #expect(error.detailedErrors.contains { $0.validationKey == "identifier" })
                let tooShort = error.detailedErrors.first { $0.code == .validationStringTooShort }
                #expect(tooShort?.validationKey == "name" && tooShort?.affectedObjectIDs == [unnamed.objectID])
                let tooSmall = error.detailedErrors.first { $0.code == .validationNumberTooSmall }
                #expect(tooSmall?.validationKey == "rating" && tooSmall?.affectedObjectIDs == [recipe.objectID])
            }
            #expect(stack.context.hasChanges, "the changes stay for the user to fix")
            stack.context.rollback()
            #expect(!stack.context.hasChanges && chef.managedObjectContext == nil)
        }
        #expect(try Data(contentsOf: url) == before, "the store file is byte-identical")
    }

    @Test func manyToManyAndOrderedRelationshipsRoundTrip() throws {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore(chefs: 1, recipes: 2)
        let stack = try writableStack(url, model)
        let recipeID = try stack.context.performAndWait {
            let recipe = try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Recipe"))[1]  // 2 ingredients
            let tags = (0..<3).map { index -> NSManagedObject in
                let tag = NSEntityDescription.insertNewObject(forEntityName: "Tag", into: stack.context)
                tag.setValue("tag \(index)", forKey: "label")
                return tag
            }
            recipe.setValue(Set(tags.prefix(2)), forKey: "tags")
            #expect((tags[0].value(forKey: "recipes") as? Set<NSManagedObject>) == [recipe], "many-to-many inverse")
            let ingredients = try #require(recipe.value(forKey: "ingredients") as? [NSManagedObject])
            recipe.setValue(Array(ingredients.reversed()), forKey: "ingredients")
            try stack.context.save()
            return recipe.objectID
        }
        #expect(try sql(url, "SELECT count(*) FROM Z_5TAGS WHERE Z_5RECIPES = 2")[0][0] == .integer(2))
        let reopened = try TestStack(storeURL: url, model: model)
        try reopened.context.performAndWait {
            let recipe = try reopened.context.existingObject(with: recipeID)
            #expect((recipe.value(forKey: "tags") as? Set<NSManagedObject>)?.count == 2)
            let ingredients = try #require(recipe.value(forKey: "ingredients") as? [NSManagedObject])
            #expect(ingredients.map(\.objectID.primaryKey) == [2, 3], "written as [3, 2] by the builder, reversed and saved")
        }
    }

    @Test func optimisticLockingReportsConflictsAndLosesNothing() throws {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore(chefs: 1, recipes: 1)
        let first = try writableStack(url, model), second = try writableStack(url, model)
        let a = try first.context.performAndWait { try first.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Recipe"))[0] }
        let b = try second.context.performAndWait { try second.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Recipe"))[0] }
        try first.context.performAndWait {
            _ = a.value(forKey: "name")
            a.setValue("First", forKey: "name")
            try first.context.save()
        }
        try second.context.performAndWait {
            _ = b.value(forKey: "name")
            b.setValue("Second", forKey: "name")
            do {
                try second.context.save()
                Issue.record("a stale update overwrote another save")
            } catch let error as CoreDataError {
                #expect(error.code == .managedObjectMerge && error.affectedObjectIDs == [b.objectID])
            }
            #expect(b.value(forKey: "name") as? String == "Second", "the losing change is kept in the context")
        }
        #expect(try sql(url, "SELECT ZNAME, Z_OPT FROM ZRECIPE")[0] == [.text("First"), .integer(2)])
    }

    @Test func readOnlyStoresRefuseToSave() throws {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore(chefs: 1, recipes: 1)
        let before = try Data(contentsOf: url)
        let stack = try TestStack(storeURL: url, model: model)
        try stack.context.performAndWait {
            try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Recipe"))[0].setValue("X", forKey: "name")
            #expect(throws: CoreDataError.self) { try stack.context.save() }
        }
        #expect(try Data(contentsOf: url) == before)
    }
}

/// A conflict with another process: `coredata set` changes a row this process read, and this process's save is
/// refused with the conflict named, losing neither change.
struct CrossProcessConflictTests {
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: CommandRunner.executable.path), "coredata is not built"))
    func anotherProcessWritingFirstIsAConflict() throws {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore(chefs: 1, recipes: 1)
        let stack = try TestStack(storeURL: url, model: model, options: [:])
        let recipe = try stack.context.performAndWait {
            let recipe = try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Recipe"))[0]
            _ = recipe.value(forKey: "name")
            return recipe
        }
        let other = try CommandRunner.run(["set", url.path, "Recipe", "TRUEPREDICATE", "name=From another process"])
        #expect(other.status == 0, "\(other.standardError)")
        try stack.context.performAndWait {
            recipe.setValue("From this process", forKey: "name")
            do {
                try stack.context.save()
                Issue.record("the other process's change was overwritten")
            } catch let error as CoreDataError {
                #expect(error.code == .managedObjectMerge && error.affectedObjectIDs == [recipe.objectID])
            }
        }
        let row = try Connection(path: url.path, mode: .readOnly).query("SELECT ZNAME FROM ZRECIPE")[0][0]
        #expect(row == .text("From another process"))
    }
}

/// The remaining cardinalities and rules: one-to-one inverses, No Action, early permanent IDs, external data.
struct SavingEdgeTests {
    @Test func oneToOneInversesMoveAndNoActionLeavesDestinations() throws {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore(chefs: 1, recipes: 2)
        let stack = try TestStack(storeURL: url, model: model, options: [:])
        try stack.context.performAndWait {
            let recipes = try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Recipe"))
            let photo = NSEntityDescription.insertNewObject(forEntityName: "Photo", into: stack.context)
            recipes[0].setValue(photo, forKey: "photo")
            #expect(photo.value(forKey: "recipe") as? NSManagedObject === recipes[0])
            // Moving the photo to the other recipe takes it from the first: a to-one has one owner.
            photo.setValue(recipes[1], forKey: "recipe")
            #expect(recipes[0].value(forKey: "photo") == nil)
            #expect(recipes[1].value(forKey: "photo") as? NSManagedObject === photo)
            try stack.context.save()
        }
        #expect(try Connection(path: url.path, mode: .readOnly).query("SELECT ZPHOTO FROM ZRECIPE ORDER BY Z_PK").map { $0[0] }
                == [.null, .integer(1)])
        #expect(try Connection(path: url.path, mode: .readOnly).query("SELECT ZRECIPE FROM ZPHOTO").map { $0[0] } == [.integer(2)])
    }

    @Test func noActionDeleteLeavesTheInverseAlone() throws {
        let chef = NSEntityDescription(name: "Chef"), dish = NSEntityDescription(name: "Dish")
        let dishes = NSRelationshipDescription(name: "dishes", destinationEntityName: "Dish")
        dishes.inverseRelationshipName = "chef"
        dishes.deleteRule = .noActionDeleteRule
        let owner = NSRelationshipDescription(name: "chef", destinationEntityName: "Chef")
        owner.inverseRelationshipName = "dishes"
        owner.maxCount = 1
        chef.setProperties([NSAttributeDescription(name: "name", type: .stringAttributeType), dishes])
        dish.setProperties([owner])
        for entity in [chef, dish] { for property in entity.ownProperties { property.isOptional = true } }
        let model = NSManagedObjectModel(entities: [chef, dish])
        let url = try TemporaryDirectory.make().appendingPathComponent("Dishes.sqlite")
        try SQLiteStoreCreator.createStore(at: url, model: model)
        let stack = try TestStack(storeURL: url, model: model, options: [:])
        try stack.context.performAndWait {
            let ada = NSEntityDescription.insertNewObject(forEntityName: "Chef", into: stack.context)
            let soup = NSEntityDescription.insertNewObject(forEntityName: "Dish", into: stack.context)
            soup.setValue(ada, forKey: "chef")
            try stack.context.save()
            stack.context.delete(ada)
            stack.context.processPendingChanges()
            #expect(soup.value(forKey: "chef") as? NSManagedObject === ada, "No Action leaves the dangling reference to the app")
            try stack.context.save()
        }
        #expect(try Connection(path: url.path, mode: .readOnly).query("SELECT ZCHEF FROM ZDISH")[0][0] == .integer(1))
    }

    /// `insert(_:)` of an object made with `init(entity:insertInto: nil)`, values set before or after; and
    /// `init(entity:insertInto: context)`. Both are saved like `insertNewObject`.
    @Test func insertOfAnObjectMadeWithoutAContext() throws {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore(chefs: 1, recipes: 1)
        let stack = try TestStack(storeURL: url, model: model, options: [:])
        try stack.context.performAndWait {
            let entity = try #require(model.entitiesByName["Tag"])
            let loose = NSManagedObject(entity: entity, insertInto: nil)
            loose.setValue("before insert", forKey: "label")
            #expect(loose.managedObjectContext == nil && !stack.context.hasChanges)
            stack.context.insert(loose)
            #expect(loose.managedObjectContext === stack.context && loose.isInserted)
            #expect(loose.value(forKey: "label") as? String == "before insert")
            let direct = NSManagedObject(entity: entity, insertInto: stack.context)
            direct.setValue("inserted directly", forKey: "label")
            #expect(stack.context.insertedObjects == [loose, direct])
            try stack.context.save()
            #expect(!loose.objectID.isTemporaryID && !direct.objectID.isTemporaryID)
        }
        #expect(try Connection(path: url.path, mode: .readOnly).query("SELECT ZLABEL FROM ZTAG ORDER BY Z_PK").map { $0[0] }
                == [.text("before insert"), .text("inserted directly")])
    }

    /// A to-many relationship without an inverse has no column and no join table in our layout (Apple's is unknown):
    /// changing one is refused naming it, and nothing is written, rather than the change being dropped silently.
    @Test func aToManyWithoutAnInverseIsRefusedNotDropped() throws {
        let folder = NSEntityDescription(name: "Folder"), note = NSEntityDescription(name: "Note")
        let notes = NSRelationshipDescription(name: "notes", destinationEntityName: "Note")
        notes.maxCount = 0
        folder.setProperties([NSAttributeDescription(name: "name", type: .stringAttributeType), notes])
        note.setProperties([NSAttributeDescription(name: "title", type: .stringAttributeType)])
        for entity in [folder, note] { for property in entity.ownProperties { property.isOptional = true } }
        let model = NSManagedObjectModel(entities: [folder, note])
        let url = try TemporaryDirectory.make().appendingPathComponent("Folders.sqlite")
        try SQLiteStoreCreator.createStore(at: url, model: model)
        let stack = try TestStack(storeURL: url, model: model, options: [:])
        try stack.context.performAndWait {
            let empty = NSEntityDescription.insertNewObject(forEntityName: "Folder", into: stack.context)
            empty.setValue("empty", forKey: "name")
            try stack.context.save()  // an empty one needs no storage
        }
        let files = [url.path, url.path + "-wal"].filter { FileManager.default.fileExists(atPath: $0) }
        let before = try files.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        try stack.context.performAndWait {
            let work = NSEntityDescription.insertNewObject(forEntityName: "Folder", into: stack.context)
            let memo = NSEntityDescription.insertNewObject(forEntityName: "Note", into: stack.context)
            work.setValue(Set([memo]), forKey: "notes")
            let error = try #require(throws: CoreDataError.self) { try stack.context.save() }
            #expect(error.code == .persistentStoreSave)
            #expect(error.message.contains("Folder.notes is a to-many relationship without an inverse"), "\(error.message)")
            #expect(work.objectID.isTemporaryID && stack.context.hasChanges, "the changes stay in the context")
        }
        #expect(try files.map { try Data(contentsOf: URL(fileURLWithPath: $0)) } == before, "nothing was written")
    }

    @Test func obtainPermanentIDsBeforeSaving() throws {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore(chefs: 2, recipes: 1)
        let stack = try TestStack(storeURL: url, model: model, options: [:])
        try stack.context.performAndWait {
            let chef = NSEntityDescription.insertNewObject(forEntityName: "Chef", into: stack.context)
            chef.setValue("Early", forKey: "name")
            try stack.context.obtainPermanentIDs(for: [chef])
            #expect(!chef.objectID.isTemporaryID && chef.objectID.primaryKey == 3)
            let id = chef.objectID
            try stack.context.save()
            #expect(chef.objectID == id, "the save keeps the early ID")
        }
        #expect(try Connection(path: url.path, mode: .readOnly).query("SELECT Z_PK, ZNAME FROM ZCHEF WHERE Z_PK = 3")[0]
                == [.integer(3), .text("Early")])
    }

    @Test func largeValuesGoToExternalFilesAndComeBack() throws {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore(chefs: 1, recipes: 1)
        let stack = try TestStack(storeURL: url, model: model, options: [:])
        let big = Data((0..<200_000).map { UInt8($0 % 251) }), small = Data([1, 2, 3])
        let ids = try stack.context.performAndWait {
            let photos = [big, small].map { data -> NSManagedObject in
                let photo = NSEntityDescription.insertNewObject(forEntityName: "Photo", into: stack.context)
                photo.setValue(data, forKey: "imageData")
                return photo
            }
            try stack.context.save()
            return photos.map(\.objectID)
        }
        let support = url.deletingLastPathComponent().appendingPathComponent(".Recipes_SUPPORT/_EXTERNAL_DATA")
        let files = try FileManager.default.contentsOfDirectory(atPath: support.path)
        #expect(files.count == 1, "only the large value leaves the row")
        let markers = try Connection(path: url.path, mode: .readOnly).query("SELECT substr(ZIMAGEDATA, 1, 1) FROM ZPHOTO ORDER BY Z_PK")
        #expect(markers.map { $0[0] } == [.blob([2]), .blob([1])])
        let reopened = try TestStack(storeURL: url, model: model)
        try reopened.context.performAndWait {
            let first = try reopened.context.existingObject(with: ids[0]).value(forKey: "imageData") as? Data
            let second = try reopened.context.existingObject(with: ids[1]).value(forKey: "imageData") as? Data
            #expect(first == big && second == small)
        }
    }
}

/// External binary data leaves the support folder when no row refers to it any more: the row deleted, or the value
/// replaced by another (external or inline); a refused save removes nothing.
struct ExternalDataLifecycleTests {
    private func files(_ url: URL) -> Set<String> {
        let support = url.deletingLastPathComponent().appendingPathComponent(".Recipes_SUPPORT/_EXTERNAL_DATA")
        return Set((try? FileManager.default.contentsOfDirectory(atPath: support.path)) ?? [])
    }

    @Test func filesAreRemovedWhenTheirRowsStopReferringToThem() throws {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore(chefs: 1, recipes: 1)
        let stack = try TestStack(storeURL: url, model: model, options: [:])
        let big = Data((0..<200_000).map { UInt8($0 % 251) }), other = Data((0..<150_000).map { UInt8($0 % 7) })
        let photo = try stack.context.performAndWait {
            let first = NSEntityDescription.insertNewObject(forEntityName: "Photo", into: stack.context)
            first.setValue(big, forKey: "imageData")
            let second = NSEntityDescription.insertNewObject(forEntityName: "Photo", into: stack.context)
            second.setValue(big, forKey: "imageData")
            try stack.context.save()
            return UncheckedBox(first)
        }
        let written = files(url)
        #expect(written.count == 2)

        // Replaced by another large value: a new file, and the old one gone.
        try stack.context.performAndWait {
            photo.value.setValue(other, forKey: "imageData")
            try stack.context.save()
        }
        let replaced = files(url)
        #expect(replaced.count == 2 && replaced.intersection(written).count == 1, "\(written) → \(replaced)")
        let reopened = try TestStack(storeURL: url, model: model)
        let photoID = photo.value.objectID
        try reopened.context.performAndWait {
            let data = try reopened.context.existingObject(with: photoID).value(forKey: "imageData") as? Data
            #expect(data == other)
        }

        // Replaced by a small value kept in the row: the file goes.
        try stack.context.performAndWait {
            photo.value.setValue(Data([1, 2, 3]), forKey: "imageData")
            try stack.context.save()
        }
        #expect(files(url) == written.intersection(replaced))

        // A refused save (another connection changed the row) removes nothing.
        let other2 = try TestStack(storeURL: url, model: model, options: [:])
        let stale = try stack.context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Photo")
            let photos = try stack.context.fetch(request).filter { $0 !== photo.value }
            _ = photos[0].value(forKey: "imageData")
            return UncheckedBox(photos[0])
        }
        try other2.context.performAndWait {
            try other2.context.existingObject(with: stale.value.objectID).setValue(Date(timeIntervalSinceReferenceDate: 5), forKey: "takenAt")
            try other2.context.save()
        }
        stack.context.performAndWait {
            stack.context.delete(stale.value)
            #expect(throws: CoreDataError.self) { try stack.context.save() }
            stack.context.rollback()
        }
        #expect(files(url).count == 1, "a rolled-back delete keeps the file")

        // A delete removes the file once the row is gone; a cascade reaches it too.
        try stack.context.performAndWait {
            stack.context.refreshAllObjects()
            let recipe = try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Recipe"))[0]
            recipe.setValue(stale.value, forKey: "photo")
            try stack.context.save()
            #expect(files(url).count == 1)
            stack.context.delete(recipe)  // Recipe.photo cascades to the photo with the external value
            stack.context.delete(photo.value)
            try stack.context.save()
            #expect(try stack.context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Photo")) == 0)
        }
        #expect(files(url).isEmpty)
        #expect(try Connection(path: url.path, mode: .readOnly).integrityCheck() == ["ok"])
    }
}
