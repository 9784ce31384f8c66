import CoreDataTestSupport
import Foundation
import Testing

/// Issue 21: the conflict pane in a real terminal. The browser's edit waits unwritten while another process
/// (`coredata set`) changes the same cuisine; `:w` then opens the pane naming the cuisine by label with mine /
/// theirs / read, and M (keep mine) writes.
@Suite(.enabled(if: BrowserPane.isAvailable, BrowserPane.skipMessage))
struct ConflictEndToEndTests {
    private func region(of name: String, in store: String) throws -> String {
        let result = try CommandRunner.run(["query", store, "Cuisine", "name == \"\(name)\"", "--keys", "region", "--format", "csv"])
        #expect(result.status == 0, "\(result.standardError)")
        return BrowserPane.csvRows(result.standardOutput).first ?? ""
    }

    @Test func anotherProcessChangesTheRowBeforeTheWrite() throws {
        let pane = try BrowserPane(columns: 160, rows: 30)
        let store = try pane.copySample("Recipes")
        let original = try region(of: "Italian", in: store)
        try pane.launch([store, "--entity", "Cuisine", "--edit"])
        try pane.waitFor("Recipes.sqlite › Cuisine │ row 1 of 20 │ EDIT")
        try pane.press("Enter")
        try pane.waitFor("field 1 of 3")
        try pane.press("j", "j")
        try pane.waitFor("field 3 of 3")
        try pane.press("e")
        try pane.waitUntil("the edit prompt") { $0.last { !$0.isEmpty } == "region = \(original)" }
        try pane.press("C-u")
        try pane.type("Atlantis")
        try pane.press("Enter")
        try pane.press("a")
        try pane.waitFor("accepted; :w writes it to the store")

        let other = try CommandRunner.run(["set", store, "Cuisine", "name == \"Italian\"", "region=Elsewhere"])
        #expect(other.status == 0, "\(other.standardError)")

        try pane.type(":w")
        try pane.press("Enter")
        try pane.waitFor("Write 1 change(s)")
        try pane.press("y")
        let screen = try pane.waitFor("Write conflict: mine / theirs / read")
        let text = screen.joined(separator: "\n")
        #expect(text.contains("Cuisine Italian"), "\(text)")
        #expect(text.contains("mine: \"Atlantis\"   theirs: \"Elsewhere\"   read: \"\(original)\"   → keep mine"), "\(text)")
        #expect(!text.contains("x-coredata:"))
        try pane.press("M")
        try pane.press("w")
        try pane.waitFor("written to Recipes.sqlite after resolving the conflict")
        #expect(try region(of: "Italian", in: store) == "Atlantis")
        try pane.press("q")
        #expect(try pane.exitStatus() == 0)
    }
}
