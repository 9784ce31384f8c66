import CoreDataTestSupport
import Foundation
import Testing

/// Issue 6, item 7: Enter follows a to-one to its object and a to-many to a table of its destinations; the back
/// and forward stack, with the breadcrumb in the status line.
@Suite(.enabled(if: BrowserPane.isAvailable, BrowserPane.skipMessage))
struct RelationshipEndToEndTests {
    @Test func followToOneAndToManyThenBackAndForward() throws {
        let pane = try BrowserPane()
        let store = try pane.copySample("Recipes")
        try pane.launch([store, "--entity", "Recipe"])
        try pane.waitFor("Recipes.sqlite › Recipe │ row 1 of 200")
        try pane.press("Enter")
        var screen = try pane.waitFor("field 1 of 17")
        let recipe = try #require(pane.statusLine(screen).firstMatch(of: /› (Recipe p[0-9]+) │/)?.1)
        let chefLine = try #require(pane.tableLines(screen).first { $0.hasPrefix("chef") })
        let chef = try #require(chefLine.firstMatch(of: /Chef p[0-9]+/)?.0)

        // A to-one: the destination object, with the breadcrumb.
        try pane.press("Enter")
        screen = try pane.waitFor("chef of \(recipe) › \(chef) │ field 1 of 5")
        #expect(pane.statusLine(screen).hasPrefix(" Recipes.sqlite › Recipe › \(recipe) › chef of \(recipe)"))
        // Back, forward, back.
        try pane.press("<")
        try pane.waitFor("Recipes.sqlite › Recipe › \(recipe) │ field 1 of 17")
        try pane.press(">")
        try pane.waitFor("chef of \(recipe) › \(chef) │ field 1 of 5")
        // Esc closes the chef's detail: under it, the table of the one chef.
        try pane.press("Escape")
        screen = try pane.waitFor("chef of \(recipe) │ row 1 of 1")
        try pane.press("BSpace")
        screen = try pane.waitFor("Recipes.sqlite › Recipe › \(recipe) │ field 1 of 17")

        // A to-many: a table of the destinations, as many as the detail pane counts.
        let ingredientsLine = try #require(pane.tableLines(screen).first { $0.hasPrefix("ingredients") })
        let count = try #require(ingredientsLine.firstMatch(of: /Ingredient \(([0-9]+)\)/)?.1)
        try pane.press("j", "j", "j", "j", "j")
        try pane.waitFor("field 6 of 17")
        try pane.press("Enter")
        screen = try pane.waitFor("ingredients of \(recipe) │ row 1 of \(count)")
        #expect(pane.tableLines(screen).count >= Int(count)! + 1, "\(screen)")
        #expect(!screen.contains { $0.contains("error") }, "\(screen)")
        try pane.press("<")
        try pane.waitFor("Recipes.sqlite › Recipe › \(recipe) │ field 6 of 17")
        try pane.press(">")
        try pane.waitFor("ingredients of \(recipe) │ row 1 of \(count)")
        try pane.press("q")
        #expect(try pane.exitStatus() == 0)
    }
}
