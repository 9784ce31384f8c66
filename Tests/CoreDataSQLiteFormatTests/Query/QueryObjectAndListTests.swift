import CoreDataSQLiteFormat
import Foundation
import Predicates
import SQLiteDatabase
import Testing

/// Objects given as constants compare by primary key; long `IN` lists stay within SQLite's parameter limit.
@Suite("Query: objects and long lists")
struct QueryObjectAndListTests {
    static let store: QueryTestStore = try! QueryTestStore(personCount: 120)

    struct Reference: StoreObjectReference {
        var entityName: String
        var primaryKey: Int64
    }

    func keys(_ format: String, _ arguments: [Any?]) throws -> Set<Int64> {
        let predicate = try Predicates.NSPredicate(parsing: format, argumentArray: arguments)
        return try Self.store.fetchKeys(PredicateSQLCompiler(model: Self.store.model).fetch(entityName: "Person", predicate: predicate))
    }

    func column(_ sql: String) throws -> [Int64] {
        try Self.store.rows(SQLQuery(sql: sql, bindings: [], resultColumns: [])).compactMap { $0.first?.int64Value }
    }

    @Test func toOneComparedWithAnObject() throws {
        let expected = Set(try column("SELECT Z_PK FROM ZPERSON WHERE ZEMPLOYER = 2"))
        #expect(!expected.isEmpty)
        #expect(try keys("employer == %@", [Reference(entityName: "Company", primaryKey: 2)]) == expected)
        let others = Set(try column("SELECT Z_PK FROM ZPERSON WHERE ZEMPLOYER IS NOT 2"))
        #expect(try keys("employer != %@", [Reference(entityName: "Company", primaryKey: 2)]) == others)
    }

    @Test func selfInAListOfObjects() throws {
        let references = [3, 5, 6, 400].map { Reference(entityName: $0 == 6 ? "Student" : "Person", primaryKey: Int64($0)) }
        #expect(try keys("SELF IN %@", [references]) == [3, 5, 6])
        #expect(try keys("SELF == %@", [references[0]]) == [3])
    }

    @Test func toManyComparedWithAnObject() throws {
        let expected = Set(try column("SELECT Z_PK FROM ZPERSON WHERE Z_PK IN (SELECT ZOWNER FROM ZPET WHERE Z_PK = 7)"))
        #expect(expected.count == 1)
        #expect(try keys("ANY pets == %@", [Reference(entityName: "Pet", primaryKey: 7)]) == expected)
        #expect(try keys("%@ IN pets", [Reference(entityName: "Pet", primaryKey: 7)]) == expected)
    }

    @Test func objectOfAnotherEntityTreeIsRefused() throws {
        let predicate = try Predicates.NSPredicate(parsing: "employer == %@", argumentArray: [Reference(entityName: "Pet", primaryKey: 1)])
        let error = #expect(throws: PredicateSQLError.self) {
            try PredicateSQLCompiler(model: Self.store.model).fetch(entityName: "Person", predicate: predicate)
        }
        #expect(error?.reason == "the object is a Pet, which is not in the Company entity tree")
    }

    @Test func longListsAreOneBinding() throws {
        var names: [String] = (0..<40_000).map { "name \($0)" }
        names.append("Zoë")
        names.append("O'Brien")
        let predicate = try Predicates.NSPredicate(parsing: "name IN %@", argumentArray: [names])
        let query = try PredicateSQLCompiler(model: Self.store.model).fetch(entityName: "Person", predicate: predicate)
        #expect(query.bindings.count == 1)
        #expect(query.sql.contains("json_each(?)"))
        #expect(try Self.store.fetchKeys(query) == Self.store.evaluatedKeys(predicate, among: Self.store.people.keys))
        #expect(try !Self.store.fetchKeys(query).isEmpty)

        let ages = (0..<1_000).map { $0 * 2 }
        let numeric = try Predicates.NSPredicate(parsing: "age IN %@", argumentArray: [ages])
        let numericQuery = try PredicateSQLCompiler(model: Self.store.model).fetch(entityName: "Person", predicate: numeric)
        #expect(numericQuery.bindings.count == 1)
        #expect(try Self.store.fetchKeys(numericQuery) == Self.store.evaluatedKeys(numeric, among: Self.store.people.keys))
    }
}
