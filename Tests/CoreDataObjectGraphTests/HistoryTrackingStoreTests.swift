import CoreDataModel
import CoreDataObjectGraph
import CoreDataSQLiteFormat
import CoreDataTestSupport
import Foundation
import SQLiteDatabase
import Testing

/// A store that records persistent history (`ATRANSACTION`, `ACHANGE`) is read-only to us until we write history:
/// reads work, every save is refused with the reason, and the file is left as it was.
struct HistoryTrackingStoreTests {
    private func refusesSaves(_ url: URL, model: NSManagedObjectModel, change: (NSManagedObjectContext) throws -> Void) throws {
        let before = try Data(contentsOf: url)
        let stack = try TestStack(storeURL: url, model: model, options: [:])
        let store = try #require(stack.coordinator.persistentStores.first as? NSSQLiteStore)
        #expect(store.writeRefusal?.contains("records persistent history (tables ATRANSACTION, ACHANGE)") == true)
        try stack.context.performAndWait {
            try change(stack.context)
            let error = try #require(throws: CoreDataError.self) { try stack.context.save() }
            #expect(error.code == .persistentStoreSave)
            #expect(error.message.hasSuffix("which OpenCoreData does not write yet; like Apple's Core Data opening it without history "
                                            + "tracking, it is read-only; nothing was written"), "\(error.message)")
            #expect(stack.context.hasChanges, "the context keeps its changes")
        }
        #expect(try Data(contentsOf: url) == before)
    }

    @Test func aStoreWithHistoryTablesRefusesEverySave() throws {
        let url = try TemporaryDirectory.make().appendingPathComponent("Tracked.sqlite")
        let tag = NSEntityDescription(name: "Tag")
        tag.setProperties([NSAttributeDescription(name: "label", type: .stringAttributeType)])
        tag.ownProperties.forEach { $0.isOptional = true }
        let model = NSManagedObjectModel(entities: [tag])
        try SQLiteStoreCreator.createStore(at: url, model: model)
        let connection = try Connection(path: url.path, mode: .readWrite)
        try connection.execute(sql: "PRAGMA journal_mode = DELETE")
        try connection.execute(sql: "CREATE TABLE ATRANSACTION (Z_PK INTEGER PRIMARY KEY); CREATE TABLE ACHANGE (Z_PK INTEGER PRIMARY KEY)")
        try refusesSaves(url, model: model) { context in
            NSEntityDescription.insertNewObject(forEntityName: "Tag", into: context).setValue("new", forKey: "label")
        }
        let stack = try TestStack(storeURL: url, model: model, options: [:])
        let error = try stack.context.performAndWait {
            let tag = NSEntityDescription.insertNewObject(forEntityName: "Tag", into: stack.context)
            return try #require(throws: CoreDataError.self) { try stack.context.obtainPermanentIDs(for: [tag]) }
        }
        #expect(error.message.contains("records persistent history"))
    }

    @Test(.enabled(if: Fixtures.isAvailable, "\(Fixtures.absenceMessage)"))
    func coreDataPlusHistoryStoreReadsButRefusesSaves() throws {
        let url = try Fixtures.copy("stores/coredataplus-derived-decimal-history/SampleModel2_V2.sqlite")
        let model = try #require(try SQLiteStoreFile(path: url.path).cachedModel())
        // The fixture is in WAL mode: compare the database with its log checkpointed into it afterwards.
        let checkpoint = { try Connection(path: url.path, mode: .readWrite).execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        try checkpoint()
        let rowsBefore = try Connection(path: url.path, mode: .readOnly).query("SELECT Z_PK, Z_OPT, ZTITLE FROM ZBOOK ORDER BY Z_PK")
        try refusesSaves(url, model: model) { context in
            let books = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Book"))
            #expect(!books.isEmpty, "reads work")
            // The model's validation predicate on Book.title requires the word "title" ("Title must contain 'title'.").
            books[0].setValue("changed title", forKey: "title")
        }
        #expect(try Connection(path: url.path, mode: .readOnly).query("SELECT Z_PK, Z_OPT, ZTITLE FROM ZBOOK ORDER BY Z_PK") == rowsBefore)
    }
}
