import CoreDataSQLiteFormat
import Foundation
import Predicates
import SQLiteDatabase
import Testing

/// Compiled predicates leave SQLite free to use the store's indexes.
@Suite("Query: statement plans")
struct QueryPlanTests {
    static let store: QueryTestStore = try! QueryTestStore(personCount: 40)

    func plan(_ format: String, arguments: [Any?] = []) throws -> String {
        let predicate = try Predicates.NSPredicate(parsing: format, argumentArray: arguments)
        let query = try PredicateSQLCompiler(model: Self.store.model).fetch(entityName: "Person", predicate: predicate)
        let rows = try Self.store.rows(SQLQuery(
            sql: "EXPLAIN QUERY PLAN " + query.sql, bindings: query.bindings, resultColumns: []))
        return rows.compactMap { $0.last?.stringValue }.joined(separator: "\n")
    }

    @Test(arguments: ["name BEGINSWITH \"Zo\"", "name BEGINSWITH[n] \"caf\"", "name == \"Zoë\"", "name IN {\"a\", \"b\"}"])
    func indexedStringTestsSearchTheIndex(_ format: String) throws {
        let plan = try plan(format)
        #expect(plan.contains("SEARCH t0 USING INDEX ZPERSON_ZNAME_INDEX"), "\(plan)")
        #expect(!plan.contains("SCAN t0"), "\(plan)")
    }

    @Test func prefixEndingInTheLastCodePointSearchesTheIndex() throws {
        let plan = try plan("name BEGINSWITH %@", arguments: ["a\u{10FFFF}"])
        #expect(plan.contains("SEARCH t0 USING INDEX ZPERSON_ZNAME_INDEX"), "\(plan)")
    }

    @Test func foldedPrefixScansTheTable() throws {
        // [cd] runs Foundation's folding per row; no index orders by it.
        let plan = try plan("name BEGINSWITH[cd] \"zo\"")
        #expect(plan.contains("SCAN t0"), "\(plan)")
    }

    @Test func toOneKeyPathJoinsByPrimaryKey() throws {
        // Either side may drive the join; both reach the other through a key, never a scan.
        let plan = try plan("employer.title == \"Acme\"")
        #expect(plan.contains("SEARCH t1 USING INTEGER PRIMARY KEY")
            || plan.contains("SEARCH t0 USING INDEX ZPERSON_ZEMPLOYER_INDEX"), "\(plan)")
    }

    func sql(_ format: String) throws -> String {
        try PredicateSQLCompiler(model: Self.store.model)
            .fetch(entityName: "Person", predicate: Predicates.NSPredicate(parsing: format)).sql
    }

    @Test func cheapTestsComeFirst() throws {
        let sql = try sql(#"name MATCHES "z.*" AND name CONTAINS[cd] "a" AND ANY pets.weight > 2 AND name BEGINSWITH[c] "z" AND age > 3"#)
        let order = ["t0.ZAGE > ?", "ocd_beginswith(t0.ZNAME, ?, 1)", "ocd_contains(t0.ZNAME, ?, 3)", "ocd_matches(", "EXISTS"].map {
            sql.range(of: $0)?.lowerBound
        }
        #expect(!order.contains(nil), "\(sql)")
        #expect(order.compactMap { $0 } == order.compactMap { $0 }.sorted(), "\(sql)")
    }

    @Test func normalizedComparisonsAreLiteralSQL() throws {
        let sql = try sql(#"name ==[n] "Zoë" OR name BEGINSWITH[n] "Zo" OR name CONTAINS[n] "o""#)
        #expect(!sql.contains("ocd_"), "\(sql)")
        #expect(sql.contains("t0.ZNAME = ?") && sql.contains("t0.ZNAME >= ?") && sql.contains("instr(t0.ZNAME, ?)"))
    }

    @Test func prefixSuccessorSkipsSurrogatesAndDropsTheLastCodePoint() {
        #expect(PredicateSQLCompiler.prefixSuccessor("abc") == "abd")
        #expect(PredicateSQLCompiler.prefixSuccessor("a\u{D7FF}") == "a\u{E000}")
        #expect(PredicateSQLCompiler.prefixSuccessor("a\u{10FFFF}") == "b")
        #expect(PredicateSQLCompiler.prefixSuccessor("\u{10FFFF}\u{10FFFF}") == nil)
        #expect(PredicateSQLCompiler.prefixSuccessor("") == nil)
    }
}
