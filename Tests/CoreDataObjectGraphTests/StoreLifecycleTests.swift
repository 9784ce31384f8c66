import CoreDataModel
import CoreDataObjectGraph
import CoreDataSQLiteFormat
import CoreDataTestSupport
import Foundation
import SQLiteDatabase
import Predicates
import XCTest

/// The coordinator's store lifecycle, written as Apple's documentation uses it: adding a store that does not exist
/// yet, metadata, destroying, replacing, migrating and moving stores, and object IDs from URIs.
final class StoreLifecycleTests: XCTestCase {
    private func schema(of url: URL) throws -> [String] {
        let connection = try Connection(path: url.path, mode: .readOnly)
        return try connection.query("SELECT type, name, sql FROM sqlite_master ORDER BY type, name").map { row in
            row.map { $0.stringValue ?? "" }.joined(separator: "|")
        }
    }

    private func chefCount(at url: URL, model: NSManagedObjectModel) throws -> Int {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, at: url, options: [NSReadOnlyPersistentStoreOption: true])
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return try context.performAndWait { try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Chef")) }
    }

    private func insertChef(named name: String, into context: NSManagedObjectContext) -> NSManagedObject {
        let chef = NSEntityDescription.insertNewObject(forEntityName: "Chef", into: context)
        chef.setValue(name, forKey: "name")
        return chef
    }

    // MARK: Creating a store

    func testAddingAStoreWhereNoFileExistsCreatesItWithItsDirectoriesAndTheModelsLayout() throws {
        let model = try SampleStoreBuilder.recipesModel()
        let directory = try TemporaryDirectory.make()
        let url = directory.appendingPathComponent("Application Support/Nested/Recipes.sqlite")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let store = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: nil)

        XCTAssertTrue(FileManager.default.fileExists(atPath: url.path))
        let metadata = coordinator.metadata(for: store)
        XCTAssertEqual(metadata[NSStoreTypeKey] as? String, NSSQLiteStoreType)
        XCTAssertEqual(metadata[NSStoreUUIDKey] as? String, store.identifier)
        XCTAssertEqual(metadata[NSStoreModelVersionHashesKey] as? [String: Data], model.entityVersionHashesByName)
        // The layout is the one a store created for the model has, table for table.
        let reference = directory.appendingPathComponent("reference.sqlite")
        try SQLiteStoreCreator.createStore(at: reference, model: model)
        try coordinator.remove(store)
        XCTAssertEqual(try schema(of: url), try schema(of: reference))

        // And it is a working store: a save is there for the next coordinator.
        let again = NSPersistentStoreCoordinator(managedObjectModel: model)
        try again.addPersistentStore(ofType: NSSQLiteStoreType, at: url)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = again
        try context.performAndWait {
            _ = insertChef(named: "Ada", into: context)
            try context.save()
        }
        XCTAssertEqual(try chefCount(at: url, model: model), 1)
    }

    func testAReadOnlyStoreWhereNoFileExistsIsAnErrorAndNothingIsCreated() throws {
        let model = try SampleStoreBuilder.recipesModel()
        let url = try TemporaryDirectory.make().appendingPathComponent("missing/Recipes.sqlite")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        XCTAssertThrowsError(try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, at: url,
                                                                options: [NSReadOnlyPersistentStoreOption: true])) { error in
            XCTAssertEqual((error as? CoreDataError)?.code, .persistentStoreOpen)
            XCTAssertTrue("\(error)".contains(url.path), "\(error)")
            XCTAssertTrue("\(error)".contains("read-only"), "\(error)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: url.deletingLastPathComponent().path))
        XCTAssertTrue(coordinator.persistentStores.isEmpty)
    }

    func testAddingTheSameStoreTwiceIsRefused() throws {
        let model = try SampleStoreBuilder.recipesModel()
        let url = try TemporaryDirectory.make().appendingPathComponent("Recipes.sqlite")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, at: url)
        XCTAssertThrowsError(try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, at: url)) { error in
            XCTAssertTrue("\(error)".contains("already added"), "\(error)")
        }
        XCTAssertEqual(coordinator.persistentStores.count, 1)
    }

    // MARK: Metadata

    func testMetadataIsReadAndWrittenWithoutACoordinator() throws {
        let (url, _) = try SampleStoreBuilder.makeRecipesStore(chefs: 1, recipes: 1)
        let before = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url, options: nil)
        XCTAssertEqual(before[NSStoreTypeKey] as? String, "SQLite")
        let uuid = try XCTUnwrap(before[NSStoreUUIDKey] as? String)

        var changed = before
        changed["AppImportVersion"] = 7
        changed["AppTags"] = ["a", "b"]
        try NSPersistentStoreCoordinator.setMetadata(changed, forPersistentStoreOfType: NSSQLiteStoreType, at: url, options: nil)

        let after = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)
        XCTAssertEqual(after["AppImportVersion"] as? Int64, 7)
        XCTAssertEqual(after["AppTags"] as? [String], ["a", "b"])
        XCTAssertEqual(after[NSStoreUUIDKey] as? String, uuid)
        XCTAssertEqual(after[NSStoreModelVersionHashesKey] as? [String: Data], before[NSStoreModelVersionHashesKey] as? [String: Data])
        // The UUID stays in Z_UUID, as Apple keeps it, not in the plist.
        let connection = try Connection(path: url.path, mode: .readOnly)
        XCTAssertEqual(try connection.scalar("SELECT Z_UUID FROM Z_METADATA")?.stringValue, uuid)
    }

    func testAMetadataValueNoPropertyListHoldsIsRefusedByName() throws {
        let (url, _) = try SampleStoreBuilder.makeRecipesStore(chefs: 1, recipes: 1)
        XCTAssertThrowsError(try NSPersistentStoreCoordinator.setMetadata(["Owner": URL(fileURLWithPath: "/tmp")],
                                                                          forPersistentStoreOfType: NSSQLiteStoreType, at: url)) { error in
            XCTAssertTrue("\(error)".contains("\"Owner\""), "\(error)")
        }
        XCTAssertNil(try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)["Owner"])
    }

    func testSetMetadataForAStoreReachesTheFileWithTheNextSave() throws {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore(chefs: 1, recipes: 1)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let store = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, at: url)
        var metadata = coordinator.metadata(for: store)
        metadata["LastSync"] = "2024-05-01"
        metadata.removeValue(forKey: NSStoreTypeKey)
        coordinator.setMetadata(metadata, for: store)

        XCTAssertEqual(coordinator.metadata(for: store)["LastSync"] as? String, "2024-05-01")
        XCTAssertEqual(coordinator.metadata(for: store)[NSStoreTypeKey] as? String, "SQLite", "the store type is always added")
        XCTAssertNil(try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)["LastSync"],
                     "the file changes only when the store is saved")

        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            _ = insertChef(named: "Grace", into: context)
            try context.save()
        }
        let onDisk = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)
        XCTAssertEqual(onDisk["LastSync"] as? String, "2024-05-01")
        XCTAssertEqual(onDisk[NSStoreUUIDKey] as? String, store.identifier)
    }

    // MARK: Destroying, replacing, moving

    /// Apple's header: "It is not possible to unlink a database file safely out from underneath another thread or
    /// process, so this API performs a truncation"; code written for Apple's platforms (CoreDataPlus's
    /// `destroyStore(at:)`) removes the file itself afterwards and fails when it is already gone.
    func testDestroyPersistentStoreTruncatesTheDatabaseAndRemovesItsJournalsAndItsExternalData() throws {
        let model = try SampleStoreBuilder.recipesModel()
        let directory = try TemporaryDirectory.make()
        let url = directory.appendingPathComponent("Recipes.sqlite")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, at: url)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            let photo = NSEntityDescription.insertNewObject(forEntityName: "Photo", into: context)
            photo.setValue(Data(repeating: 7, count: 300_000), forKey: "imageData")
            try context.save()
        }
        let support = directory.appendingPathComponent(".Recipes_SUPPORT")
        XCTAssertTrue(FileManager.default.fileExists(atPath: support.path), "the photo is stored outside the database")
        XCTAssertTrue(FileManager.default.fileExists(atPath: url.path + "-wal"))

        try coordinator.destroyPersistentStore(at: url, ofType: NSSQLiteStoreType, options: nil)

        XCTAssertTrue(coordinator.persistentStores.isEmpty, "the destroyed store left the coordinator")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), ["Recipes.sqlite"],
                       "the journals and the external data are gone, the database file stays")
        XCTAssertEqual(try Data(contentsOf: url).count, 0, "the database is truncated")
        // The empty database opens as an empty store.
        let reopened = NSPersistentStoreCoordinator(managedObjectModel: model)
        try reopened.addPersistentStore(ofType: NSSQLiteStoreType, at: url)
        let reader = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        reader.persistentStoreCoordinator = reopened
        try reader.performAndWait {
            XCTAssertEqual(try reader.count(for: NSFetchRequest<NSManagedObject>(entityName: "Photo")), 0)
        }
        try reopened.remove(reopened.persistentStores[0])
        // Destroying it again, or what is already gone, is not an error.
        XCTAssertNoThrow(try coordinator.destroyPersistentStore(at: url, ofType: NSSQLiteStoreType))
        try FileManager.default.removeItem(at: url)
        XCTAssertNoThrow(try coordinator.destroyPersistentStore(at: url, ofType: NSSQLiteStoreType))
        // As Apple's: an empty database is left where there was none, so a tear-down that removes the file after
        // destroying the store (CoreDataPlus's `destroyStore(at:)`) works on a store destroyed before.
        XCTAssertEqual(try Data(contentsOf: url).count, 0)
        XCTAssertNoThrow(try FileManager.default.removeItem(at: url))
        let nowhere = directory.appendingPathComponent("missing").appendingPathComponent("Recipes.sqlite")
        XCTAssertNoThrow(try coordinator.destroyPersistentStore(at: nowhere, ofType: NSSQLiteStoreType))
        XCTAssertFalse(FileManager.default.fileExists(atPath: nowhere.path), "no directory is made")
    }

    func testDestroyPersistentStoreRefusesAFileThatIsNotAStore() throws {
        let model = try SampleStoreBuilder.recipesModel()
        let url = try TemporaryDirectory.make().appendingPathComponent("notes.txt")
        try Data("my notes".utf8).write(to: url)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        XCTAssertThrowsError(try coordinator.destroyPersistentStore(at: url, ofType: NSSQLiteStoreType)) { error in
            XCTAssertTrue("\(error)".contains("not an SQLite database"), "\(error)")
        }
        XCTAssertEqual(try Data(contentsOf: url), Data("my notes".utf8))
    }

    func testReplacePersistentStoreCopiesTheSourceOverAnOpenDestination() throws {
        let (source, model) = try SampleStoreBuilder.makeRecipesStore(chefs: 3, recipes: 6)
        let destination = try TemporaryDirectory.make().appendingPathComponent("Copy/Recipes.sqlite")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, at: destination)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            _ = insertChef(named: "Only in the destination", into: context)
            try context.save()
        }

        try coordinator.replacePersistentStore(at: destination, destinationOptions: nil, withPersistentStoreFrom: source,
                                               sourceOptions: nil, ofType: NSSQLiteStoreType)

        // The coordinator's store reads the new file: the source's three chefs and none of the old one's.
        let reader = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        reader.persistentStoreCoordinator = coordinator
        let names = try reader.performAndWait {
            try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Chef")).compactMap { $0.value(forKey: "name") as? String }.sorted()
        }
        XCTAssertEqual(names, ["Chef 1", "Chef 2", "Chef 3"])
        XCTAssertEqual(try chefCount(at: source, model: model), 3, "the source is unchanged")
        XCTAssertEqual(try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: destination)[NSStoreUUIDKey] as? String,
                       try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: source)[NSStoreUUIDKey] as? String)
    }

    func testReplacingEmptinessMakesACopy() throws {
        let (source, model) = try SampleStoreBuilder.makeRecipesStore(chefs: 2, recipes: 2)
        let destination = try TemporaryDirectory.make().appendingPathComponent("Backups/Recipes.sqlite")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.replacePersistentStore(at: destination, withPersistentStoreFrom: source, ofType: NSSQLiteStoreType)
        XCTAssertEqual(try chefCount(at: destination, model: model), 2)
        let connection = try Connection(path: destination.path, mode: .readOnly)
        XCTAssertEqual(try connection.journalMode().rawValue, "wal", "the copy is in WAL mode, as Core Data's stores are")
    }

    func testSetURLMovesAStoreToAnExistingFileOnly() throws {
        let (first, model) = try SampleStoreBuilder.makeRecipesStore(chefs: 1, recipes: 1)
        let (second, _) = try SampleStoreBuilder.makeRecipesStore(chefs: 4, recipes: 4)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let store = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, at: first)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        func chefs() throws -> Int { try context.performAndWait { try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Chef")) } }
        XCTAssertEqual(try chefs(), 1)

        let missing = first.deletingLastPathComponent().appendingPathComponent("nowhere.sqlite")
        XCTAssertFalse(coordinator.setURL(missing, for: store), "no store is created at a new URL")
        XCTAssertEqual(store.url, first)
        XCTAssertFalse(FileManager.default.fileExists(atPath: missing.path))

        XCTAssertTrue(coordinator.setURL(second, for: store))
        XCTAssertEqual(store.url, second)
        XCTAssertTrue(coordinator.persistentStore(for: second) === store)
        XCTAssertNil(coordinator.persistentStore(for: first))
        XCTAssertEqual(try chefs(), 4)
    }

    func testRemovingAStoreThatIsNotTheCoordinatorsIsAnError() throws {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore(chefs: 1, recipes: 1)
        let owner = NSPersistentStoreCoordinator(managedObjectModel: model)
        let store = try owner.addPersistentStore(ofType: NSSQLiteStoreType, at: url)
        let other = NSPersistentStoreCoordinator(managedObjectModel: model)
        XCTAssertThrowsError(try other.remove(store))
        try owner.remove(store)
        XCTAssertTrue(owner.persistentStores.isEmpty)
        XCTAssertThrowsError(try owner.remove(store), "a store is removed once")
    }

    // MARK: Object IDs from URIs

    func testManagedObjectIDForURIRepresentationFindsTheObjectOfAnAddedStore() throws {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore(chefs: 2, recipes: 3)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let store = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, at: url)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Recipe")
            request.predicate = NSPredicate(format: "name == %@", "Recipe 2")
            let recipe = try XCTUnwrap(try context.fetch(request).first)
            let uri = recipe.objectID.uriRepresentation()

            let id = try XCTUnwrap(coordinator.managedObjectID(forURIRepresentation: uri))
            XCTAssertEqual(id, recipe.objectID)
            XCTAssertTrue(context.object(with: id) === recipe)

            // Another store's UUID, a temporary ID, an unknown entity and a URI of another kind name nothing here.
            let foreign = URL(string: "x-coredata://\(UUID().uuidString)/Recipe/p2")!
            XCTAssertNil(coordinator.managedObjectID(forURIRepresentation: foreign))
            XCTAssertThrowsError(try coordinator.objectID(forURIRepresentation: foreign)) { error in
                XCTAssertTrue("\(error)".contains(store.identifier), "the error lists the coordinator's stores: \(error)")
            }
            let unsaved = NSEntityDescription.insertNewObject(forEntityName: "Tag", into: context)
            XCTAssertNil(coordinator.managedObjectID(forURIRepresentation: unsaved.objectID.uriRepresentation()))
            XCTAssertNil(coordinator.managedObjectID(forURIRepresentation: URL(string: "x-coredata://\(store.identifier!)/Spaceship/p1")!))
            XCTAssertNil(coordinator.managedObjectID(forURIRepresentation: URL(string: "x-coredata://\(store.identifier!)/Recipe/q1")!))
            XCTAssertNil(coordinator.managedObjectID(forURIRepresentation: URL(string: "https://example.com/Recipe/p1")!))
            context.rollback()
        }
    }

    func testObjectURIParsesSavedAndTemporaryForms() throws {
        let saved = try ObjectURI(parsing: URL(string: "x-coredata://ABC-123/Recipe/p42")!)
        XCTAssertEqual(saved, try ObjectURI(parsing: URL(string: "x-coredata://ABC-123/Recipe/p42")!))
        XCTAssertEqual(saved.storeIdentifier, "ABC-123")
        XCTAssertEqual(saved.entityName, "Recipe")
        XCTAssertEqual(saved.primaryKey, 42)
        let temporary = try ObjectURI(parsing: URL(string: "x-coredata:///Recipe/t\(UUID().uuidString)")!)
        XCTAssertNil(temporary.primaryKey)
        for bad in ["x-coredata://S/Recipe/p0", "x-coredata://S/Recipe", "x-coredata://S/Recipe/p1/extra", "x-coredata:///Recipe/p1"] {
            XCTAssertThrowsError(try ObjectURI(parsing: URL(string: bad)!), bad) { error in
                XCTAssertTrue("\(error)".contains(bad), "\(error)")
            }
        }
    }
}
