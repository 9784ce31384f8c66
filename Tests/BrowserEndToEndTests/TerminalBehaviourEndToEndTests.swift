import CoreDataTestSupport
import Foundation
import SQLiteDatabase
import Testing

/// Issue 6, item 10: resizing (tiny sizes, inside a prompt), the terminal restored on quit and on signals, Ctrl-Z,
/// NO_COLOR, the optional mouse, wide characters, and export.
@Suite(.enabled(if: BrowserPane.isAvailable, BrowserPane.skipMessage))
struct TerminalBehaviourEndToEndTests {
    @Test func resizeAtTinySizesAndInsideAPrompt() throws {
        let pane = try BrowserPane()
        let store = try pane.copySample("Recipes")
        try pane.launch([store, "--entity", "Ingredient"])
        try pane.waitFor("Recipes.sqlite › Ingredient │ row 1 of 1,286")
        try pane.press("j", "j")
        try pane.waitFor("row 3 of 1,286")
        try pane.tmux.resize(columns: 50, rows: 12)
        try pane.waitUntil("the narrow layout") { lines in !lines.contains { $0.contains("Entities") } && lines.contains { $0.contains("row 3 of") } }

        // Inside the filter prompt: the text survives every size, down to one cell.
        try pane.press("/")
        try pane.type("quantity > 1")
        for (columns, rows) in [(20, 4), (1, 1), (2, 1), (1, 3), (10, 2)] {
            try pane.tmux.resize(columns: columns, rows: rows)
            try pane.waitUntil("a \(columns)x\(rows) screen") { $0.count >= rows }
        }
        try pane.tmux.resize(columns: 160, rows: 30)
        try pane.waitUntil("the prompt after resizing") { $0.last { !$0.isEmpty } == "/quantity > 1" }
        try pane.type("0")
        try pane.press("Enter")
        try pane.waitFor("│ / quantity > 10 │")
        #expect(try pane.tmux.paneVariable("alternate_on") == "1", "still running")
        try pane.press("q")
        #expect(try pane.exitStatus() == 0)
        try pane.expectSaneTerminal()
    }

    @Test func terminationSignalRestoresTheTerminal() throws {
        let pane = try BrowserPane()
        let store = try pane.copySample("Recipes")
        try pane.launch([store, "--entity", "Tag"])
        try pane.waitFor("Recipes.sqlite › Tag │ row 1 of 16")
        // Inside a prompt, readline's state must not survive either.
        try pane.press("/")
        try pane.type("label")
        try pane.waitUntil("the prompt") { $0.last { !$0.isEmpty } == "/label" }
        #expect(Foundation.kill(try pane.browserProcessID(), SIGTERM) == 0)
        #expect(try pane.exitStatus() == 143, "SIGTERM re-raised after restoring")
        try pane.expectSaneTerminal()
    }

    @Test func interruptRestoresTheTerminal() throws {
        let pane = try BrowserPane()
        let store = try pane.copySample("Recipes")
        try pane.launch([store, "--entity", "Tag"])
        try pane.waitFor("Recipes.sqlite › Tag │ row 1 of 16")
        #expect(Foundation.kill(try pane.browserProcessID(), SIGINT) == 0)
        #expect(try pane.exitStatus() == 130, "SIGINT re-raised after restoring")
        try pane.expectSaneTerminal()
    }

    /// A crash is a fatal signal: a segmentation fault, an abort (a failed precondition), an illegal instruction
    /// (a Swift trap). Each restores the terminal, then dies of the same signal.
    @Test(arguments: [(SIGSEGV, 139), (SIGABRT, 134), (SIGILL, 132)] as [(Int32, Int)])
    func crashSignalsRestoreTheTerminal(signal: Int32, status: Int) throws {
        let pane = try BrowserPane()
        let store = try pane.copySample("Recipes")
        try pane.launch([store, "--entity", "Tag"])
        try pane.waitFor("Recipes.sqlite › Tag │ row 1 of 16")
        #expect(Foundation.kill(try pane.browserProcessID(), signal) == 0)
        #expect(try pane.exitStatus() == status, "the signal re-raised after restoring")
        try pane.expectSaneTerminal()
    }

    @Test func ctrlZSuspendsAndFgResumes() throws {
        let pane = try BrowserPane()
        let store = try pane.copySample("Recipes")
        try pane.launch([store, "--entity", "Ingredient"])
        try pane.waitFor("Recipes.sqlite › Ingredient │ row 1 of 1,286")
        try pane.press("j")
        try pane.waitFor("row 2 of 1,286")
        try pane.press("C-z")
        try pane.waitFor("Stopped")
        try pane.waitForShell()
        try pane.expectSaneTerminal()
        try pane.tmux.sendLine("fg")
        try pane.waitFor("row 2 of 1,286")
        #expect(try pane.tmux.paneVariable("alternate_on") == "1")
        try pane.press("j")
        try pane.waitFor("row 3 of 1,286")
        try pane.press("q")
        #expect(try pane.exitStatus() == 0)
        try pane.expectSaneTerminal()
    }

    /// The colour parameters (foreground, background, 256 colours) of every SGR sequence in `text`.
    private func colourParameters(_ text: String) -> [Int] {
        var parameters: [Int] = []
        for match in text.matches(of: /\x1B\[([0-9;]*)m/) {
            parameters += match.1.split(separator: ";").compactMap { Int($0) }
        }
        let colours: Set<Int> = Set(30...37).union(40...47).union(90...107).union([38, 48])
        return parameters.filter { colours.contains($0) }
    }

    @Test func noColorIsMonochromeButStillShowsTheSelection() throws {
        let pane = try BrowserPane()
        let store = try pane.copySample("Recipes")
        try pane.launch([store, "--entity", "Tag"])
        try pane.waitFor("Recipes.sqlite › Tag │ row 1 of 16")
        #expect(!colourParameters(try pane.tmux.captureWithAttributes()).isEmpty, "colours by default")
        try pane.press("q")
        #expect(try pane.exitStatus() == 0)

        try pane.launch([store, "--entity", "Tag"], environment: ["NO_COLOR": "1"])
        try pane.waitFor("Recipes.sqlite › Tag │ row 1 of 16")
        let attributes = try pane.tmux.captureWithAttributes()
        #expect(colourParameters(attributes).isEmpty, "NO_COLOR: \(attributes.debugDescription)")
        #expect(attributes.contains("\u{1B}[7m") || attributes.contains(";7m") || attributes.contains("[7;"), "reverse video for the selection")
        try pane.press("q")
        #expect(try pane.exitStatus() == 0)
    }

    @Test func mouseOnlyWithTheOption() throws {
        let pane = try BrowserPane()
        let store = try pane.copySample("Recipes")
        try pane.launch([store, "--entity", "Ingredient"])
        try pane.waitFor("Recipes.sqlite › Ingredient │ row 1 of 1,286")
        #expect(try pane.tmux.paneVariable("mouse_any_flag") == "0" && pane.tmux.paneVariable("mouse_standard_flag") == "0",
                "no mouse reporting without --mouse")
        try pane.press("q")
        #expect(try pane.exitStatus() == 0)

        // xterm-256color: curses then asks for SGR reports (1006), which the test types below.
        try pane.launch([store, "--entity", "Ingredient", "--mouse"], environment: ["TERM": "xterm-256color"])
        try pane.waitFor("Recipes.sqlite › Ingredient │ row 1 of 1,286")
        try pane.waitUntil("mouse reporting on") { _ in
            (try? pane.tmux.paneVariable("mouse_standard_flag")) == "1" || (try? pane.tmux.paneVariable("mouse_any_flag")) == "1"
        }
        // The wheel, then a click on the fifth data row (screen row 7), as SGR mouse reports.
        try pane.type("\u{1B}[<65;60;10M")
        try pane.waitFor("row 2 of 1,286")
        try pane.type("\u{1B}[<0;60;7M\u{1B}[<0;60;7m")
        try pane.waitFor("row 5 of 1,286")
        try pane.press("q")
        #expect(try pane.exitStatus() == 0)
        try pane.expectSaneTerminal()
        #expect(try pane.tmux.paneVariable("mouse_any_flag") == "0" && pane.tmux.paneVariable("mouse_standard_flag") == "0",
                "mouse reporting off after quitting")
    }

    @Test func wideAndCombiningCharactersAlign() throws {
        let pane = try BrowserPane(columns: 100)
        let store = try pane.copySample("Recipes")
        let connection = try Connection(path: store)
        try connection.execute(sql: "UPDATE ZCUISINE SET ZNAME = '日本料理', ZREGION = '東アジア' WHERE Z_PK = 1")
        try connection.execute(sql: "UPDATE ZCUISINE SET ZNAME = 'Cafe\u{301} crème', ZREGION = 'Europe' WHERE Z_PK = 2")
        try connection.execute(sql: "UPDATE ZCUISINE SET ZNAME = '한국 요리 🍜', ZREGION = 'Asia' WHERE Z_PK = 3")
        try pane.launch([store, "--entity", "Cuisine"])
        let screen = try pane.waitFor("Recipes.sqlite › Cuisine │ row 1 of 20")
        #expect(screen.contains { $0.contains("日本料理") } && screen.contains { $0.contains("한국 요리 🍜") })
        // Every row of the panes is exactly as wide as the terminal: the right border lines up.
        let boxed = screen.filter { $0.hasPrefix("│") }
        #expect(!boxed.isEmpty)
        for line in boxed {
            #expect(DisplayColumns.of(line) == 100, "\(line)")
        }
        // And the region column starts at the same column on every data row.
        let regionColumns = Set(screen.filter { $0.contains("東アジア") || $0.contains("Europe") || $0.contains("Asia") }
            .map { line -> Int in
                let region = ["東アジア", "Europe", "Asia"].compactMap { line.range(of: $0) }.first!
                return DisplayColumns.of(String(line[..<region.lowerBound]))
            })
        #expect(regionColumns.count == 1, "\(screen)")
        try pane.press("q")
        #expect(try pane.exitStatus() == 0)
    }

    @Test func exportWritesTheFilteredTableToCSVAndJSON() throws {
        let pane = try BrowserPane()
        let store = try pane.copySample("Recipes")
        let csv = pane.directory.appendingPathComponent("europe.csv").path
        let json = pane.directory.appendingPathComponent("europe.json").path
        try pane.launch([store, "--entity", "Cuisine", "--predicate", "region == \"Europe\""])
        let screen = try pane.waitFor("│ / region == \"Europe\" │ row 1 of ")
        let count = try #require(screen.lazy.compactMap { $0.firstMatch(of: /row 1 of ([0-9]+)/) }.first.map { Int($0.1)! })
        try pane.press(":")
        try pane.type("export csv \(csv)")
        try pane.press("Enter")
        try pane.waitFor("exported \(count) objects to \(csv)")
        try pane.press(":")
        try pane.type("export json \(json)")
        try pane.press("Enter")
        try pane.waitFor("exported \(count) objects to \(json)")
        try pane.press("q")
        #expect(try pane.exitStatus() == 0)

        let lines = try String(contentsOfFile: csv, encoding: .utf8).split(whereSeparator: \.isNewline)
        #expect(lines.count == count + 1, "a header and one line per object: \(lines)")
        #expect(lines.first?.contains("name") == true && lines.first?.contains("region") == true)
        #expect(lines.dropFirst().allSatisfy { $0.contains("Europe") })
        let objects = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as? [[String: Any]]
        #expect(objects?.count == count)
        #expect(objects?.allSatisfy { $0["region"] as? String == "Europe" } == true)
    }
}

