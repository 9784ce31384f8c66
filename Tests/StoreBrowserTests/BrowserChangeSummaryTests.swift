import CoreDataObjectGraph
import Foundation
import SQLiteDatabase
import StoreBrowser
import Testing
import TerminalUI

/// Issue 21, item 2: the write confirmation reports a to-many change as what was added and removed against the
/// values the store holds, not as `nil → {…}`.
@Suite("Write confirmation of to-many changes")
struct BrowserChangeSummaryTests {
    @Test("Moving a recipe to another chef: each chef's recipes show the one added or removed")
    func movingBetweenChefs() throws {
        let browser = try BrowserHarness(entity: "Recipe", edit: true)
        let path = browser.storePath
        let oldChef = try StoreFile.integer(path, "SELECT ZCHEF FROM ZRECIPE WHERE Z_PK = 1")
        let target = oldChef == 5 ? 6 : 5
        let oldCount = try StoreFile.integer(path, "SELECT COUNT(*) FROM ZRECIPE WHERE ZCHEF = ?", [.integer(Int64(oldChef))])
        let newCount = try StoreFile.integer(path, "SELECT COUNT(*) FROM ZRECIPE WHERE ZCHEF = ?", [.integer(Int64(target))])
        try browser.press(.enter)
        try browser.selectField("chef")
        try browser.press(.character("e"))
        // The picker opens on the current chef; g goes to the top.
        try browser.press(.character("g"))
        for _ in 1..<target { try browser.press(.character("j")) }
        try browser.press(.enter)
        try browser.press(.character("a"))
        try browser.type(":w\n")
        let text = browser.text
        // Named by label, never by ID (issue 21).
        let recipe = try #require(try StoreFile.text(path, "SELECT ZNAME FROM ZRECIPE WHERE Z_PK = 1"))
        let oldName = try #require(try StoreFile.text(path, "SELECT ZNAME FROM ZCHEF WHERE Z_PK = ?", [.integer(Int64(oldChef))]))
        let newName = try #require(try StoreFile.text(path, "SELECT ZNAME FROM ZCHEF WHERE Z_PK = ?", [.integer(Int64(target))]))
        #expect(text.contains("~ update Recipe \(recipe)"), "\(text)")
        #expect(text.contains("~ update Chef \(oldName)"))
        #expect(text.contains("~ update Chef \(newName)"))
        #expect(text.contains("chef: \(oldName) → \(newName)"))
        #expect(text.contains("recipes: added \(recipe) (\(newCount) → \(newCount + 1))"))
        #expect(text.contains("recipes: removed \(recipe) (\(oldCount) → \(oldCount - 1))"))
        #expect(!text.contains(" p1") && !text.contains("x-coredata:"))
        #expect(!text.contains("nil →"))
    }

    @Test("Adding a tag shows only the added tag, on both sides of the many-to-many")
    func addingATag() throws {
        let browser = try BrowserHarness(entity: "Recipe", edit: true)
        let path = browser.storePath
        let tags = try StoreFile.rows(path, "SELECT Z_6TAGS FROM Z_5TAGS WHERE Z_5RECIPES = 1").compactMap { $0[0].int64Value }
        let missing = try #require((1...16).first { !tags.contains(Int64($0)) })
        try browser.press(.enter)
        try browser.selectField("tags")
        try browser.press(.character("e"))
        for _ in 1..<missing { try browser.press(.character("j")) }
        try browser.press(.enter)
        try browser.press(.character("a"))
        try browser.type(":w\n")
        let text = browser.text
        let tag = try #require(try StoreFile.text(path, "SELECT ZLABEL FROM ZTAG WHERE Z_PK = ?", [.integer(Int64(missing))]))
        let recipe = try #require(try StoreFile.text(path, "SELECT ZNAME FROM ZRECIPE WHERE Z_PK = 1"))
        #expect(text.contains("tags: added \(tag) (\(tags.count) → \(tags.count + 1))"), "\(text)")
        #expect(text.contains("recipes: added \(recipe)"))
        #expect(!text.contains("Tag p"))
        #expect(!text.contains("nil →"))
        #expect(!text.contains("removed"))
    }
}
