import CoreDataModel
import CoreDataObjectGraph
import CoreDataSQLiteFormat
import Foundation
import Predicates
import SQLiteDatabase
import StoreAccess
import StoreBrowser
import Synchronization
import Testing
import TerminalUI

/// Issue 21, item 3: a text sort uses SQLite's speed and the column's index where the bytes order as `compare:`
/// does. `Recipe.normalizedName` is all ASCII and has a fetch index (`Z_Recipe_byNormalizedName`, BINARY, as Core
/// Data creates them); `Recipe.name` holds accented names, so it keeps the Swift collation.
@Suite("Sorting text through the index")
struct BrowserIndexedSortTests {
    /// Counts the calls of the store's `compare:` collation (which still answers as the descriptor) and records the
    /// statements the store's connection runs.
    final class Probe: Sendable {
        let comparisons = Atomic<Int>(0)
        let plainASCIIChecks = Atomic<Int>(0)
        /// Comparisons of two ASCII texts that reached Swift (with `fallbacksOnly`): the C side should decide them.
        let asciiFallbacks = Atomic<Int>(0)
        let statements = Mutex<[String]>([])

        var comparisonCount: Int { comparisons.load(ordering: .acquiring) }
        func recorded(containing text: String) -> [String] { statements.withLock { $0.filter { $0.contains(text) } } }
    }

    /// With `fallbacksOnly`, the collation keeps its C byte decisions and counts only the comparisons it hands to
    /// Swift; the check's per-value function is counted too.
    static func install(_ probe: Probe, on browser: BrowserHarness, fallbacksOnly: Bool = false) throws {
        let store = try #require(browser.session.store.coordinator.persistentStores.first as? NSSQLiteStore)
        let descriptor = Predicates.NSSortDescriptor(key: nil, ascending: true)
        try store.withConnection { connection in
            let name = PredicateSQLFunctions.collationName(for: .compare)
            if fallbacksOnly {
                try connection.createTextOrderCollation(name: name) { left, right in
                    probe.comparisons.add(1, ordering: .relaxed)
                    if left.allSatisfy({ $0 < 0x80 }) && right.allSatisfy({ $0 < 0x80 }) {
                        probe.asciiFallbacks.add(1, ordering: .relaxed)
                    }
                    return descriptor.compare(String(decoding: left, as: UTF8.self), to: String(decoding: right, as: UTF8.self))
                }
            } else {
                try connection.createCollation(name: name) { left, right in
                    probe.comparisons.add(1, ordering: .relaxed)
                    return descriptor.compare(left, to: right)
                }
            }
            try connection.createRawFunction(name: BinaryTextOrder.functionName, argumentCount: 1, deterministic: true) { call in
                probe.plainASCIIChecks.add(1, ordering: .relaxed)
                guard call.type(at: 0) == .text else { return .integer(1) }
                return .integer(call.withUTF8(at: 0) { $0.allSatisfy { (1...0x7F).contains($0) } } ? 1 : 0)
            }
            connection.trace(options: .statements) { event in
                if case .statement(let sql, _) = event { probe.statements.withLock { $0.append(sql) } }
            }
        }
    }

    /// The values of `key` in every row of the table, in the order shown.
    static func shownValues(_ browser: BrowserHarness, _ key: String) throws -> [String?] {
        try browser.settle()  // the table's count, from the background counter
        let table = browser.app.table
        #expect(table.knownCount == 200)
        return browser.session.perform {
            (0..<table.rowCount).map { table.object(at: $0)?.value(forKey: key) as? String }
        }
    }

    /// The file's values of `column`, ordered by the descriptor (ties by primary key, as the store breaks them).
    static func descriptorOrder(_ path: String, column: String) throws -> [String?] {
        let descriptor = Predicates.NSSortDescriptor(key: nil, ascending: true)
        let rows = try StoreFile.rows(path, "SELECT Z_PK, \(column) FROM ZRECIPE").map { ($0[0].int64Value ?? 0, $0[1].stringValue) }
        return rows.sorted { a, b in
            switch (a.1, b.1) {
            case (nil, nil): return a.0 < b.0
            case (nil, _): return true
            case (_, nil): return false
            case let (left?, right?):
                let order = descriptor.compare(left, to: right)
                return order == .orderedSame ? a.0 < b.0 : order == .orderedAscending
            }
        }.map(\.1)
    }

    /// Every window the store ran for a sort on `column` by bytes walks `index` instead of sorting the table (ties on
    /// the column may still be put in primary-key order in a small temporary tree: "RIGHT PART OF ORDER BY"). Windows
    /// that continue downwards from a row (`< ? OR … IS NULL`) are left out: SQLite gathers those rows through the
    /// index and sorts them, as it does for any indexed column.
    static func expectIndexWalk(_ probe: Probe, _ path: String, column: String, index: String,
                                sourceLocation: SourceLocation = #_sourceLocation) throws {
        let windows = probe.recorded(containing: "ORDER BY t0.\(column) ASC") + probe.recorded(containing: "ORDER BY t0.\(column) DESC")
        #expect(!windows.isEmpty, "no window sorted \(column) by bytes", sourceLocation: sourceLocation)
        for sql in windows where !sql.contains("IS NULL)) OR") {
            // The plan does not depend on the keyset's values: NULL stands in for each parameter.
            let parameters = [SQLiteValue](repeating: .null, count: sql.filter { $0 == "?" }.count)
            let plan = try StoreFile.rows(path, "EXPLAIN QUERY PLAN " + sql, parameters).compactMap { $0.last?.stringValue }.joined(separator: "; ")
            #expect(plan.contains("USING INDEX \(index)") && !plan.contains("USE TEMP B-TREE FOR ORDER BY"), "\(sql)\n\(plan)",
                    sourceLocation: sourceLocation)
        }
    }

    @Test("[ on an all-ASCII indexed text column walks the index: no Swift comparison, the descriptor's order, G too")
    func asciiIndexedColumnWalksTheIndex() throws {
        let browser = try BrowserHarness(entity: "Recipe", batchSize: 20)
        let path = browser.storePath
        let probe = Probe()
        try Self.install(probe, on: browser)
        try browser.selectColumn("normalizedName")
        // The browser decided the text columns' byte order in the background when the table opened.
        try browser.settle()

        try browser.press(.character("["))
        #expect(browser.statusLine.contains("│ sort normalizedName │"), "\(browser.statusLine)")
        let expected = try Self.descriptorOrder(path, column: "ZNORMALIZEDNAME")
        let shown = try Self.shownValues(browser, "normalizedName")
        #expect(shown == expected)
        #expect(probe.comparisonCount == 0, "the sort compared \(probe.comparisonCount) times in Swift")
        try Self.expectIndexWalk(probe, path, column: "ZNORMALIZEDNAME", index: "Z_Recipe_byNormalizedName")

        // G on the sorted table reads the last window backwards through the index as well.
        try browser.press(.character("g"), .character("G"))
        #expect(browser.statusLine.contains("row 200 of 200"), "\(browser.statusLine)")
        let last = browser.session.perform { browser.app.table.object(at: 199)?.value(forKey: "normalizedName") as? String }
        #expect(last == expected.last!)
        try browser.press(.character("]"))
        #expect(try Self.shownValues(browser, "normalizedName") == expected.reversed())
        #expect(probe.comparisonCount == 0)
        try Self.expectIndexWalk(probe, path, column: "ZNORMALIZEDNAME", index: "Z_Recipe_byNormalizedName")
        // The column was read to decide on the background connection, not by any sort.
        #expect(probe.recorded(containing: "NOT ocd_sorts_by_bytes(").isEmpty)
        #expect(probe.plainASCIIChecks.load(ordering: .acquiring) == 0)
    }

    @Test("A sort after a write, before the background decides again, reads the column itself, once")
    func sortBeforeTheBackgroundDecisionDecidesItself() throws {
        let browser = try BrowserHarness(entity: "Recipe", edit: true, batchSize: 20)
        let store = try #require(browser.session.store.coordinator.persistentStores.first as? NSSQLiteStore)
        try browser.settle()
        // A write on the store's connection (no value changes) makes the background's answers stale.
        try store.withConnection { try $0.execute(sql: "UPDATE ZRECIPE SET ZMINUTES = ZMINUTES WHERE Z_PK = 1") }
        #expect(try store.undecidedTextOrderChecks(for: browser.app.table.query.entity)?.queries.map(\.column)
                .contains("ZNORMALIZEDNAME") == true)
        let probe = Probe()
        try Self.install(probe, on: browser)
        try browser.selectColumn("normalizedName")
        try browser.press(.character("["))
        try browser.press(.character("]"))
        #expect(probe.recorded(containing: "NOT ocd_sorts_by_bytes(").count == 1)
        #expect(probe.plainASCIIChecks.load(ordering: .acquiring) == 200)
        #expect(probe.comparisonCount == 0)
        // Nothing is left to decide for that column.
        let undecided = try store.undecidedTextOrderChecks(for: browser.app.table.query.entity)?.queries.map(\.column) ?? []
        #expect(!undecided.contains("ZNORMALIZEDNAME"), "\(undecided)")
    }

    @Test("A subentity's table decides its inherited text columns too (Book's title is Item's)")
    func inheritedTextColumnsAreDecided() throws {
        let browser = try BrowserHarness(sample: "Library", entity: "Book", batchSize: 20)
        let store = try #require(browser.session.store.coordinator.persistentStores.first as? NSSQLiteStore)
        try browser.settle()
        let item = try #require(browser.session.model.entitiesByName["Item"])
        let undecided = try store.undecidedTextOrderChecks(for: item)?.queries.map(\.column) ?? []
        #expect(!undecided.contains("ZTITLE"), "\(undecided)")
        #expect(try store.undecidedTextOrderChecks(for: browser.app.table.query.entity) == nil)
    }

    @Test("[ on a column with one accented text among ASCII ones: the descriptor's order, and no comparison of two ASCII texts reaches Swift")
    func asciiComparisonsAreDecidedInC() throws {
        // Instructions made ASCII (they hold accented words), with ties, mixed case and a shared prefix, but one.
        let browser = try BrowserHarness(entity: "Recipe", batchSize: 20) { path in
            try StoreFile.write(path, """
                UPDATE ZRECIPE SET ZINSTRUCTIONS = CASE WHEN Z_PK = 7 THEN 'étape 1' WHEN Z_PK % 3 = 0 THEN 'Step ' \
                ELSE 'step ' END || (Z_PK * 37 % 90)
                """)
        }
        let path = browser.storePath
        let probe = Probe()
        try Self.install(probe, on: browser, fallbacksOnly: true)
        try browser.selectColumn("instructions")
        try browser.press(.character("["))
        #expect(browser.statusLine.contains("│ sort instructions │"), "\(browser.statusLine)")
        #expect(try Self.shownValues(browser, "instructions") == (try Self.descriptorOrder(path, column: "ZINSTRUCTIONS")))
        #expect(!probe.recorded(containing: "ORDER BY t0.ZINSTRUCTIONS COLLATE ocd_compare ASC").isEmpty)
        #expect(probe.comparisonCount > 0, "the accented text is compared in Swift")
        #expect(probe.asciiFallbacks.load(ordering: .acquiring) == 0, "comparisons of two ASCII texts reached Swift")
    }

    @Test("A column with accented text keeps the descriptor's collation, and its order")
    func accentedColumnKeepsTheCollation() throws {
        let browser = try BrowserHarness(entity: "Recipe", batchSize: 20)
        let probe = Probe()
        try Self.install(probe, on: browser)
        try browser.selectColumn("name")
        try browser.press(.character("["))
        #expect(probe.comparisonCount > 0)
        #expect(probe.recorded(containing: "ORDER BY t0.ZNAME ASC").isEmpty)
        #expect(!probe.recorded(containing: "ORDER BY t0.ZNAME COLLATE ocd_compare ASC").isEmpty)
        let shown = try Self.shownValues(browser, "name").compactMap { $0 }
        let descriptor = Predicates.NSSortDescriptor(key: nil, ascending: true)
        for (first, second) in zip(shown, shown.dropFirst()) {
            #expect(descriptor.compare(first, to: second) != .orderedDescending, "\(first) before \(second)")
        }
    }

    @Test("Another process writes an accented value into the sorted column: r sorts it where the descriptor puts it")
    func outsideWriteEndsTheByteOrder() throws {
        let browser = try BrowserHarness(entity: "Recipe", batchSize: 20)
        let path = browser.storePath
        let probe = Probe()
        try Self.install(probe, on: browser)
        try browser.selectColumn("normalizedName")
        try browser.press(.character("["))
        #expect(probe.comparisonCount == 0)

        // "ä" (U+00E4): its bytes sort after every ASCII text, Foundation puts it among the a's.
        try StoreFile.write(path, "UPDATE ZRECIPE SET ZNORMALIZEDNAME = 'ä' WHERE Z_PK = 7")
        try browser.press(.character("r"))
        let expected = try Self.descriptorOrder(path, column: "ZNORMALIZEDNAME")
        #expect(expected.last != "ä")
        #expect(try Self.shownValues(browser, "normalizedName") == expected)
        #expect(probe.comparisonCount > 0, "the collation decides again")
    }

    @Test("The browser's own write of an accented value ends the byte order too")
    func ownWriteEndsTheByteOrder() throws {
        let browser = try BrowserHarness(entity: "Recipe", edit: true, batchSize: 20)
        let path = browser.storePath
        let probe = Probe()
        try Self.install(probe, on: browser)
        try browser.selectColumn("normalizedName")
        try browser.press(.character("["))
        #expect(probe.comparisonCount == 0)

        try browser.press(.enter)
        try browser.selectField("normalizedName")
        try browser.editSelectedField(to: "ä")
        try browser.press(.character("a"))
        try browser.type(":w\n")
        try browser.press(.character("y"))
        #expect(browser.messageLine.contains("written to Recipes.sqlite"), "\(browser.messageLine)")
        try browser.press(.character("r"))
        let expected = try Self.descriptorOrder(path, column: "ZNORMALIZEDNAME")
        #expect(expected.contains("ä") && expected.last != "ä")
        #expect(try Self.shownValues(browser, "normalizedName") == expected)
        #expect(probe.comparisonCount > 0, "the collation decides again")
    }
}
