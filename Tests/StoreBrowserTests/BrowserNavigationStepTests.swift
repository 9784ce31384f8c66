import CoreDataModel
import CoreDataObjectGraph
import StoreBrowser
import Testing
import TerminalUI

/// Issue 21, item 1: opening an object's detail pane is a step of its own, so back and forward never skip the
/// table it was opened from, and the breadcrumb shows each step once.
@Suite("Navigation steps")
struct BrowserNavigationStepTests {
    @Test("Chef → recipes → a recipe: Backspace lands on the recipes table with its cursor; > reopens the recipe")
    func backFromDetailOverScopedTable() throws {
        let browser = try BrowserHarness(entity: "Chef")
        try browser.press(.enter)
        try browser.selectField("recipes")
        try browser.press(.enter)
        try browser.settle()
        #expect(browser.app.detail == nil)
        try browser.press(.character("j"), .character("j"))
        let picked = try #require(browser.session.perform { browser.app.table.selectedObject?.objectID })
        try browser.press(.enter)
        #expect(browser.app.detail?.objectID == picked)
        #expect(browser.statusLine.contains("› Chef p1 › recipes of Chef p1 › Recipe p\(picked.primaryKey) │"))

        try browser.press(.backspace)
        #expect(browser.app.detail == nil)
        #expect(browser.screen[0].contains("recipes of Chef p1"))
        #expect(browser.app.table.selection == 2)
        #expect(browser.statusLine.contains("› recipes of Chef p1 │"))
        #expect(!browser.statusLine.contains("Recipe p\(picked.primaryKey)"))

        try browser.press(.backspace)
        #expect(browser.app.detail?.title == "Chef p1")
        #expect(browser.app.detail?.selectedField?.key == "recipes")
        try browser.press(.backspace)
        #expect(browser.app.detail == nil)
        #expect(browser.statusLine.hasPrefix(" Recipes.sqlite › Chef │"))

        // Forward retraces every step, none skipped.
        try browser.press(.character(">"))
        #expect(browser.app.detail?.title == "Chef p1")
        try browser.press(.character(">"))
        #expect(browser.app.detail == nil)
        #expect(browser.screen[0].contains("recipes of Chef p1"))
        try browser.press(.character(">"))
        #expect(browser.app.detail?.objectID == picked)
    }

    @Test("An entity picked in the list, then a row: Backspace returns to that entity's table, not the first one")
    func backAfterPickingEntity() throws {
        let browser = try BrowserHarness(entity: "Chef")
        try browser.press(.tab, .character("j"), .enter)
        let entity = browser.app.table.query.entity.entityName
        #expect(entity != "Chef")
        try browser.press(.character("j"), .enter)
        #expect(browser.app.detail != nil)
        #expect(browser.statusLine.contains("Chef › \(entity) › \(entity) p"))
        try browser.press(.backspace)
        #expect(browser.app.detail == nil)
        #expect(browser.app.table.query.entity.entityName == entity)
        #expect(browser.app.table.selection == 1)
        try browser.press(.backspace)
        #expect(browser.app.table.query.entity.entityName == "Chef")
    }

    @Test("Esc and a close the detail step and return to its table; nothing is left to go forward to")
    func escapeAndAcceptCloseTheStep() throws {
        let browser = try BrowserHarness(entity: "Chef", edit: true)
        try browser.press(.character("j"), .enter)
        try browser.press(.escape)
        #expect(browser.app.detail == nil)
        #expect(browser.statusLine.hasPrefix(" Recipes.sqlite › Chef │"))
        try browser.press(.enter)
        try browser.selectField("name")
        try browser.editSelectedField(to: "Navigator")
        try browser.press(.character("a"))
        #expect(browser.app.detail == nil)
        #expect(browser.app.table.selection == 1)
        try browser.press(.character(">"))
        #expect(browser.messageLine.contains("nothing to go forward to"))
    }
}
