import CoreDataObjectGraph
import Foundation
import SQLiteDatabase
import StoreBrowser
import Testing
import TerminalUI

/// Issue 6, item 8: `r` re-fetches keeping the cursor on the same object, the filter and the sort; another
/// connection's commit is noticed (PRAGMA data_version) and, with automatic refresh, re-fetched by itself.
@Suite("Refresh")
struct BrowserRefreshTests {
    /// Two chefs whose names sort first, written by another connection as another process would.
    static func insertChefsSortingFirst(_ path: String) throws {
        try StoreFile.write(path, """
            INSERT INTO ZCHEF (Z_PK, Z_ENT, Z_OPT, ZRECIPECOUNT, ZEMAIL, ZNAME) VALUES
                (26, 1, 1, 0, 'a1@example.com', 'Aaron Aardvark'), (27, 1, 1, 0, 'a2@example.com', 'Aaron Abbot');
            UPDATE Z_PRIMARYKEY SET Z_MAX = 27 WHERE Z_NAME = 'Chef';
            """)
    }

    @Test("r keeps the cursor on the same object after rows are inserted before it, with filter and sort kept")
    func refreshKeepsObject() throws {
        let browser = try BrowserHarness(predicate: "recipeCount >= 0")
        try browser.type(":sort name\n")
        for _ in 0..<5 { try browser.press(.character("j")) }
        let selectedName = try #require(browser.session.perform { browser.app.table.selectedObject?.value(forKey: "name") as? String })
        #expect(browser.tableLines[5].contains(selectedName))

        try Self.insertChefsSortingFirst(browser.storePath)
        try browser.press(.character("r"))
        #expect(browser.messageLine.contains("re-fetched"))
        #expect(browser.app.table.selection == 7)
        #expect(browser.session.perform { browser.app.table.selectedObject?.value(forKey: "name") as? String } == selectedName)
        #expect(browser.statusLine.contains("│ / recipeCount >= 0 │ sort name │"))
        try browser.settle()
        #expect(browser.statusLine.contains("row 8 of 27"))
        #expect(browser.tableLines.first?.contains("Aaron Aardvark") == true)
    }

    @Test("r says so when the selected object was deleted by someone else")
    func refreshSelectedGone() throws {
        let browser = try BrowserHarness()
        try browser.press(.character("j"), .character("j"))
        try StoreFile.write(browser.storePath, "UPDATE ZRECIPE SET ZCHEF = NULL WHERE ZCHEF = 3; DELETE FROM ZCHEF WHERE Z_PK = 3;")
        try browser.press(.character("r"))
        #expect(browser.messageLine.contains("re-fetched; the selected object is gone"))
        try browser.settle()
        #expect(browser.statusLine.contains("of 24"))
    }

    @Test("A commit by another connection is noticed on the next tick, and r clears the notice")
    func detectsExternalWrite() throws {
        let browser = try BrowserHarness()
        try browser.settle()
        #expect(!browser.statusLine.contains("store changed"))
        try Self.insertChefsSortingFirst(browser.storePath)
        try browser.settle()
        #expect(browser.statusLine.contains("│ store changed: r"))
        #expect(browser.messageLine.contains("the store changed on disk: r re-fetches"))
        // Not re-fetched by itself: the count is still the old one.
        #expect(browser.statusLine.contains("of 25"))
        try browser.press(.character("r"))
        try browser.settle()
        #expect(!browser.statusLine.contains("store changed"))
        #expect(browser.statusLine.contains("of 27"))
        #expect(browser.text.contains("Chef                      27"))
    }

    @Test("With automatic refresh the table re-fetches by itself after another connection's commit")
    func autoRefresh() throws {
        let browser = try BrowserHarness(autoRefresh: true)
        try Self.insertChefsSortingFirst(browser.storePath)
        try browser.settle()
        try browser.settle()
        #expect(!browser.statusLine.contains("store changed"))
        #expect(browser.statusLine.contains("of 27"))
        try browser.press(.character("G"))
        #expect(browser.text.contains("Aaron Abbot"))
        try browser.press(.character("g"))
        // :autorefresh off turns it off again.
        try browser.type(":autorefresh off\n")
        try StoreFile.write(browser.storePath, "UPDATE ZCHEF SET ZNAME = 'Renamed Outside' WHERE Z_PK = 1;")
        try browser.settle()
        #expect(browser.statusLine.contains("store changed: r"))
        #expect(!browser.text.contains("Renamed Outside"))
        try browser.press(.character("r"))
        #expect(browser.text.contains("Renamed Outside"))
    }

    @Test("The browser's own write is not reported as an outside change")
    func ownWriteIsNotOutside() throws {
        let browser = try BrowserHarness(edit: true)
        try browser.press(.enter)
        try browser.selectField("name")
        try browser.editSelectedField(to: "Own Write")
        try browser.press(.character("a"))
        try browser.type(":w\n")
        try browser.press(.character("y"))
        try browser.settle()
        #expect(!browser.statusLine.contains("store changed"))
    }

    @Test("Ctrl-L repaints every cell")
    func redraw() throws {
        let browser = try BrowserHarness()
        #expect(browser.app.handle(.control("l")) == .repaintAll)
        let before = browser.terminal.runs.count
        try browser.press(.control("l"))
        // A full repaint sends every row again, not only what changed.
        #expect(browser.terminal.runs.count - before >= browser.screen.count)
    }
}
