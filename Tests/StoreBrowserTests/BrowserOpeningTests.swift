import Foundation
import StoreAccess
import StoreBrowser
import Testing
import TerminalUI

@Suite("Opening the browser")
struct BrowserOpeningTests {
    @Test("The first screen lists entities with counts and the first entity's objects")
    func firstScreen() throws {
        let browser = try BrowserHarness()
        #expect(browser.text.contains("Entities"))
        #expect(browser.screen[1].contains("Chef") && browser.screen[1].hasSuffix("25│┌─Chef") == false)
        #expect(browser.text.contains("Ingredient             1,286"))
        #expect(browser.text.contains("Recipe                   200"))
        #expect(browser.statusLine.contains("Recipes.sqlite › Chef"))
        #expect(browser.statusLine.contains("row 1 of 25"))
        #expect(browser.statusLine.contains("read-only"))
    }

    @Test("--entity and --predicate open straight on a filtered table")
    func entityAndPredicate() throws {
        let browser = try BrowserHarness(entity: "Recipe", predicate: "servings >= 8")
        #expect(browser.statusLine.contains("Recipe"))
        #expect(browser.statusLine.contains("/ servings >= 8"))
        let rows = browser.screen.filter { $0.contains("│") }
        #expect(!rows.isEmpty)
    }

    @Test("An unknown entity is refused naming the ones there are")
    func unknownEntity() throws {
        #expect(throws: StoreAccessError.self) { try BrowserHarness(entity: "Recipes") }
    }
}
