import Foundation
import SQLiteDatabase
import StoreBrowser
import Testing
import TerminalText
import TerminalUI

/// Issue 6, item 2: the entity pane, the table's columns, the status line and the help overlay.
@Suite("Layout")
struct BrowserLayoutTests {
    @Test("The entity pane lists every entity with its count, subentities indented under the abstract parent")
    func entityPaneWithInheritance() throws {
        let browser = try BrowserHarness(sample: "Library", size: Size(columns: 100, rows: 20))
        let pane = browser.screen.map { String($0.prefix(25)) }
        #expect(pane[1] == "│Author               30│")
        #expect(pane[2] == "│Item (abstract)     100│")
        #expect(pane[3] == "│  └ Book             66│")
        #expect(pane[4] == "│  └ Magazine         34│")
        #expect(pane[5] == "│Shelf                 8│")
        // The counts are the store's own, subentities included in the parent's.
        let path = browser.storePath
        #expect(try StoreFile.integer(path, "SELECT COUNT(*) FROM ZITEM") == 100)
        #expect(try StoreFile.integer(path, "SELECT COUNT(*) FROM ZITEM WHERE Z_ENT = 3") == 66)
    }

    @Test("The first screens of the Library store match their snapshots")
    func librarySnapshots() throws {
        let browser = try BrowserHarness(sample: "Library", size: Size(columns: 100, rows: 20))
        try ScreenSnapshot.assertMatches(browser.screen, named: "library-authors")
        try browser.press(.tab, .character("j"), .enter)
        try browser.settle()
        try ScreenSnapshot.assertMatches(browser.screen, named: "library-items")
        try browser.press(.enter)
        try ScreenSnapshot.assertMatches(browser.screen, named: "library-book-detail")
    }

    @Test("Columns are as wide as the widest value on screen, and h/l scroll them horizontally")
    func columnsAndHorizontalScroll() throws {
        let browser = try BrowserHarness(entity: "Recipe", size: Size(columns: 100, rows: 20))
        let table = browser.app.table
        let keys = table.columns.map(\.key)
        let nameIndex = try #require(keys.firstIndex(of: "name"))
        // 16 rows are on screen, in primary-key order.
        let names = try StoreFile.rows(browser.storePath, "SELECT ZNAME FROM ZRECIPE ORDER BY Z_PK LIMIT 16").compactMap { $0[0].stringValue }
        let widest = names.map { DisplayWidth.of($0) }.max() ?? 0
        #expect(table.columnWidths[nameIndex] == max(widest, 4))
        let header = browser.screen[1]
        #expect(header.contains("created") && header.contains("identifier"))
        #expect(!header.contains("normalizedName"))

        for _ in keys { try browser.press(.character("l")) }
        #expect(browser.app.table.currentColumn == keys.count - 1)
        #expect(browser.app.table.firstVisibleColumn > 0)
        let scrolled = browser.screen[1]
        #expect(scrolled.contains(keys.last!))
        #expect(!scrolled.contains("created"))

        for _ in keys { try browser.press(.character("h")) }
        #expect(browser.app.table.currentColumn == 0)
        #expect(browser.app.table.firstVisibleColumn == 0)
        #expect(browser.screen[1].contains("created"))
    }

    @Test("The status line shows store, entity, filter, sort, row of count, pending changes, mode and the last fetch")
    func statusLine() throws {
        let browser = try BrowserHarness(entity: "Recipe", predicate: "servings >= 4", edit: true)
        try browser.type(":sort -minutes,name\n")
        try browser.settle()
        try browser.press(.character("j"), .character("j"))
        let expected = try StoreFile.integer(browser.storePath, "SELECT COUNT(*) FROM ZRECIPE WHERE ZSERVINGS >= 4")
        var status = browser.statusLine
        #expect(status.hasPrefix(" Recipes.sqlite › Recipe │ / servings >= 4 │ sort -minutes,name │ row 3 of \(expected) │ EDIT │"))
        #expect(status.range(of: #"│ \d+ rows? in \d+\.\d ms$"#, options: .regularExpression) != nil)

        // One accepted edit is one pending change.
        try browser.press(.enter)
        try browser.selectField("name")
        try browser.editSelectedField(to: "Edited")
        try browser.press(.character("a"))
        status = browser.statusLine
        #expect(status.contains("│ 1 pending │ EDIT"))
    }

    @Test("While the count of a filtered table is still running the status line says ≥ rows loaded so far")
    func countingShowsAtLeast() throws {
        let browser = try BrowserHarness(sample: "Library")
        // Every Item has a title: exactly one full batch, and until the background count arrives the end is unknown.
        try browser.press(.tab, .character("j"), .enter)
        try browser.type("/title != nil\n")
        #expect(browser.statusLine.contains("row 1 of ≥100"))
        try browser.settle()
        #expect(browser.statusLine.contains("row 1 of 100"))
    }

    @Test("An unfiltered table takes its entity's count from the entity list at once: never ≥100 beside a list saying 200")
    func unfilteredTableTakesTheEntityCount() throws {
        let browser = try BrowserHarness(sample: "Library")
        let items = try StoreFile.integer(browser.storePath, "SELECT COUNT(*) FROM ZITEM")
        try browser.press(.tab, .character("j"), .enter)
        #expect(browser.text.contains("Item"))
        // (The table's own count may still be running: " (counting)" can follow the number.)
        #expect(browser.statusLine.contains("row 1 of \(items)") && !browser.statusLine.contains("≥"), "\(browser.statusLine)")
        // A filter makes the count unknown again until the table's own count arrives.
        try browser.type("/title != nil\n")
        #expect(browser.statusLine.contains("row 1 of ≥"))
        // Clearing it takes the entity count again, without waiting.
        try browser.type("/\u{15}\n")
        // (The table's own count may still be running: " (counting)" can follow the number.)
        #expect(browser.statusLine.contains("row 1 of \(items)") && !browser.statusLine.contains("≥"), "\(browser.statusLine)")
    }

    @Test("The read-only mode is shown by default")
    func readOnlyMode() throws {
        let browser = try BrowserHarness()
        #expect(browser.statusLine.contains("│ read-only"))
        #expect(!browser.statusLine.contains("EDIT"))
    }

    @Test("The help overlay lists every binding of the live key map, including one added to it")
    func helpFromKeyMap() throws {
        let browser = try BrowserHarness(size: Size(columns: 120, rows: 200))
        var bindings = KeyMap.standard.bindings
        bindings.append(KeyBinding([.character("Z")], .quit, "a binding added for this test"))
        let keyMap = KeyMap(bindings: bindings)
        var app = try StoreBrowserApp(session: browser.session, editor: BasicLineEditor(), theme: .monochrome, keyMap: keyMap)
        let terminal = VirtualTerminal(size: Size(columns: 120, rows: 200), showsColor: false)
        terminal.enqueue(.character("?"))
        try TerminalUI.run(app: &app, terminal: terminal)
        let text = terminal.snapshot().joined(separator: "\n")
        #expect(text.contains("Keys  (Esc closes)"))
        for binding in keyMap.bindings {
            #expect(text.contains(binding.summary), "help lacks \(binding.summary)")
        }
        #expect(text.range(of: #"│  Z +a binding added for this test"#, options: .regularExpression) != nil)
        #expect(text.range(of: #"│  Ctrl-F PgDn Space +page down"#, options: .regularExpression) != nil)
        // The added key does what the help says.
        #expect(app.handle(.escape) == .redraw)
        #expect(app.handle(.character("Z")) == .quit)
    }

    @Test("The help overlay scrolls and closes")
    func helpScrolls() throws {
        let browser = try BrowserHarness(size: Size(columns: 100, rows: 20))
        try browser.press(.character("?"))
        #expect(browser.text.contains("next row"))
        try browser.press(.pageDown, .pageDown, .pageDown, .pageDown, .pageDown)
        #expect(!browser.text.contains("next row"))
        // Five pages reach the end: the last command line shows.
        #expect(browser.text.contains(":undo  :redo  :refresh  :help"))
        try browser.press(.escape)
        #expect(!browser.text.contains("Esc closes"))
        #expect(browser.statusLine.contains("Recipes.sqlite › Chef"))
    }
}
