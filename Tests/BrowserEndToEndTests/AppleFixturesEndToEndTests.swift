import CoreDataTestSupport
import Foundation
import Testing

/// Stores written by Apple's Core Data (`../shared/fixtures`, copied before opening) in the browser: entities
/// with their counts, rows, a detail pane, a to-many followed and a filter.
@Suite(.enabled(if: BrowserPane.isAvailable, BrowserPane.skipMessage),
       .enabled(if: Fixtures.isAvailable, Comment(rawValue: Fixtures.absenceMessage)))
struct AppleFixturesEndToEndTests {
    @Test func appleRecipesStoreBrowsesFollowsAndFilters() throws {
        let pane = try BrowserPane()
        let store = try Fixtures.copy("stores/apple-recipes-ios11/Recipes.sqlite").path
        try pane.launch([store])
        var screen = try pane.waitFor("Recipes.sqlite › Image │ row 1 of 3 │ read-only")
        screen = try pane.waitUntil("the entity counts") {
            pane.entityCount("Ingredient", in: $0) == "19" && pane.entityCount("RecipeType", in: $0) == "4"
        }
        #expect(pane.entityCount("Recipe", in: screen) == "3")
        // The image's recipe by its name (the display key), not as Recipe p1 (issue 21).
        #expect(pane.tableLines(screen).dropFirst().first?.contains(try! Regex("<[0-9]+ bytes> +Recipe [0-9]+")) == true, "\(screen)")
        #expect(!screen.contains { $0.contains("Recipe p") }, "\(screen)")

        try pane.press(":")
        try pane.type("entity Recipe")
        try pane.press("Enter")
        screen = try pane.waitFor("› Recipe │ row 1 of 3")
        try pane.press("Enter")
        screen = try pane.waitFor("field 1 of")
        let ingredients = try #require(pane.tableLines(screen).first { $0.hasPrefix("ingredients") }, "\(screen)")
        let count = try #require(ingredients.firstMatch(of: /Ingredient \(([0-9]+)\)/)?.1)
        let field = try #require(pane.tableLines(screen).firstIndex { $0.hasPrefix("ingredients") })
        for _ in 0..<field { try pane.press("j") }
        try pane.waitFor("field \(field + 1) of")
        try pane.press("Enter")
        try pane.waitFor("│ row 1 of \(count)")
        try pane.press("<", "Escape", "/")
        try pane.type("name CONTAINS[c] \"a\"")
        try pane.press("Enter")
        try pane.waitFor("│ / name CONTAINS[c] \"a\" │")
        try pane.press("q")
        #expect(try pane.exitStatus() == 0)
    }

    @Test func everyAppleStoreOpens() throws {
        for relative in Fixtures.allStores() {
            let pane = try BrowserPane()
            let store = try Fixtures.copy(relative).path
            try pane.launch([store])
            let name = URL(fileURLWithPath: store).lastPathComponent
            try pane.waitUntil("\(relative) open") { pane.statusLine($0).hasPrefix(" \(name) › ") && pane.statusLine($0).contains("row ") }
            try pane.press("q")
            #expect(try pane.exitStatus() == 0, "\(relative)")
        }
    }
}
