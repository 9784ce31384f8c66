import CoreDataModel
import CoreDataObjectGraph
import CoreDataSQLiteFormat
import CoreDataTestSupport
import Foundation
import SQLiteDatabase
import Testing

/// Stores that cannot be read as asked give precise errors, never a crash.
struct StoreErrorTests {
    @Test func mismatchedModelIsRefusedWithTheEntities() throws {
        let (url, _) = try SampleStoreBuilder.makeRecipesStore()
        let other = NSEntityDescription(name: "Recipe")
        other.setProperties([NSAttributeDescription(name: "title", type: .stringAttributeType)])
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: NSManagedObjectModel(entities: [other]))
        do {
            try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, at: url, options: [NSReadOnlyPersistentStoreOption: true])
            Issue.record("a store written for another model opened")
        } catch CoreDataError.Code.persistentStoreIncompatibleVersionHash {
            // expected
        }
        do {
            try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, at: url, options: [NSReadOnlyPersistentStoreOption: true])
        } catch let error as CoreDataError {
            #expect(error.message.contains("Chef") && error.message.contains("Recipe"), "names the differing entities")
        }
    }

    @Test func unknownStoreTypeAndEntity() throws {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore()
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        #expect(throws: CoreDataError.self) { try coordinator.addPersistentStore(ofType: "Nonsense", at: url) }
        let stack = try TestStack(storeURL: url, model: model)
        try stack.context.performAndWait {
            do {
                _ = try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Recipes"))
                Issue.record("an unknown entity fetched")
            } catch let error as CoreDataError {
                #expect(error.message.contains("unknown entity \"Recipes\""))
            }
        }
    }

    @Test(arguments: [(NSXMLStoreType, "byte 106: the XML is not valid UTF-8"), (NSBinaryStoreType, "byte 0")])
    func anSQLiteFileOpenedAsAnAtomicStoreIsRefusedNamingTheFileAndThePlace(type: String, place: String) throws {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore()
        let before = try Data(contentsOf: url)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let error = try #require(throws: CoreDataError.self) { try coordinator.addPersistentStore(ofType: type, at: url) }
        #expect(error.code == .persistentStoreOpen)
        #expect(error.message.hasPrefix("\(url.path): \(place)"), "\(error.message)")
        #expect(coordinator.persistentStores.isEmpty)
        #expect(try Data(contentsOf: url) == before)
    }

    @Test func lockedStoreWaitsThenFails() throws {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore()
        // Another writer holds an exclusive lock (in WAL mode a reader still reads; an exclusive locking mode does not let it).
        let holder = try Connection(path: url.path, mode: .readWrite)
        try holder.execute(sql: "PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE; UPDATE ZCHEF SET ZNAME = ZNAME")
        defer { try? holder.execute(sql: "COMMIT") }
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        do {
            try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, at: url,
                                               options: [NSReadOnlyPersistentStoreOption: true, NSPersistentStoreTimeoutOption: 0.2])
            Issue.record("opened a store another process holds exclusively")
        } catch let error as CoreDataError {
            #expect(error.message.contains("locked"), "\(error.message)")
        }
    }

    @Test func missingExternalDataIsReportedOnTheObject() throws {
        let model = try SampleStoreBuilder.recipesModel()
        let url = try TemporaryDirectory.make().appendingPathComponent("Recipes.sqlite")
        try SQLiteStoreCreator.createStore(at: url, model: model)
        let connection = try Connection(path: url.path, mode: .readWrite)
        let photoNumber = StoreLayout(model: model).numbering["Photo"]!
        // One photo kept inline (0x01 marker), one in the support folder (0x02 marker), one whose file is gone.
        let support = url.deletingLastPathComponent().appendingPathComponent(".Recipes_SUPPORT/_EXTERNAL_DATA")
        try FileManager.default.createDirectory(at: support, withIntermediateDirectories: true)
        try Data([1, 2, 3, 4]).write(to: support.appendingPathComponent("A1B2"))
        for (pk, blob) in [(1, [UInt8]([1, 9, 9])), (2, [2] + Array("A1B2".utf8) + [0]), (3, [2] + Array("GONE".utf8) + [0])] {
            try connection.execute(sql: "INSERT INTO ZPHOTO (Z_PK, Z_ENT, Z_OPT, ZIMAGEDATA) VALUES (?, ?, 1, ?)",
                                   arguments: [.integer(Int64(pk)), .integer(Int64(photoNumber)), .blob(blob)])
        }
        let stack = try TestStack(storeURL: url, model: model)
        try stack.context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Photo")
            let photos = try stack.context.fetch(request)
            #expect(photos[0].value(forKey: "imageData") as? Data == Data([9, 9]))
            #expect(photos[1].value(forKey: "imageData") as? Data == Data([1, 2, 3, 4]))
            #expect(photos[2].value(forKey: "imageData") == nil)
            let error = try #require(photos[2].faultingError as? CoreDataError)
            #expect(error.message.contains("GONE") && error.message.contains("gone missing"))
        }
    }

    @Test func aDeletedRowMakesTheFaultInaccessibleNotACrash() throws {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore()
        let stack = try TestStack(storeURL: url, model: model)
        try stack.context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Recipe")
            request.includesPropertyValues = false
            let recipes = try stack.context.fetch(request)
            let writer = try Connection(path: url.path, mode: .readWrite)
            try DerivedAttributeFunctions.register(on: writer)
            try writer.execute(sql: "DELETE FROM ZRECIPE WHERE Z_PK = 1")
            #expect(recipes[0].value(forKey: "name") == nil)
            #expect((recipes[0].faultingError as? CoreDataError)?.code == .objectInaccessibleException)
            #expect(throws: CoreDataError.self) { try stack.context.existingObject(with: recipes[0].objectID) }
        }
    }
}
