import CoreDataModel
import CoreDataObjectGraph
import CoreDataTestSupport
import Foundation
import SQLiteDatabase
import Testing

/// `NSSQLiteAnalyzeOption` and `NSSQLiteManualVacuumOption`, set on a store description as Apple's documentation shows:
/// the store runs SQLite's `ANALYZE` or `VACUUM` as it is added.
@Suite struct SQLiteMaintenanceOptionTests {
    @Test func theAnalyzeOptionGivesThePlannerStatistics() throws {
        let url = try TemporaryDirectory.make().appendingPathComponent("Notes.sqlite")
        let context = try NotesContainer.make(storeURL: url).newBackgroundContext()
        try context.performAndWait {
            for body in ["a", "b", "c"] { NSEntityDescription.insertNewObject(forEntityName: "Note", into: context).setValue(body, forKey: "title") }
            try context.save()
        }
        let tablesBefore = try Connection(path: url.path, mode: .readOnly).query("SELECT name FROM sqlite_master WHERE name = 'sqlite_stat1'")
        #expect(tablesBefore.isEmpty, "a store added without the option is not analysed")
        _ = try NotesContainer.make(storeURL: url, options: [NSSQLiteAnalyzeOption: true as NSNumber])
        let statistics = try Connection(path: url.path, mode: .readOnly).query("SELECT stat FROM sqlite_stat1 WHERE tbl = 'ZNOTE'")
        #expect(statistics.first?[0].stringValue == "3", "the table's row count, as ANALYZE records it")
    }

    @Test func theManualVacuumOptionGivesFreePagesBack() throws {
        let url = try TemporaryDirectory.make().appendingPathComponent("Notes.sqlite")
        do {
            let context = try NotesContainer.make(storeURL: url).newBackgroundContext()
            let body = String(repeating: "x", count: 4_000)
            try context.performAndWait {
                for _ in 0..<500 { NSEntityDescription.insertNewObject(forEntityName: "Note", into: context).setValue(body, forKey: "title") }
                try context.save()
                for note in try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Note")) { context.delete(note) }
                try context.save()
            }
        }
        let pages = { (url: URL) throws -> (total: Int64, free: Int64) in
            let connection = try Connection(path: url.path, mode: .readOnly)
            let total = try connection.query("PRAGMA page_count")[0][0].int64Value ?? -1
            let free = try connection.query("PRAGMA freelist_count")[0][0].int64Value ?? -1
            return (total, free)
        }
        // The deleted rows' pages stay in the file, free, until a vacuum.
        let before = try pages(url)
        #expect(before.free > 100)
        let container = try NotesContainer.make(storeURL: url, options: [NSSQLiteManualVacuumOption: true as NSNumber])
        let after = try pages(url)
        #expect(after.free == 0)
        #expect(after.total < before.total)
        #expect(try container.viewContext.count(for: NSFetchRequest<NSManagedObject>(entityName: "Note")) == 0)
    }

    @Test func theCoordinatorExecutesAFetchRequestForAContext() throws {
        let url = try TemporaryDirectory.make().appendingPathComponent("Notes.sqlite")
        let container = try NotesContainer.make(storeURL: url)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            for body in ["a", "b"] { NSEntityDescription.insertNewObject(forEntityName: "Note", into: context).setValue(body, forKey: "title") }
            try context.save()
        }
        let request = NSFetchRequest<NSManagedObject>(entityName: "Note")
        let results = try container.persistentStoreCoordinator.execute(request, with: context)
        let objects = try #require(results as? [NSManagedObject])
        #expect(objects.count == 2)
        #expect(objects.allSatisfy { $0.managedObjectContext === context })
        // A context of another coordinator is refused, naming why.
        let stranger = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        #expect(throws: CoreDataError.self) { try container.persistentStoreCoordinator.execute(request, with: stranger) }
    }
}
