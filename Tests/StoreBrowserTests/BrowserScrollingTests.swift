import Foundation
import SQLiteDatabase
import StoreBrowser
import Testing
import TerminalUI

/// Issue 6, item 3: scrolling a large entity on the batch-faulting array. Only what is reached is loaded, and far
/// batches are forgotten. Nothing here is timed; the benchmarks time it.
@Suite("Scrolling a large entity")
struct BrowserScrollingTests {
    static let total = StoreFile.bigQuakeCount + 2_000

    /// The Earthquakes sample with 300,000 more quakes, written with SQL in one transaction.
    static func bigStore(batchSize: Int = 100, size: Size = Size(columns: 120, rows: 30)) throws -> BrowserHarness {
        try BrowserHarness(sample: "Earthquakes", entity: "Quake", size: size, batchSize: batchSize) {
            try StoreFile.bigEarthquakes(to: $0)
        }
    }

    /// The `code` of the quake at `row` in primary-key order, read from the file.
    static func code(at row: Int, in path: String) throws -> String {
        try StoreFile.text(path, "SELECT ZCODE FROM ZQUAKE ORDER BY Z_PK LIMIT 1 OFFSET ?", [.integer(Int64(row))]) ?? ""
    }

    @Test("The first screen, PgDn, G, g and the arrows on 302,000 rows load only the batches they reach")
    func pagingAndJumping() throws {
        let browser = try Self.bigStore()
        let path = browser.storePath
        #expect(browser.statusLine.contains("Quake │ row 1 of 302,000"))
        #expect(browser.text.contains(try Self.code(at: 0, in: path)))
        #expect(browser.app.table.residentBatches == [0])

        let page = browser.app.table.visibleRows
        try browser.press(.pageDown)
        #expect(browser.app.table.selection == page)
        #expect(browser.app.table.top == page)
        #expect(browser.tableLines.first?.contains(try Self.code(at: page, in: path)) == true)
        #expect(browser.statusLine.contains("row \(page + 1) of 302,000"))

        try browser.press(.character("G"))
        #expect(browser.app.table.selection == Self.total - 1)
        #expect(browser.statusLine.contains("row 302,000 of 302,000"))
        #expect(browser.text.contains(try Self.code(at: Self.total - 1, in: path)))
        // The jump loaded the last batch (and the one before it, for the rows above), nothing in between.
        let lastBatch = (Self.total - 1) / 100
        let resident = browser.app.table.residentBatches
        #expect(resident.contains(lastBatch))
        #expect(resident.allSatisfy { $0 <= 1 || $0 >= lastBatch - 1 })

        try browser.press(.character("g"))
        #expect(browser.app.table.selection == 0)
        #expect(browser.tableLines.first?.contains(try Self.code(at: 0, in: path)) == true)

        try browser.press(.end)
        #expect(browser.app.table.selection == Self.total - 1)
        try browser.press(.character("k"), .up)
        #expect(browser.app.table.selection == Self.total - 3)
        try browser.press(.home, .character("j"), .down)
        #expect(browser.app.table.selection == 2)
    }

    @Test("Half pages, page up, and far scrolling keep a bounded number of batches resident")
    func boundedMemory() throws {
        let browser = try Self.bigStore(batchSize: 50)
        let page = browser.app.table.visibleRows
        try browser.press(.control("d"))
        #expect(browser.app.table.selection == max(1, page / 2))
        try browser.press(.control("u"))
        #expect(browser.app.table.selection == 0)

        // 40 pages at 50 rows a batch pass over about 20 batches; at most 8 stay in memory.
        for _ in 0..<40 { try browser.press(.control("f")) }
        #expect(browser.app.table.selection == 40 * page)
        #expect(browser.text.contains(try Self.code(at: 40 * page, in: browser.storePath)))
        let resident = browser.app.table.residentBatches
        #expect(resident.count <= 8)
        #expect(resident.contains(40 * page / 50))
        #expect(!resident.contains(0))

        try browser.press(.pageUp, .control("b"))
        #expect(browser.app.table.selection == 38 * page)
        #expect(browser.text.contains(try Self.code(at: 38 * page, in: browser.storePath)))
    }

    @Test("G on a filtered table whose count is still unknown counts first and reads only the last batch")
    func jumpBeforeTheCount() throws {
        let browser = try Self.bigStore()
        try browser.type("/magnitude >= 8.5\n")
        let matching = try StoreFile.integer(browser.storePath, "SELECT COUNT(*) FROM ZQUAKE WHERE ZMAGNITUDE >= 8.5")
        #expect(matching > 1_000)
        #expect(browser.statusLine.contains("row 1 of ≥"))
        try browser.press(.character("G"))
        #expect(browser.app.table.selection == matching - 1)
        let last = try StoreFile.text(browser.storePath,
                                      "SELECT ZCODE FROM ZQUAKE WHERE ZMAGNITUDE >= 8.5 ORDER BY Z_PK DESC LIMIT 1")
        #expect(browser.text.contains(try #require(last)))
        try browser.settle()
        #expect(browser.statusLine.contains("row \(NumberFormatter.grouped(matching)) of \(NumberFormatter.grouped(matching))"))
    }

    @Test("Esc cancels a running count and the table still scrolls")
    func cancelCount() throws {
        let browser = try Self.bigStore()
        try browser.type("/place CONTAINS 'place 1'\n")
        try browser.press(.escape)
        try browser.settle()
        try browser.press(.character("j"))
        #expect(browser.app.table.selection == 1)
        #expect(browser.app.table.object(at: 1) != nil)
    }
}

extension NumberFormatter {
    /// 1234567 as "1,234,567", as the status line writes counts.
    static func grouped(_ value: Int) -> String {
        let formatter = NumberFormatter()
        formatter.numberStyle = .decimal
        formatter.groupingSeparator = ","
        formatter.usesGroupingSeparator = true
        return formatter.string(from: NSNumber(value: value)) ?? String(value)
    }
}
