import Foundation
import SQLiteDatabase
import StoreBrowser
import Testing
import TerminalUI

/// Issue 6, item 2: the detail pane shows every attribute and relationship, full values wrapped, binary data as
/// size and hex (external binary data included).
@Suite("Detail pane")
struct BrowserDetailPaneTests {
    @Test("Every property is listed with its type; a long value is wrapped in full")
    func fieldsAndWrapping() throws {
        let browser = try BrowserHarness(entity: "Recipe", size: Size(columns: 50, rows: 50))  // no entity pane
        try browser.press(.enter)
        let detail = try #require(browser.app.detail)
        let keys = Set(detail.fields.map(\.key))
        #expect(keys.isSuperset(of: ["name", "instructions", "minutes", "chef", "cuisine", "ingredients", "tags", "photo",
                                     "identifier", "source", "ingredientCount"]))
        let instructions = try #require(try StoreFile.text(browser.storePath, "SELECT ZINSTRUCTIONS FROM ZRECIPE WHERE Z_PK = 1"))
        // The value column of the pane, line after line, holds the whole text.
        let joined = browser.screen.joined().replacingOccurrences(of: " ", with: "").replacingOccurrences(of: "│", with: "")
        #expect(joined.contains(instructions.replacingOccurrences(of: " ", with: "")))
        #expect(detail.fields.first { $0.key == "ingredients" }?.typeLabel == "→→ Ingredient (10)")
        #expect(detail.fields.first { $0.key == "chef" }?.typeLabel == "→ Chef")
    }

    @Test("Binary data shows its size and first bytes in hex, whether stored inline or externally")
    func binaryData() throws {
        let browser = try BrowserHarness(entity: "Photo", size: Size(columns: 160, rows: 30))
        // Photo p1's image is external (131,343 bytes in the support directory), p2's is inline.
        try browser.press(.enter)
        try browser.selectField("imageData")
        #expect(browser.app.detail?.selectedField?.value.hasPrefix("131343 bytes: ") == true)
        try browser.press(.escape, .character("j"), .enter)
        try browser.selectField("imageData")
        let inline = try StoreFile.integer(browser.storePath, "SELECT length(ZIMAGEDATA) - 1 FROM ZPHOTO WHERE Z_PK = 2")
        #expect(browser.app.detail?.selectedField?.value.hasPrefix("\(inline) bytes: 50 36 0a 32 34") == true)
        #expect(browser.text.contains("\(inline) bytes: 50 36 0a"))
        // In the table, binary data is a size only.
        try browser.press(.escape)
        #expect(browser.text.contains("<\(inline) bytes>"))
    }
}
