import CoreDataObjectGraph
import CoreDataTestSupport
import Foundation
import SQLiteDatabase
import StoreAccess
import StoreBrowser
import Testing
import TerminalUI

/// Issue 6, item 6: the detail pane on a child context, accepting into the browser's context, writing with a
/// summary first, undo and redo, read-only by default.
@Suite("Editing")
struct BrowserEditingTests {
    static func chefName(_ path: String, _ pk: Int) throws -> String? {
        try StoreFile.text(path, "SELECT ZNAME FROM ZCHEF WHERE Z_PK = ?", [.integer(Int64(pk))])
    }

    @Test("Read-only by default: e, x, i and d are refused with a clear message")
    func readOnlyRefuses() throws {
        let browser = try BrowserHarness()
        try browser.press(.enter)
        #expect(browser.app.detail != nil)
        try browser.selectField("name")
        try browser.press(.character("e"))
        #expect(browser.editor.activeKind == nil)
        #expect(browser.app.messageIsError)
        #expect(browser.messageLine.contains("the store is open read-only: :edit (or --edit) allows editing"))
        try browser.press(.character("x"))
        #expect(browser.messageLine.contains("read-only"))
        try browser.press(.escape)
        try browser.press(.character("i"))
        #expect(browser.messageLine.contains("read-only"))
        try browser.press(.character("d"))
        #expect(browser.messageLine.contains("read-only"))
        #expect(!browser.text.contains("Delete rules"))
    }

    @Test("An edit in the detail pane shows old → new; Esc discards it and nothing changes")
    func editAndDiscard() throws {
        let browser = try BrowserHarness(edit: true)
        let path = browser.storePath
        let original = try #require(try Self.chefName(path, 1))
        try browser.press(.enter)
        try browser.selectField("name")
        try browser.editSelectedField(to: "Zed Tester")
        #expect(browser.screen[0].contains("Chef p1 (edited)"))
        #expect(browser.text.contains("\(original) → Zed Tester"))
        #expect(browser.app.detail?.selectedField?.committedValue == original)
        // Nothing reached the browser's context yet.
        #expect(browser.session.pendingChangeCount == 0)

        try browser.press(.escape)
        #expect(browser.app.detail == nil)
        #expect(browser.messageLine.contains("discarded the edits of Chef p1"))
        #expect(browser.session.pendingChangeCount == 0)
        #expect(browser.tableLines.first?.contains(original) == true)
        #expect(try Self.chefName(path, 1) == original)
    }

    @Test("a accepts into the main context; Ctrl-S shows the change and y writes it; a new session reads it back")
    func acceptAndWrite() throws {
        let browser = try BrowserHarness(edit: true)
        let path = browser.storePath
        let original = try #require(try Self.chefName(path, 1))
        let optBefore = try StoreFile.integer(path, "SELECT Z_OPT FROM ZCHEF WHERE Z_PK = 1")
        try browser.press(.enter)
        try browser.selectField("name")
        try browser.editSelectedField(to: "Zed Tester")
        try browser.press(.character("a"))
        #expect(browser.app.detail == nil)
        #expect(browser.messageLine.contains("Chef p1: accepted; :w writes it to the store"))
        #expect(browser.statusLine.contains("│ 1 pending │ EDIT"))
        #expect(browser.tableLines.first?.contains("Zed Tester") == true)
        #expect(try Self.chefName(path, 1) == original)

        // The summary first; n leaves everything pending.
        try browser.press(.control("s"))
        #expect(browser.text.contains("Write 1 change(s) to Recipes.sqlite?"))
        #expect(browser.text.contains("~ update Chef Zed Tester"))
        #expect(browser.text.contains("name: \"\(original)\" → \"Zed Tester\""))
        #expect(browser.text.contains("y write · n not now"))
        try browser.press(.character("n"))
        #expect(browser.statusLine.contains("1 pending"))
        #expect(try Self.chefName(path, 1) == original)

        try browser.type(":w\n")
        #expect(browser.text.contains("~ update Chef Zed Tester"))
        try browser.press(.character("y"))
        #expect(browser.messageLine.contains("written to Recipes.sqlite"))
        #expect(!browser.statusLine.contains("pending"))
        #expect(try Self.chefName(path, 1) == "Zed Tester")
        #expect(try StoreFile.integer(path, "SELECT Z_OPT FROM ZCHEF WHERE Z_PK = 1") == optBefore + 1)

        // Reopened from the file by a fresh session.
        let session = try BrowserSession(options: BrowserOptions(storePath: path))
        let name = try session.perform { () -> String? in
            let request = try session.store.objectRequest(entityName: "Chef", predicate: "name == 'Zed Tester'")
            return try session.context.fetch(request).first?.value(forKey: "name") as? String
        }
        #expect(name == "Zed Tester")
    }

    @Test("Each accepted edit is one undo group; u undoes, U and Ctrl-R redo, in the table")
    func undoRedo() throws {
        let browser = try BrowserHarness(edit: true)
        let path = browser.storePath
        let first = try #require(try Self.chefName(path, 1))
        let second = try #require(try Self.chefName(path, 2))
        // Two fields of Chef p1 in one visit: one group.
        try browser.press(.enter)
        try browser.selectField("name")
        try browser.editSelectedField(to: "First Edit")
        try browser.selectField("email")
        try browser.editSelectedField(to: "first@example.com")
        try browser.press(.character("a"))
        // Chef p2: a second group.
        try browser.press(.character("j"), .enter)
        try browser.selectField("name")
        try browser.editSelectedField(to: "Second Edit")
        try browser.press(.character("a"))
        #expect(browser.statusLine.contains("2 pending"))

        try browser.press(.character("u"))
        #expect(browser.messageLine.contains("undid Edit Chef p2"))
        #expect(browser.statusLine.contains("1 pending"))
        #expect(browser.tableLines[1].contains(second))
        #expect(browser.tableLines[0].contains("First Edit") && browser.tableLines[0].contains("first@example.com"))

        try browser.press(.character("u"))
        #expect(browser.messageLine.contains("undid Edit Chef p1"))
        #expect(!browser.statusLine.contains("pending"))
        #expect(browser.tableLines[0].contains(first) && !browser.tableLines[0].contains("first@example.com"))
        try browser.press(.character("u"))
        #expect(browser.messageLine.contains("nothing to undo"))

        try browser.press(.character("U"))
        #expect(browser.messageLine.contains("redid Edit Chef p1"))
        #expect(browser.tableLines[0].contains("First Edit") && browser.tableLines[0].contains("first@example.com"))
        try browser.press(.control("r"))
        #expect(browser.messageLine.contains("redid Edit Chef p2"))
        #expect(browser.statusLine.contains("2 pending"))
        try browser.press(.character("U"))
        #expect(browser.messageLine.contains("nothing to redo"))

        // What is written is what the undo stack left.
        try browser.press(.character("u"))
        try browser.type(":w\n")
        try browser.press(.character("y"))
        #expect(try Self.chefName(path, 1) == "First Edit")
        #expect(try Self.chefName(path, 2) == second)
    }

    @Test("Inside the detail pane u undoes the pane's own last edit, and x sets a field to nil")
    func detailUndoAndNil() throws {
        let browser = try BrowserHarness(edit: true)
        let path = browser.storePath
        let email = try StoreFile.text(path, "SELECT ZEMAIL FROM ZCHEF WHERE Z_PK = 1")
        try browser.press(.enter)
        try browser.selectField("email")
        try browser.press(.character("x"))
        #expect(browser.app.detail?.selectedField?.value == "")
        #expect(browser.text.contains("\(email ?? "?") →"))
        try browser.press(.character("u"))
        #expect(browser.app.detail?.selectedField?.value == email)
        #expect(browser.app.detail?.hasChanges == false)
        try browser.press(.character("U"))
        #expect(browser.app.detail?.selectedField?.value == "")
    }

    @Test("A value that does not parse is refused naming the field, with the prompt kept open")
    func badValue() throws {
        let browser = try BrowserHarness(edit: true)
        try browser.press(.enter)
        try browser.selectField("recipeCount")
        try browser.press(.character("e"))
        #expect(browser.messageLine.hasPrefix("recipeCount = "))
        try browser.press(.control("u"))
        try browser.type("many\n")
        #expect(browser.app.messageIsError)
        #expect(browser.text.contains("recipeCount"))
        #expect(browser.editor.activeKind?.rawValue == "edit")
        #expect(browser.editor.text == "many")
        try browser.press(.control("u"))
        try browser.type("12\n")
        #expect(browser.app.detail?.selectedField?.value == "12")
        #expect(browser.app.detail?.selectedField?.isPending == true)
    }

    @Test(":edit switches a read-only browser to editing; :readonly refuses while changes are pending")
    func editCommand() throws {
        let browser = try BrowserHarness()
        try browser.press(.character("j"), .character("j"))
        try browser.type(":edit\n")
        #expect(browser.statusLine.contains("│ EDIT"))
        #expect(browser.app.table.selection == 2)
        try browser.press(.enter)
        try browser.selectField("name")
        try browser.editSelectedField(to: "Switched")
        try browser.press(.character("a"))
        try browser.type(":readonly\n")
        #expect(browser.app.messageIsError)
        #expect(browser.text.contains("there are unsaved changes"))
        try browser.press(.escape)
        try browser.press(.character("u"))
        try browser.type(":readonly\n")
        #expect(browser.statusLine.contains("│ read-only"))
    }
}
