import CoreDataTestSupport
import Foundation
import Testing

/// Issue 18: the browser on an XML store (the type told from the file), an edit written back atomically, and the
/// result read by another process.
@Suite(.enabled(if: BrowserPane.isAvailable, BrowserPane.skipMessage))
struct AtomicStoreEndToEndTests {
    @Test func browseAndEditAnXMLStore() throws {
        let pane = try BrowserPane()
        let sqlite = try pane.copySample("Recipes")
        let directory = URL(fileURLWithPath: sqlite).deletingLastPathComponent()
        let xml = directory.appendingPathComponent("Recipes.xml").path
        let model = Fixtures.projectRoot.appendingPathComponent("SampleStores/Recipes/Recipes.xcdatamodeld").path
        let converted = try CommandRunner.run(["convert", sqlite, xml, "--to", "xml"])
        try #require(converted.status == 0, "\(converted.standardError)")
        func region() throws -> String {
            let result = try CommandRunner.run(["query", xml, "Cuisine", "name == \"Italian\"", "--keys", "region", "--format", "csv",
                                                "--model", model])
            #expect(result.status == 0, "\(result.standardError)")
            return BrowserPane.csvRows(result.standardOutput).first ?? ""
        }
        let original = try region()

        try pane.launch(["browse", xml, "--entity", "Cuisine", "--edit", "--model", model])
        var screen = try pane.waitFor("Recipes.xml › Cuisine │ row 1 of 20 │ EDIT")
        #expect(pane.tableLines(screen).dropFirst().first?.hasPrefix("Italian") == true, "\(screen)")
        // The entity list counts every entity through the store (no SQL): Recipe has 200 objects.
        screen = try pane.waitUntil("the entity counts") { pane.entityCount("Recipe", in: $0) == "200" }

        // The detail pane lists the model file's properties in its order: name, region, recipes.
        try pane.press("Enter")
        try pane.waitFor("field 1 of 3")
        try pane.press("j")
        try pane.waitFor("field 2 of 3")
        try pane.press("e")
        try pane.waitUntil("the edit prompt") { $0.last { !$0.isEmpty } == "region = \(original)" }
        try pane.press("C-u")
        try pane.type("Atlantis")
        try pane.press("Enter")
        try pane.waitFor("\(original) → Atlantis")
        try pane.press("a")
        try pane.waitFor("1 pending")
        try pane.press(":")
        try pane.type("w")
        try pane.press("Enter")
        try pane.waitFor("Write 1 change(s) to Recipes.xml?")
        try pane.press("y")
        screen = try pane.waitFor("written to Recipes.xml")
        #expect(try region() == "Atlantis")

        // Describe and frequency run through fetches on a store that is not SQLite.
        try pane.press("D")
        screen = try pane.waitFor("Describe Cuisine")
        #expect(screen.contains { $0.contains(try! Regex("name +String +20 +0 +20 ")) }, "\(screen)")
        try pane.press("Escape")
        try pane.press("l", "F")
        screen = try pane.waitFor("Frequency of ")
        #expect(screen.contains { $0.contains("20 objects") }, "\(screen)")
        try pane.press("Escape")
        try pane.press("q")
        #expect(try pane.exitStatus() == 0)
        try pane.expectSaneTerminal()

        // The save replaced the file whole: no temporary file beside it, and the store reads back.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.contains(".tmp") }.isEmpty)
        #expect(try String(contentsOfFile: xml, encoding: .utf8).hasPrefix("<?xml"))

        // Without --model the browser reads the file with an inferred model, read-only.
        try pane.launch([xml])
        screen = try pane.waitFor("Recipes.xml › ")
        #expect(pane.statusLine(screen).contains("read-only"), "\(screen)")
        try pane.press("q")
        #expect(try pane.exitStatus() == 0)
    }
}
