import CoreDataTestSupport
import Foundation
import Testing

/// Issue 6, items 3 (scrolling keys on the batch-faulting table) and 4 (sorting by columns, in SQL).
@Suite(.enabled(if: BrowserPane.isAvailable, BrowserPane.skipMessage))
struct ScrollingAndSortingEndToEndTests {
    /// Presses `key` and waits until the status line's row differs from `row`, returning the new row.
    private func move(_ pane: BrowserPane, _ key: String, from row: Int) throws -> Int {
        try pane.press(key)
        let screen = try pane.waitUntil("the cursor to leave row \(row) after \(key)") { pane.currentRow($0).map { $0 != row } ?? false }
        return try #require(pane.currentRow(screen))
    }

    @Test func everyScrollingKey() throws {
        let pane = try BrowserPane()
        let store = try pane.copySample("Recipes")
        try pane.launch([store, "--entity", "Ingredient"])
        try pane.waitFor("Recipes.sqlite › Ingredient │ row 1 of 1,286")
        var row = 1
        row = try move(pane, "j", from: row)
        #expect(row == 2)
        row = try move(pane, "Down", from: row)
        #expect(row == 3)
        row = try move(pane, "k", from: row)
        #expect(row == 2)
        row = try move(pane, "Up", from: row)
        #expect(row == 1)
        let page = try move(pane, "C-f", from: row) - 1
        #expect(page > 10, "a page is a screenful")
        row = try move(pane, "PageDown", from: page + 1)
        #expect(row == 2 * page + 1)
        row = try move(pane, "C-b", from: row)
        #expect(row == page + 1)
        row = try move(pane, "PageUp", from: row)
        #expect(row == 1)
        row = try move(pane, "C-d", from: row)
        #expect(row > 1 && row < page + 1, "half a page")
        row = try move(pane, "C-u", from: row)
        #expect(row == 1)
        row = try move(pane, "G", from: row)
        #expect(row == 1286)
        row = try move(pane, "g", from: row)
        #expect(row == 1)
        row = try move(pane, "End", from: row)
        #expect(row == 1286)
        let screen = try pane.waitFor("row 1,286 of 1,286")
        #expect(pane.tableLines(screen).count > page / 2, "the last page is drawn: \(screen)")
        row = try move(pane, "Home", from: row)
        #expect(row == 1)
        try pane.press("Space")
        try pane.waitFor("row \(page + 1) of 1,286")
        try pane.press("q")
        #expect(try pane.exitStatus() == 0)
    }

    /// The first `limit` names of Cuisine in the order `sort`, from the store by another process.
    private func names(_ store: String, sort: String, limit: Int = 4) throws -> [String] {
        let result = try CommandRunner.run(["query", store, "Cuisine", "--sort", sort, "--keys", "name", "--format", "csv",
                                            "--limit", "\(limit)"])
        return BrowserPane.csvRows(result.standardOutput)
    }

    private func shownNames(_ pane: BrowserPane, _ screen: [String], limit: Int = 4) -> [String] {
        pane.tableLines(screen).dropFirst().prefix(limit).map { String($0.prefix { $0 != " " }) }
    }

    @Test func sortAscendingDescendingAndASecondLevel() throws {
        let pane = try BrowserPane()
        let store = try pane.copySample("Recipes")
        try pane.launch([store, "--entity", "Cuisine"])
        try pane.waitFor("Recipes.sqlite › Cuisine │ row 1 of 20")
        try pane.press("[")
        var screen = try pane.waitFor("│ sort name │")
        #expect(shownNames(pane, screen) == (try names(store, sort: "name")))
        try pane.press("]")
        screen = try pane.waitFor("│ sort -name │")
        #expect(shownNames(pane, screen) == (try names(store, sort: "-name")))
        // region ascending, then name descending as a second level.
        try pane.press("l", "[")
        try pane.waitFor("│ sort region │")
        try pane.press("h", "}")
        screen = try pane.waitFor("│ sort region,-name │")
        #expect(shownNames(pane, screen, limit: 8) == (try names(store, sort: "region,-name", limit: 8)))
        // :sort takes key paths.
        try pane.press(":")
        try pane.type("sort -region,name")
        try pane.press("Enter")
        screen = try pane.waitFor("│ sort -region,name │")
        #expect(shownNames(pane, screen, limit: 8) == (try names(store, sort: "-region,name", limit: 8)))
        try pane.press("q")
        #expect(try pane.exitStatus() == 0)
    }
}
