import CoreDataObjectGraph
import Foundation
import SQLiteDatabase
import StoreBrowser
import Testing
import TerminalUI

/// Issue 21, item 4: validation when it happens. `a` validates the detail pane's object against the model and
/// shows every failure on its field with the rule; messages name objects by label, never by address.
@Suite("Validation on accept")
struct BrowserValidationTests {
    @Test("minutes = 5000 is refused by a, shown on the field with the model's maximum; fixing it accepts")
    func outOfRangeRefusedOnAccept() throws {
        let browser = try BrowserHarness(entity: "Recipe", edit: true)
        try browser.press(.enter)
        try browser.selectField("minutes")
        try browser.editSelectedField(to: "5000")
        try browser.selectField("name")
        try browser.press(.character("a"))
        #expect(browser.app.detail != nil)
        #expect(browser.app.messageIsError)
        #expect(browser.messageLine.contains("not accepted: 1 validation failure: Recipe p1.minutes is greater than 1440 (model: required, 0…1440)"))
        #expect(!browser.text.contains("x-coredata"))
        // The cursor goes to the failing field, and the failure is drawn under its value.
        #expect(browser.app.detail?.selectedField?.key == "minutes")
        let minutesLine = try #require(browser.screen.firstIndex { $0.contains("minutes") && $0.contains("5000") })
        #expect(browser.screen[minutesLine + 1].contains("⚠ is greater than 1440 (model: required, 0…1440)"))
        #expect(browser.session.pendingChangeCount == 0)

        try browser.editSelectedField(to: "45")
        #expect(!browser.text.contains("⚠"))
        try browser.press(.character("a"))
        #expect(browser.app.detail == nil)
        #expect(browser.session.pendingChangeCount == 1)
    }

    @Test("Several failures are all reported, each on its own field")
    func everyFailureShown() throws {
        let browser = try BrowserHarness(entity: "Chef", edit: true)
        try browser.press(.enter)
        try browser.selectField("name")
        try browser.editSelectedField(to: String(repeating: "n", count: 81))
        try browser.press(.character("a"))
        #expect(browser.messageLine.contains("Chef p1.name is longer than 80 characters (model: required, 1…80 characters)"))
        #expect(browser.text.contains("⚠ is longer than 80 characters"))
    }

    @Test("A write that fails names the object by label, not by its x-coredata address")
    func writeFailureNamesObjects() throws {
        let browser = try BrowserHarness(entity: "Cuisine", edit: true)
        try browser.press(.character("d"), .character("y"))
        try browser.type(":w\n")
        try browser.press(.character("y"))
        #expect(browser.app.messageIsError)
        #expect(browser.messageLine.contains("Cuisine p1"))
        #expect(!browser.text.contains("x-coredata"))
    }
}
