import Foundation
import Predicates
import SQLiteDatabase
import StoreBrowser
import Testing
import TerminalUI

/// Issue 21, item 6: help, status line, entity list and table layout at the sizes a user tried.
@Suite("Layout, second pass")
struct BrowserSecondPassLayoutTests {
    @Test("The help overlay scrolls to its last line on a narrow screen, by j and by G")
    func helpScrollsToItsEnd() throws {
        let browser = try BrowserHarness(size: Size(columns: 50, rows: 16))
        let last = try #require(StoreBrowserApp.commandHelp.last?.trimmingCharacters(in: .whitespaces))
        try browser.press(.character("?"))
        #expect(!browser.text.contains(last))
        for _ in 0..<300 { try browser.press(.character("j")) }
        #expect(browser.text.contains(last), "\(browser.screen)")
        try browser.press(.character("g"))
        #expect(browser.text.contains("next row"))
        try browser.press(.character("G"))
        #expect(browser.text.contains(last), "\(browser.screen)")
    }

    @Test("At 80 columns a deep breadcrumb gives way: the row count stays on the status line")
    func breadcrumbGivesWayToTheCounts() throws {
        let browser = try BrowserHarness(entity: "Chef", size: Size(columns: 80, rows: 24))
        try browser.press(.enter)
        try browser.selectField("recipes")
        try browser.press(.enter)
        try browser.settle()
        try browser.type("/name CONTAINS[cd] 'e' OR minutes > 10\n")
        try browser.settle()
        let status = browser.statusLine
        #expect(status.range(of: #"row 1 of \d+"#, options: .regularExpression) != nil, "\(status)")
        #expect(status.contains("read-only"), "\(status)")
        // The end of the breadcrumb (where the user is) is kept.
        #expect(status.contains("recipes of"), "\(status)")
        try browser.press(.enter)
        #expect(browser.statusLine.range(of: #"field 1 of \d+"#, options: .regularExpression) != nil, "\(browser.statusLine)")
    }

    @Test("Long entity names are not cut in the entity list of a wide terminal")
    func longEntityNamesAtWideTerminals() throws {
        let long = "ShelfOfTheReadingRoomOnTheSecondFloor"
        let browser = try BrowserHarness(sample: "Library", size: Size(columns: 160, rows: 30)) { path in
            try StoreFile.write(path, """
                DROP TABLE Z_MODELCACHE;
                ALTER TABLE ZSHELF RENAME TO Z\(long.uppercased());
                UPDATE Z_PRIMARYKEY SET Z_NAME = '\(long)' WHERE Z_NAME = 'Shelf';
                """)
        }
        let names = browser.app.session.entityTree.map(\.entity.entityName)
        let shown = try #require(names.first { $0.lowercased() == long.lowercased() }, "\(names)")
        #expect(browser.screen.contains { $0.hasPrefix("│" + shown + " ") }, "\(browser.screen)")
    }

    @Test("The table of a parent entity has a column naming each row's entity")
    func parentEntityTableNamesRowEntities() throws {
        let browser = try BrowserHarness(sample: "Library", entity: "Item", size: Size(columns: 160, rows: 30))
        #expect(browser.app.table.columns.first?.key == "entity")
        let header = browser.screen[1]
        #expect(header.contains("entity"), "\(header)")
        let first = try StoreFile.integer(browser.storePath, "SELECT Z_ENT FROM ZITEM ORDER BY Z_PK LIMIT 1")
        let name = try StoreFile.text(browser.storePath, "SELECT Z_NAME FROM Z_PRIMARYKEY WHERE Z_ENT = \(first)")
        #expect(browser.screen[2].contains("│" + (name ?? "?") + " "), "\(browser.screen[2])")
        #expect(browser.text.contains("Book") && browser.text.contains("Magazine"))
        // A table of a leaf entity has none.
        try browser.type(":entity Author\n")
        #expect(browser.app.table.columns.first?.key != "entity")
    }

    @Test("D shows text min and max in the order a sort shows them (Foundation's compare:), not SQLite's bytes")
    func describeTextInSortOrder() throws {
        // Foundation's compare: puts "éz" (precomposed, U+00E9) before "f", as e + U+0301; byte order puts it last.
        let browser = try BrowserHarness(entity: "Cuisine", size: Size(columns: 160, rows: 40)) { path in
            try StoreFile.write(path, """
                UPDATE ZCUISINE SET ZNAME = char(233) || 'z' WHERE Z_PK = (SELECT MIN(Z_PK) FROM ZCUISINE);
                UPDATE ZCUISINE SET ZNAME = 'f' WHERE Z_PK = (SELECT MIN(Z_PK) + 1 FROM ZCUISINE);
                UPDATE ZCUISINE SET ZNAME = 'Aa' WHERE Z_PK = (SELECT MIN(Z_PK) + 2 FROM ZCUISINE);
                """)
        }
        let names = try StoreFile.rows(browser.storePath, "SELECT ZNAME FROM ZCUISINE").compactMap { $0[0].stringValue }
        let descriptor = Predicates.NSSortDescriptor(key: nil, ascending: true)
        let sorted = names.sorted { descriptor.compare($0, to: $1) == .orderedAscending }
        let (least, greatest) = (try #require(sorted.first), try #require(sorted.last))
        // The test means something only when bytes and Foundation disagree on this data.
        let bytes = names.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        #expect(bytes.last != greatest || bytes.first != least)
        try browser.press(.character("D"))
        let line = try #require(browser.screen.first { $0.contains("│name ") }, "\(browser.screen)")
        #expect(line.contains("\(least) … \(greatest)"), "\(line)")
    }
}
