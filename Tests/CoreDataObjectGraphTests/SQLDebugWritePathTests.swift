@testable import CoreDataObjectGraph
import CoreDataModel
import CoreDataTestSupport
import Foundation
import SQLiteDatabase
import Synchronization
import Testing

/// The SQL log describes a save; it never changes what the save writes or how (issue 17, item 4).
@Suite(.serialized)
struct SQLDebugWritePathTests {
    /// Runs the same save (two inserted recipes, one inserted chef, an update and a delete) on a fresh copy of the
    /// sample store with the SQL log at `level`; returns the statements SQLite ran, with their bound values written
    /// in (SQLite's own trace, which the log level does not touch), and the lines the log printed.
    private func save(atLogLevel level: Int) throws -> (executed: [String], logged: [String]) {
        let (url, model) = try SampleStoreBuilder.makeRecipesStore(chefs: 2, recipes: 3)
        let stack = try TestStack(storeURL: url, model: model, options: [:])
        let store = try #require(stack.coordinator.persistentStores.first as? NSSQLiteStore)
        let executed = Mutex<[String]>([])
        let logged = Mutex<[String]>([])
        let path = url.path
        SQLDebugLog.level = level
        SQLDebugLog.sink = { entry in
            if entry.storePath == path { logged.withLock { $0.append(entry.line) } }
        }
        defer {
            SQLDebugLog.sink = nil
            SQLDebugLog.level = 0
        }
        try stack.context.performAndWait {
            let recipes = try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Recipe"))
            store.connection.trace { event in
                // A trigger's subprograms report again (as `-- TRIGGER …`): only the statements the save ran.
                if case .statement(let sql, let expanded) = event, !sql.hasPrefix("--") { executed.withLock { $0.append(expanded) } }
            }
            defer { store.connection.trace(nil) }
            for number in 1...2 {
                let recipe = NSEntityDescription.insertNewObject(forEntityName: "Recipe", into: stack.context)
                recipe.setValue("New \(number)", forKey: "name")
                recipe.setValue("new \(number)", forKey: "normalizedName")
                recipe.setValue(Int16(10 * number), forKey: "minutes")
                recipe.setValue(Date(timeIntervalSinceReferenceDate: Double(1000 * number)), forKey: "created")
                recipe.setValue(UUID(uuidString: "00000000-0000-0000-0000-00000000000\(number)")!, forKey: "identifier")
            }
            let chef = NSEntityDescription.insertNewObject(forEntityName: "Chef", into: stack.context)
            chef.setValue("Zoë", forKey: "name")
            recipes[0].setValue(Int16(45), forKey: "minutes")
            stack.context.delete(recipes[1])
            try stack.context.save()
        }
        return (executed.withLock { $0 }, logged.withLock { $0 })
    }

    @Test func aSaveBindsTheSameValuesAtEveryLogLevel() throws {
        let quiet = try save(atLogLevel: 0)
        let verbose = try save(atLogLevel: 3)
        #expect(quiet.logged.isEmpty)
        #expect(!quiet.executed.isEmpty)
        #expect(quiet.executed == verbose.executed)
        #expect(quiet.executed.filter { $0.hasPrefix("INSERT INTO ZRECIPE (") }.count == 2)
    }

    /// Each logged insert lists every value its row is written with, `Z_ENT` and `Z_OPT` included, though they are
    /// bound once for the run of rows.
    @Test func theLogListsEveryBindingOfEachInsertedRow() throws {
        let verbose = try save(atLogLevel: 2)
        let lines = verbose.logged
        let inserts = lines.indices.filter { lines[$0].hasPrefix("CoreData: sql: INSERT INTO ZRECIPE (") }
        #expect(inserts.count == 2)
        let executedInserts = verbose.executed.filter { $0.hasPrefix("INSERT INTO ZRECIPE (") }
        for (index, executed) in zip(inserts, executedInserts) {
            let bindings = lines[index + 1]
            try #require(bindings.hasPrefix("CoreData: details: SQLite bind: "))
            let values = bindings.dropFirst("CoreData: details: SQLite bind: ".count).components(separatedBy: ", ")
            let placeholders = lines[index].filter { $0 == "?" }.count
            #expect(values.count == placeholders, "one logged value per parameter: \(bindings)")
            // Z_PK, Z_ENT and Z_OPT lead the row; the trace shows them bound to the same values.
            let executedValues = try #require(executed.range(of: "VALUES").map { executed[$0.upperBound...].drop { $0 == " " || $0 == "(" } })
            let leading = executedValues.components(separatedBy: ",").prefix(3).map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(values.prefix(3).map { $0.trimmingCharacters(in: .whitespaces) } == leading, "\(bindings) against \(executed)")
        }
    }
}
