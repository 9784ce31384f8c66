import CoreDataObjectGraph
import Foundation
import SQLiteDatabase
import StoreBrowser
import Testing
import TerminalUI

/// Issue 6, item 4: `[` and `]` sort by the current column and `{` `}` add sort levels, in SQL over the whole
/// entity: the first row after a sort is the global extreme even though only one batch is loaded.
@Suite("Sorting")
struct BrowserSortingTests {
    /// The code of the first quake in `order`, straight from the file.
    static func firstCode(_ path: String, order: String, filter: String = "1") throws -> String? {
        try StoreFile.text(path, "SELECT ZCODE FROM ZQUAKE WHERE \(filter) ORDER BY \(order), Z_PK LIMIT 1")
    }

    static func expectFirstRow(_ browser: BrowserHarness, code: String?,
                               sourceLocation: SourceLocation = #_sourceLocation) throws {
        let code = try #require(code, sourceLocation: sourceLocation)
        let table = browser.app.table
        #expect(table.top == 0, sourceLocation: sourceLocation)
        let shown = browser.session.perform { table.object(at: 0)?.value(forKey: "code") as? String }
        #expect(shown == code, sourceLocation: sourceLocation)
    }

    @Test("[ and ] sort 302,000 quakes by magnitude; G reaches the other end")
    func ascendingAndDescending() throws {
        let browser = try BrowserScrollingTests.bigStore()
        let path = browser.storePath
        try browser.selectColumn("magnitude")
        try browser.press(.character("]"))
        #expect(browser.statusLine.contains("│ sort -magnitude │"))
        #expect(browser.screen[1].contains("magnitude▼"))
        try Self.expectFirstRow(browser, code: Self.firstCode(path, order: "ZMAGNITUDE DESC"))
        #expect(browser.app.table.currentColumn == browser.app.table.columns.firstIndex { $0.key == "magnitude" })
        #expect(browser.app.table.residentBatches == [0])

        try browser.press(.character("["))
        #expect(browser.statusLine.contains("│ sort magnitude │"))
        #expect(browser.screen[1].contains("magnitude▲"))
        try Self.expectFirstRow(browser, code: Self.firstCode(path, order: "ZMAGNITUDE ASC"))

        try browser.press(.character("G"))
        let last = try StoreFile.text(path, "SELECT ZCODE FROM ZQUAKE ORDER BY ZMAGNITUDE DESC, Z_PK DESC LIMIT 1")
        #expect(browser.text.contains(try #require(last)))
    }

    @Test("{ and } add levels; a second [ on a sorted column replaces the whole sort")
    func sortLevels() throws {
        let browser = try BrowserScrollingTests.bigStore()
        let path = browser.storePath
        try browser.selectColumn("magnitude")
        try browser.press(.character("]"))
        try browser.selectColumn("depth")
        try browser.press(.character("{"))
        #expect(browser.statusLine.contains("│ sort -magnitude,depth │"))
        #expect(browser.screen[1].contains("magnitude▼1") || browser.app.table.firstVisibleColumn > 0)
        #expect(browser.screen[1].contains("depth▲2"))
        try Self.expectFirstRow(browser, code: Self.firstCode(path, order: "ZMAGNITUDE DESC, ZDEPTH ASC"))

        try browser.selectColumn("time")
        try browser.press(.character("}"))
        #expect(browser.statusLine.contains("│ sort -magnitude,depth,-time │"))
        try Self.expectFirstRow(browser, code: Self.firstCode(path, order: "ZMAGNITUDE DESC, ZDEPTH ASC, ZTIME DESC"))

        // Adding a level that is already there moves it to the end with the new direction.
        try browser.selectColumn("depth")
        try browser.press(.character("}"))
        #expect(browser.statusLine.contains("│ sort -magnitude,-time,-depth │"))

        try browser.press(.character("["))
        #expect(browser.statusLine.contains("│ sort depth │"))
        try Self.expectFirstRow(browser, code: Self.firstCode(path, order: "ZDEPTH ASC"))
    }

    @Test("Sorting keeps the filter, and sorts only the filtered objects")
    func sortWithFilter() throws {
        let browser = try BrowserScrollingTests.bigStore()
        let path = browser.storePath
        try browser.type("/depth < 100\n")
        try browser.selectColumn("magnitude")
        try browser.press(.character("]"))
        #expect(browser.statusLine.contains("│ / depth < 100 │ sort -magnitude │"))
        try Self.expectFirstRow(browser, code: Self.firstCode(path, order: "ZMAGNITUDE DESC", filter: "ZDEPTH < 100"))
        try browser.settle()
        let count = try StoreFile.integer(path, "SELECT COUNT(*) FROM ZQUAKE WHERE ZDEPTH < 100")
        #expect(browser.statusLine.contains("of \(NumberFormatter.grouped(count))"))
    }

    @Test(":sort takes key paths through relationships, and a to-one column sorts without error")
    func sortCommandAndToOne() throws {
        let browser = try BrowserHarness(sample: "Earthquakes", entity: "Quake")
        let path = browser.storePath
        try browser.type(":sort -region.name,magnitude\n")
        #expect(browser.app.message == nil || browser.app.messageIsError == false)
        #expect(browser.statusLine.contains("│ sort -region.name,magnitude │"))
        let expected = try StoreFile.text(path, """
            SELECT q.ZCODE FROM ZQUAKE q LEFT JOIN ZREGION r ON r.Z_PK = q.ZREGION
            ORDER BY r.ZNAME DESC, q.ZMAGNITUDE ASC, q.Z_PK LIMIT 1
            """)
        try Self.expectFirstRow(browser, code: expected)

        try browser.type(":sort nosuchkey\n")
        #expect(browser.app.messageIsError)
        #expect(browser.messageLine.contains("unknown key \"nosuchkey\"") || browser.text.contains("unknown key \"nosuchkey\""))

        try browser.press(.escape)
        try browser.selectColumn("region")
        try browser.press(.character("["))
        #expect(!browser.app.messageIsError)
        #expect(browser.statusLine.contains("│ sort region │"))
    }
}
