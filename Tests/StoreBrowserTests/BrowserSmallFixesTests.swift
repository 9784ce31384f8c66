import Predicates
import CoreDataObjectGraph
import Foundation
import SQLiteDatabase
import StoreBrowser
import Testing
import TerminalUI

/// Issue 21, item 6: the smaller things a user met.
@Suite("Small fixes of the second pass")
struct BrowserSmallFixesTests {
    @Test("/ shows the current filter selected: typing replaces it, an arrow key first keeps it for editing")
    func filterPrefillIsReplaced() throws {
        let browser = try BrowserHarness(entity: "Recipe")
        try browser.type("/minutes < 30\n")
        try browser.type("/servings > 4\n")
        #expect(!browser.app.messageIsError)
        #expect(browser.app.table.query.filter?.predicateFormat == "servings > 4")
        try browser.press(.character("/"))
        #expect(browser.editor.text == "servings > 4")
        try browser.press(.end)
        try browser.type(" AND minutes < 30\n")
        #expect(!browser.app.messageIsError)
        #expect(browser.app.table.query.filter?.predicateFormat == "servings > 4 AND minutes < 30")
    }

    @Test("Setting a value to nil shows old → nil in the detail pane")
    func nilShownAfterArrow() throws {
        let browser = try BrowserHarness(entity: "Recipe", edit: true)
        let rated = try StoreFile.integer(browser.storePath, "SELECT MIN(Z_PK) FROM ZRECIPE WHERE ZRATING IS NOT NULL")
        for _ in 1..<rated { try browser.press(.character("j")) }
        try browser.press(.enter)
        try browser.selectField("rating")
        let before = try #require(browser.app.detail?.selectedField?.value)
        try browser.press(.character("x"))
        #expect(browser.text.contains("\(before) → nil"))
    }
}
