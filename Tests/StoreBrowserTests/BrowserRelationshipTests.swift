import CoreDataObjectGraph
import Foundation
import SQLiteDatabase
import StoreBrowser
import Testing
import TerminalUI

/// Issue 7: following relationships from the detail pane, and the back and forward stacks with the breadcrumb.
@Suite("Relationships")
struct BrowserRelationshipTests {
    /// The primary keys of the objects of the table on screen, all of them.
    static func primaryKeys(of browser: BrowserHarness) -> Set<Int64> {
        let table = browser.app.table
        return browser.session.perform {
            var keys: Set<Int64> = []
            var row = 0
            while let object = table.object(at: row) {
                keys.insert(object.objectID.primaryKey)
                row += 1
            }
            return keys
        }
    }

    @Test("Enter on a to-one opens the destination; back restores the detail pane and the table's cursor")
    func toOneAndBack() throws {
        let browser = try BrowserHarness(entity: "Recipe")
        let path = browser.storePath
        for _ in 0..<4 { try browser.press(.character("j")) }
        let chef = try StoreFile.integer(path, "SELECT ZCHEF FROM ZRECIPE WHERE Z_PK = 5")
        try browser.press(.enter)
        try browser.selectField("chef")
        try browser.press(.enter)
        #expect(browser.app.detail?.title == "Chef p\(chef)")
        #expect(browser.statusLine.hasPrefix(" Recipes.sqlite › Recipe › Recipe p5 › chef of Recipe p5 › Chef p\(chef) │"))
        let name = try #require(try StoreFile.text(path, "SELECT ZNAME FROM ZCHEF WHERE Z_PK = ?", [.integer(Int64(chef))]))
        #expect(browser.text.contains(name))

        try browser.press(.backspace)
        #expect(browser.app.detail?.title == "Recipe p5")
        #expect(browser.app.detail?.selectedField?.key == "chef")
        #expect(browser.statusLine.hasPrefix(" Recipes.sqlite › Recipe › Recipe p5 │"))

        try browser.press(.character(">"))
        #expect(browser.app.detail?.title == "Chef p\(chef)")
        try browser.press(.character("<"))
        // Back with nothing on the stack closes the detail pane, leaving the cursor where it was.
        try browser.press(.character("<"))
        #expect(browser.app.detail == nil)
        #expect(browser.app.table.selection == 4)
        #expect(browser.statusLine.contains("row 5 of 200"))
    }

    @Test("Enter on an empty to-one says so")
    func emptyToOne() throws {
        let browser = try BrowserHarness(entity: "Recipe")
        let withoutPhoto = try StoreFile.integer(browser.storePath, "SELECT MIN(Z_PK) FROM ZRECIPE WHERE ZPHOTO IS NULL")
        for _ in 1..<withoutPhoto { try browser.press(.character("j")) }
        try browser.press(.enter)
        try browser.selectField("photo")
        try browser.press(.enter)
        #expect(browser.messageLine.contains("photo is empty"))
        #expect(browser.app.detail?.title == "Recipe p\(withoutPhoto)")
    }

    @Test("Enter on a to-many opens a table filtered through the inverse; back and forward keep each table's cursor")
    func toManyThroughInverse() throws {
        let browser = try BrowserHarness(entity: "Recipe")
        let path = browser.storePath
        try browser.press(.enter)
        try browser.selectField("ingredients")
        try browser.press(.enter)
        try browser.settle()
        let expected = Set(try StoreFile.rows(path, "SELECT Z_PK FROM ZINGREDIENT WHERE ZRECIPE = 1").compactMap { $0[0].int64Value })
        #expect(browser.app.detail == nil)
        #expect(browser.screen[0].contains("ingredients of Recipe p1"))
        #expect(browser.statusLine.contains("› Recipe › Recipe p1 › ingredients of Recipe p1 │ row 1 of \(expected.count) │"))
        #expect(Self.primaryKeys(of: browser) == expected)

        try browser.press(.character("j"), .character("j"))
        try browser.press(.backspace)
        #expect(browser.app.detail?.selectedField?.key == "ingredients")
        try browser.press(.character(">"))
        #expect(browser.app.table.selection == 2)
        #expect(browser.screen[0].contains("ingredients of Recipe p1"))
        try browser.press(.character(">"))
        #expect(browser.messageLine.contains("nothing to go forward to"))
    }

    @Test("Many-to-many and ordered to-many relationships of the Library open the right objects")
    func libraryRelationships() throws {
        let browser = try BrowserHarness(sample: "Library")
        let path = browser.storePath
        // Author p1's books, through the many-to-many inverse `authors`.
        try browser.press(.enter)
        try browser.selectField("books")
        try browser.press(.enter)
        let books = Set(try StoreFile.rows(path, "SELECT Z_3BOOKS FROM Z_1BOOKS WHERE Z_1AUTHORS = 1").compactMap { $0[0].int64Value })
        #expect(Self.primaryKeys(of: browser) == books)
        #expect(browser.screen[0].contains("books of Author p1"))

        // Shelf p1's items, an ordered to-many of an abstract entity: books and magazines.
        try browser.type(":entity Shelf\n")
        try browser.press(.enter)
        try browser.selectField("items")
        try browser.press(.enter)
        try browser.settle()
        let items = Set(try StoreFile.rows(path, "SELECT Z_PK FROM ZITEM WHERE ZSHELF = 1").compactMap { $0[0].int64Value })
        #expect(Self.primaryKeys(of: browser) == items)
        #expect(browser.statusLine.contains("row 1 of \(items.count)"))
        // The breadcrumb keeps the last steps and elides the rest.
        #expect(browser.statusLine.contains("Library.sqlite › … › "))
        #expect(browser.statusLine.contains("› items of Shelf p1 │"))
    }
}
