import CoreDataObjectGraph
import Foundation
import SQLiteDatabase
import StoreBrowser
import Testing
import TerminalUI

/// Issue 21, item 4: objects inserted but not written appear, marked, at the top of their entity's tables, so
/// they can be opened and fixed before `:w`.
@Suite("Pending inserts in tables")
struct BrowserPendingInsertTests {
    @Test("An accepted new chef is the first row, marked +; Enter opens it, an edit fixes it, :w writes it")
    func newObjectListedAndFixable() throws {
        let browser = try BrowserHarness(entity: "Chef", edit: true)
        let path = browser.storePath
        try browser.press(.character("i"))
        try browser.selectField("name")
        try browser.editSelectedField(to: "Pending Person")
        try browser.press(.character("a"))
        #expect(browser.app.detail == nil)
        #expect(browser.tableLines.first?.contains("+ ") == true)
        #expect(browser.tableLines.first?.contains("Pending Person") == true)
        #expect(browser.statusLine.contains("row 1 of 26"))

        try browser.press(.enter)
        #expect(browser.app.detail?.title == "Chef (new)")
        try browser.selectField("name")
        try browser.editSelectedField(to: "Fixed Person")
        try browser.press(.character("a"))
        #expect(browser.tableLines.first?.contains("Fixed Person") == true)
        // The stored rows follow, all of them still reachable.
        try browser.press(.character("G"))
        #expect(browser.app.table.selection == 25)

        try browser.type(":w\n")
        try browser.press(.character("y"))
        #expect(try StoreFile.integer(path, "SELECT COUNT(*) FROM ZCHEF WHERE ZNAME = 'Fixed Person'") == 1)
        #expect(browser.tableLines.allSatisfy { !$0.contains("+ ") })
        #expect(browser.statusLine.contains("of 26"))
    }

    @Test("A filter that the new object does not match leaves it out; u removes it from the table")
    func filteredAndUndone() throws {
        let browser = try BrowserHarness(entity: "Chef", edit: true)
        try browser.press(.character("i"))
        try browser.selectField("name")
        try browser.editSelectedField(to: "Zz Pending")
        try browser.press(.character("a"))
        try browser.type("/name BEGINSWITH 'A'\n")
        #expect(!browser.text.contains("Zz Pending"))
        try browser.type("/name BEGINSWITH 'Zz'\n")
        #expect(browser.tableLines.first?.contains("││+ ") == true)
        #expect(browser.tableLines.first?.contains("Zz Pending") == true)
        try browser.press(.character("u"))
        #expect(!browser.text.contains("Zz Pending"))
    }
}
