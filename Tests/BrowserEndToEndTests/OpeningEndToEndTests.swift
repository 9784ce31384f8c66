import CoreDataTestSupport
import Foundation
import SQLiteDatabase
import Testing

/// Issue 6, item 1 (opening) and item 2 (layout), on the real binary in tmux.
@Suite(.enabled(if: BrowserPane.isAvailable, BrowserPane.skipMessage))
struct OpeningEndToEndTests {
    @Test func storeAsTheDefaultCommandOpensReadOnlyAndQuitsCleanly() throws {
        let pane = try BrowserPane()
        let store = try pane.copySample("Recipes")
        try pane.launch([store])
        try pane.waitFor("Recipes.sqlite › Chef │ row 1 of 25 │ read-only")
        // Counts arrive from the background as they become known.
        try pane.waitUntil("the entity counts") { pane.entityCount("Ingredient", in: $0) == "1,286" && pane.entityCount("Tag", in: $0) == "16" }
        #expect(try pane.tmux.paneVariable("alternate_on") == "1")
        try pane.press("q")
        #expect(try pane.exitStatus() == 0)
        try pane.expectSaneTerminal()
    }

    @Test func browseWithEntityAndPredicateOpensTheFilteredTable() throws {
        let pane = try BrowserPane()
        let store = try pane.copySample("Recipes")
        let count = try CommandRunner.run(["count", store, "Recipe", "minutes > 100"])
        let expected = count.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        try pane.launch(["browse", store, "--entity", "Recipe", "--predicate", "minutes > 100"])
        let screen = try pane.waitFor("Recipes.sqlite › Recipe │ / minutes > 100 │ row 1 of \(expected) │ read-only")
        #expect(screen.contains { $0.contains("Recipe where minutes > 100") }, "the table's title names the filter")
        try pane.press("q")
        #expect(try pane.exitStatus() == 0)
    }

    @Test func editFlagOpensForEditingAndEditCommandSwitches() throws {
        let pane = try BrowserPane()
        let store = try pane.copySample("Recipes")
        try pane.launch([store, "--entity", "Tag", "--edit"])
        try pane.waitFor("Recipes.sqlite › Tag │ row 1 of 16 │ EDIT")
        try pane.press("q")
        #expect(try pane.exitStatus() == 0)

        // Read-only refuses an edit; :edit allows it, :readonly goes back.
        try pane.launch([store, "--entity", "Tag"])
        try pane.waitFor("│ read-only")
        try pane.press("Enter", "e")
        try pane.waitFor("the store is open read-only: :edit (or --edit) allows editing")
        try pane.press("Escape", ":")
        try pane.type("edit")
        try pane.press("Enter")
        try pane.waitFor("│ EDIT")
        try pane.press(":")
        try pane.type("readonly")
        try pane.press("Enter")
        try pane.waitFor("│ read-only")
        try pane.press("q")
        #expect(try pane.exitStatus() == 0)
    }

    @Test func noArgumentOpensTheRecipesSample() throws {
        let pane = try BrowserPane()
        let sample = Fixtures.projectRoot.appendingPathComponent("SampleStores/Recipes/Recipes.sqlite")
        let before = try Data(contentsOf: sample)
        try pane.launch([])
        try pane.waitFor("Recipes.sqlite › Chef │ row 1 of 25 │ read-only")
        try pane.press("q")
        #expect(try pane.exitStatus() == 0)
        #expect(try Data(contentsOf: sample) == before, "browsing read-only never writes the committed sample")
    }

    @Test func aDirectoryHoldingOneStoreOpensThatStore() throws {
        let pane = try BrowserPane()
        let store = try pane.copySample("Recipes")
        try pane.launch([(store as NSString).deletingLastPathComponent])
        try pane.waitFor("Recipes.sqlite › Chef │ row 1 of 25 │ read-only")
        try pane.press("q")
        #expect(try pane.exitStatus() == 0)
    }

    @Test func aBadPredicateFailsBeforeTheScreenChanges() throws {
        let pane = try BrowserPane()
        let store = try pane.copySample("Recipes")
        try pane.launch([store, "--entity", "Recipe", "--predicate", "minutes >"])
        try pane.waitFor("^ expected an expression")
        #expect(try pane.exitStatus() == 2, "a malformed predicate is a usage error")
        #expect(try pane.tmux.paneVariable("alternate_on") == "0")
    }

    @Test func layoutShowsInheritanceColumnsDetailStatusAndHelp() throws {
        let pane = try BrowserPane(columns: 100, rows: 30)
        let store = try pane.copySample("Library")
        try pane.launch([store])
        try pane.waitFor("Library.sqlite › Author │ row 1 of 30 │ read-only")
        var screen = try pane.waitUntil("the entity counts") { pane.entityCount("Shelf", in: $0) == "8" }
        // The entity pane: counts and the inheritance tree.
        for (name, count) in [("Item (abstract)", "100"), ("└ Book", "66"), ("└ Magazine", "34"), ("Shelf", "8")] {
            #expect(pane.entityCount(name, in: screen) == count, "\(name) \(count) in \(screen)")
        }
        // The table: a header of attributes, and the status line's last fetch from the library's counters.
        #expect(pane.tableLines(screen).first?.hasPrefix("born") == true && pane.tableLines(screen).first?.contains("name") == true)
        #expect(pane.statusLine(screen).contains(try #require(try? Regex("[0-9]+ rows in [0-9.]+ ms"))))

        // The help overlay is generated from the key map.
        try pane.press("?")
        screen = try pane.waitFor("Keys  (Esc closes)")
        #expect(screen.contains { $0.contains("j ↓") && $0.contains("next row") })
        #expect(screen.contains { $0.contains("Ctrl-F") && $0.contains("PgDn") && $0.contains("page down") }, "\(screen)")
        try pane.press("Escape")
        try pane.waitUntil("the help closed") { !$0.contains { $0.contains("Keys  (Esc closes)") } }

        // Book's table: to-one relationships are columns, scrolled horizontally with l.
        try pane.press("Tab", "j", "j", "Enter")
        screen = try pane.waitFor("Library.sqlite › Author › Book │ row 1 of 66")
        #expect(pane.tableLines(screen).first?.hasPrefix("normalizedTitle") == true)
        // Columns beyond the right edge come into view as the cursor moves right: the to-one shelf is one of them.
        try pane.press("l", "l", "l", "l", "l")
        screen = try pane.waitUntil("the shelf column") { pane.tableLines($0).first?.contains("shelf") == true }
        #expect(pane.tableLines(screen).first?.hasPrefix("normalizedTitle") == false, "scrolled horizontally: \(screen)")
        try pane.press("q")
        #expect(try pane.exitStatus() == 0)
    }

    @Test func detailPaneShowsBinaryAsHexAndSize() throws {
        let pane = try BrowserPane(columns: 120)
        let store = try pane.copySample("Recipes")
        try pane.launch([store, "--entity", "Photo"])
        try pane.waitFor("Recipes.sqlite › Photo │ row 1 of 106")
        try pane.press("Enter")
        let screen = try pane.waitFor("Recipes.sqlite › Photo › Photo p")
        #expect(screen.contains { $0.contains("imageData") && $0.contains(try! Regex("[0-9]+ bytes: ([0-9a-f]{2} )+")) },
                "binary data as size and hex: \(screen)")
        #expect(pane.statusLine(screen).contains("field 1 of 4"))
        try pane.press("Escape", "q")
        #expect(try pane.exitStatus() == 0)
    }

    /// A transformable attribute holding an NSKeyedArchiver archive (what `NSSecureUnarchiveFromData` stores) is
    /// decoded in the detail pane; the table shows its size.
    @Test func detailPaneDecodesATransformable() throws {
        let pane = try BrowserPane(columns: 120)
        let model = pane.directory.appendingPathComponent("Notes.xcdatamodeld/Notes.xcdatamodel")
        try FileManager.default.createDirectory(at: model, withIntermediateDirectories: true)
        try Data("""
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" minimumToolsVersion="Automatic" sourceLanguage="Swift">
                <entity name="Note" representedClassName="Note" syncable="YES">
                    <attribute name="title" optional="YES" attributeType="String"/>
                    <attribute name="tags" optional="YES" attributeType="Transformable" valueTransformerName="NSSecureUnarchiveFromData"/>
                </entity>
            </model>
            """.utf8).write(to: model.appendingPathComponent("contents"))
        let store = pane.directory.appendingPathComponent("Notes.sqlite").path
        let create = try CommandRunner.run(["create", store, "--model", model.deletingLastPathComponent().path])
        #expect(create.status == 0, "\(create.standardError)")
        #expect(try CommandRunner.run(["insert", store, "Note", "title=first"]).status == 0)
        let archive = try NSKeyedArchiver.archivedData(withRootObject: ["garden", "spring", "todo"] as NSArray, requiringSecureCoding: false)
        try Connection(path: store).execute(sql: "UPDATE ZNOTE SET ZTAGS = ?", arguments: [.blob([UInt8](archive))])

        try pane.launch([store])
        var screen = try pane.waitFor("Notes.sqlite › Note │ row 1 of 1")
        #expect(pane.tableLines(screen).contains { $0.contains("<\(archive.count) bytes>") }, "\(screen)")
        try pane.press("Enter")
        screen = try pane.waitFor("› Note p1 │ field 1 of 2")
        #expect(screen.contains { $0.contains(try! Regex("tags +Transformable +\\[garden, spring, todo\\]")) }, "\(screen)")
        try pane.press("Escape", "q")
        #expect(try pane.exitStatus() == 0)
    }
}
