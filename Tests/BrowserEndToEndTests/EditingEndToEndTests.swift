import CoreDataTestSupport
import Foundation
import SQLiteDatabase
import Testing

/// Issue 6, item 6: the detail pane on a child context, edits, undo and redo, writing with a confirmation, and the
/// question on quitting; each result checked in the store afterwards with `coredata query`.
@Suite(.enabled(if: BrowserPane.isAvailable, BrowserPane.skipMessage))
struct EditingEndToEndTests {
    /// The region of the cuisine `name`, read from the store by another process.
    private func region(of name: String, in store: String) throws -> String {
        let result = try CommandRunner.run(["query", store, "Cuisine", "name == \"\(name)\"", "--keys", "region", "--format", "csv"])
        #expect(result.status == 0, "\(result.standardError)")
        return BrowserPane.csvRows(result.standardOutput).first ?? ""
    }

    /// Opens the first cuisine's detail pane, and edits its region to `value` (the prompt shows the old value).
    private func editRegion(_ pane: BrowserPane, to value: String, from old: String) throws {
        try pane.press("Enter")
        try pane.waitFor("field 1 of 3")
        try pane.press("j", "j")
        try pane.waitFor("field 3 of 3")
        try pane.press("e")
        try pane.waitUntil("the edit prompt") { $0.last { !$0.isEmpty } == "region = \(old)" }
        try pane.press("C-u")
        try pane.type(value)
        try pane.press("Enter")
        try pane.waitFor("\(old) → \(value)")
    }

    private func firstRow(_ pane: BrowserPane, _ lines: [String]) -> String {
        pane.tableLines(lines).dropFirst().first ?? ""
    }

    @Test func discardCommitUndoRedoWriteAndReopen() throws {
        let pane = try BrowserPane()
        let store = try pane.copySample("Recipes")
        let original = try region(of: "Italian", in: store)
        try pane.launch([store, "--entity", "Cuisine", "--edit"])
        var screen = try pane.waitFor("Recipes.sqlite › Cuisine │ row 1 of 20 │ EDIT")
        #expect(firstRow(pane, screen).hasPrefix("Italian"), "\(screen)")

        // Edit, then Esc: the child context is discarded and nothing is pending.
        try editRegion(pane, to: "Atlantis", from: original)
        screen = try pane.waitFor("(edited)")
        try pane.press("Escape")
        screen = try pane.waitFor("discarded the edits of Cuisine p")
        #expect(!pane.statusLine(screen).contains("pending"))
        #expect(firstRow(pane, screen).contains(original))

        // Edit, then accept: one pending change in the browser's context, shown in the table.
        try editRegion(pane, to: "Atlantis", from: original)
        try pane.press("a")
        screen = try pane.waitFor("accepted; :w writes it to the store")
        #expect(pane.statusLine(screen).contains("│ 1 pending │ EDIT"))
        #expect(firstRow(pane, screen).contains("Atlantis"), "\(screen)")

        // Undo and redo (u, U and Ctrl-R), one group per edit.
        try pane.press("u")
        screen = try pane.waitFor("undid")
        #expect(!pane.statusLine(screen).contains("pending"))
        #expect(firstRow(pane, screen).contains(original))
        try pane.press("U")
        screen = try pane.waitFor("redid")
        #expect(firstRow(pane, screen).contains("Atlantis"))
        try pane.press("u")
        try pane.waitFor("undid")
        try pane.press("C-r")
        screen = try pane.waitFor("redid")
        #expect(pane.statusLine(screen).contains("1 pending"))

        // Ctrl-S shows what will change and asks; n keeps it pending, :w then y writes.
        try pane.press("C-s")
        try pane.waitFor("Write 1 change(s) to Recipes.sqlite?")
        // The choices are the overlay's last line: wait for it too, as a capture can land mid-frame.
        screen = try pane.waitFor("y write · n not now")
        #expect(screen.contains { $0.contains("region: \"\(original)\" → \"Atlantis\"") }, "\(screen)")
        try pane.press("n")
        try pane.waitFor("cancelled")
        #expect(try region(of: "Italian", in: store) == original, "nothing written before the confirmation")
        try pane.press(":")
        try pane.type("w")
        try pane.press("Enter")
        try pane.waitFor("Write 1 change(s) to Recipes.sqlite?")
        try pane.press("y")
        screen = try pane.waitFor("written to Recipes.sqlite")
        #expect(!pane.statusLine(screen).contains("pending"))
        #expect(try region(of: "Italian", in: store) == "Atlantis")

        // Quitting with unsaved changes asks: n stays, d discards and quits (y answers nothing: it was ambiguous).
        try editRegion(pane, to: "Lemuria", from: "Atlantis")
        try pane.press("a")
        try pane.waitFor("1 pending")
        try pane.press("q")
        screen = try pane.waitFor("Unsaved changes")
        #expect(screen.contains { $0.contains("1 change not written to the store.") })
        try pane.press("n")
        try pane.waitFor("cancelled")
        try pane.press("q")
        try pane.waitFor("Unsaved changes")
        try pane.press("y")
        try pane.waitFor("d discard changes and quit")
        try pane.press("d")
        #expect(try pane.exitStatus() == 0)
        #expect(try region(of: "Italian", in: store) == "Atlantis")

        // Reopen: the written value is there.
        try pane.launch([store, "--entity", "Cuisine"])
        screen = try pane.waitFor("Recipes.sqlite › Cuisine │ row 1 of 20 │ read-only")
        #expect(firstRow(pane, screen).contains("Atlantis"), "\(screen)")
        try pane.press("q")
        #expect(try pane.exitStatus() == 0)
    }

    @Test func quitCanWriteFirstAndInsertAndDeleteShowTheirEffects() throws {
        let pane = try BrowserPane()
        let store = try pane.copySample("Recipes")
        try pane.launch([store, "--entity", "Tag", "--edit"])
        try pane.waitFor("Recipes.sqlite › Tag │ row 1 of 16 │ EDIT")

        // Insert a tag, name it, accept it.
        try pane.press("i")
        try pane.waitFor("new Tag: e edits a field")
        try pane.waitFor("field 1 of")
        try pane.press("e")
        try pane.waitUntil("the name prompt") { $0.last { !$0.isEmpty }?.hasPrefix("label =") == true }
        try pane.type("zz-end-to-end")
        try pane.press("Enter")
        try pane.waitFor("zz-end-to-end")
        try pane.press("a")
        try pane.waitFor("1 pending")

        // The new tag is listed first, marked + (issue 21); the first stored tag follows it.
        var screen = try pane.waitFor("row 1 of 17")
        #expect(screen.contains { $0.contains("│+ ") && $0.contains("zz-end-to-end") }, "\(screen)")
        try pane.press("j")
        // Delete shows the delete rules first; n keeps the object.
        try pane.press("d")
        // The tag by its label (issue 21), never by its ID.
        screen = try pane.waitFor("Delete Tag ")
        #expect(!screen.contains { $0.contains("Delete Tag p") }, "\(screen)")
        #expect(screen.contains { $0.contains("y delete · n keep") })
        #expect(screen.contains { $0.contains("recipes") }, "the relationships and their rules: \(screen)")
        try pane.press("n")
        try pane.waitFor("cancelled")

        // q, then w: write, then quit.
        try pane.press("q")
        screen = try pane.waitFor("Unsaved changes")
        try pane.press("w")
        #expect(try pane.exitStatus() == 0)
        let count = try CommandRunner.run(["count", store, "Tag", "label == \"zz-end-to-end\""])
        #expect(count.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) == "1", "\(count)")
    }

    @Test func editARelationshipByPickingAnObject() throws {
        let pane = try BrowserPane()
        let store = try pane.copySample("Recipes")
        try pane.launch([store, "--entity", "Recipe", "--edit"])
        try pane.waitFor("Recipes.sqlite › Recipe │ row 1 of 200 │ EDIT")
        try pane.press("Enter")
        var screen = try pane.waitFor("field 1 of 17")
        let recipe = try #require(pane.statusLine(screen).firstMatch(of: /› Recipe (p[0-9]+) │/)?.1)
        let old = try #require(pane.tableLines(screen).first { $0.hasPrefix("chef") }?.firstMatch(of: /Chef p[0-9]+/)?.0)
        // e on the to-one chef opens Chef's table as a picker; Enter on another row picks it.
        try pane.press("e")
        screen = try pane.waitFor("Enter picks Chef for chef; Esc cancels")
        #expect(screen.contains { $0.contains("Pick for chef: Chef") })
        try pane.press("G")
        try pane.waitFor("row 25 of 25")
        try pane.press("Enter")
        // Chefs are named by their names (issue 21): the detail line reads "Old Name (Chef p2) → New Name (Chef p25)".
        screen = try pane.waitFor("chef: picked ")
        let chefLine = try #require(pane.tableLines(screen).first { $0.hasPrefix("chef") }, "\(screen)")
        let shown = chefLine.matches(of: /\((Chef p[0-9]+)\)/).map { String($0.1) }
        let picked = try #require(shown.last)
        #expect(shown.count == 2 && shown.first == String(old) && picked != old, "old beside new: \(chefLine)")
        #expect(chefLine.contains("(\(old)) → "), "\(chefLine)")
        try pane.press("a")
        // The recipe and, through the inverse, both chefs' recipes.
        try pane.waitFor("3 pending")
        try pane.press("C-s")
        try pane.waitFor("Write 3 change(s)")
        try pane.press("y")
        try pane.waitFor("written to Recipes.sqlite")
        try pane.press("q")
        #expect(try pane.exitStatus() == 0)
        // In the store: the recipe's ZCHEF column holds the picked chef's primary key.
        let chefKey = try Connection(path: store, mode: .readOnly)
            .scalar("SELECT ZCHEF FROM ZRECIPE WHERE Z_PK = ?", arguments: [.integer(Int64(recipe.dropFirst())!)])
        #expect(chefKey == .integer(Int64(picked.dropFirst("Chef p".count))!))
    }
}
