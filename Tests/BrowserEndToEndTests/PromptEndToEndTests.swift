import CoreDataTestSupport
import Foundation
import Testing

/// Issue 6, item 5: the predicate prompt on GNU readline inside the curses screen.
@Suite(.enabled(if: BrowserPane.isAvailable, BrowserPane.skipMessage))
struct PromptEndToEndTests {
    /// The prompt line: the last line of the screen.
    private func promptLine(_ lines: [String]) -> String { lines.last { !$0.isEmpty } ?? "" }

    @Test func aParseErrorShowsACaretAndKeepsThePromptOpen() throws {
        let pane = try BrowserPane()
        let store = try pane.copySample("Recipes")
        try pane.launch([store, "--entity", "Recipe"])
        try pane.waitFor("Recipes.sqlite › Recipe │ row 1 of 200")
        try pane.press("/")
        try pane.type("minutes > AND name == \"x\"")
        try pane.press("Enter")
        let screen = try pane.waitFor("^ ")
        #expect(promptLine(screen) == "/minutes > AND name == \"x\"", "the text is intact: \(screen)")
        let caretLine = try #require(screen.first { $0.contains("^ ") })
        let caret = caretLine.distance(from: caretLine.startIndex, to: caretLine.firstIndex(of: "^")!)
        #expect(caret == "/minutes > ".count, "the caret sits under AND: \(caretLine)")
        // The format above the caret lines up with the prompt's text, so the caret points at its AND.
        let caretRow = try #require(screen.firstIndex(of: caretLine))
        #expect(screen[caretRow - 1] == " minutes > AND name == \"x\"", "\(screen)")
        // Fix it in place: the prompt is still open.
        try pane.press("C-a", "C-k")
        try pane.type("minutes > 100")
        try pane.press("Enter")
        try pane.waitFor("│ / minutes > 100 │")
        try pane.press("q")
        #expect(try pane.exitStatus() == 0)
    }

    @Test func historyPersistsAcrossRunsAndCtrlRSearchesIt() throws {
        let pane = try BrowserPane()
        let store = try pane.copySample("Recipes")
        try pane.launch([store, "--entity", "Recipe"])
        try pane.waitFor("Recipes.sqlite › Recipe │ row 1 of 200")
        for filter in ["name BEGINSWITH \"Braised\"", "minutes > 100", "rating >= 4"] {
            try pane.press("/", "C-u")
            try pane.type(filter)
            try pane.press("Enter")
            try pane.waitFor("│ / \(filter) │")
        }
        try pane.press(":")
        try pane.type("sql")
        try pane.press("Enter")
        var screen = try pane.waitFor("SQL  (Esc closes)")
        #expect(screen.joined().contains("SELECT") && screen.joined().contains("FROM ZRECIPE"), "\(screen)")
        #expect(screen.contains { $0.contains("?1 = ") }, "constants are bound: \(screen)")
        // Escape and q apart: read together (a slow, sanitized build) they are one Alt-q key.
        try pane.press("Escape")
        try pane.waitUntil("the SQL pane closed") { !$0.contains { $0.contains("SQL  (Esc closes)") } }
        try pane.press("q")
        #expect(try pane.exitStatus() == 0)
        let history = try String(contentsOf: pane.historyDirectory.appendingPathComponent("filter_history"), encoding: .utf8)
        #expect(history.contains("name BEGINSWITH \"Braised\"\nminutes > 100\nrating >= 4"), "\(history)")
        #expect(FileManager.default.fileExists(atPath: pane.historyDirectory.appendingPathComponent("command_history").path))

        // A new run: Up recalls the last filter, Ctrl-R finds an older one.
        try pane.launch([store, "--entity", "Recipe"])
        try pane.waitFor("Recipes.sqlite › Recipe │ row 1 of 200")
        try pane.press("/", "Up")
        try pane.waitUntil("the last filter recalled") { promptLine($0) == "/rating >= 4" }
        try pane.press("C-u", "C-r")
        try pane.type("Brai")
        screen = try pane.waitFor("(reverse-i-search)`Brai': name BEGINSWITH \"Braised\"")
        try pane.press("Enter")
        try pane.waitFor("│ / name BEGINSWITH \"Braised\" │")
        try pane.press("q")
        #expect(try pane.exitStatus() == 0)
    }

    @Test func tabCompletesKeyPathsOperatorsAndCommands() throws {
        let pane = try BrowserPane()
        let store = try pane.copySample("Recipes")
        try pane.launch([store, "--entity", "Recipe"])
        try pane.waitFor("Recipes.sqlite › Recipe │ row 1 of 200")
        try pane.press("/")
        try pane.type("minu")
        try pane.press("Tab")
        try pane.waitUntil("minutes completed") { promptLine($0) == "/minutes" }
        try pane.type("> 100 AND chef.na")
        try pane.press("Tab")
        try pane.waitUntil("chef.name completed") { promptLine($0) == "/minutes > 100 AND chef.name" }
        try pane.type("BEGINS")
        try pane.press("Tab")
        try pane.waitUntil("BEGINSWITH completed") { promptLine($0) == "/minutes > 100 AND chef.name BEGINSWITH" }
        // An ambiguous word lists its candidates above the prompt.
        try pane.press("C-u")
        try pane.type("c")
        try pane.press("Tab")
        try pane.waitUntil("the candidates") { $0.contains { $0.contains("chef") && $0.contains("created") && $0.contains("cuisine") } }
        try pane.press("C-u")
        try pane.type("minutes > 100 AND chef.name BEGINSWITH[c] \"a\"")
        try pane.press("Enter")
        try pane.waitFor("│ / minutes > 100 AND chef.name BEGINSWITH[c] \"a\" │")

        // Commands and their arguments complete too; named filters are saved and loaded.
        try pane.press(":")
        try pane.type("sa")
        try pane.press("Tab")
        try pane.waitUntil(":save completed") { promptLine($0) == ":save" }
        try pane.type("slowchefs")
        try pane.press("Enter")
        try pane.waitFor("saved filter slowchefs")
        try pane.press("/", "C-u", "Enter")
        try pane.waitFor("filter removed")
        try pane.press(":")
        try pane.type("load slo")
        try pane.press("Tab")
        try pane.waitUntil("the name completed") { promptLine($0) == ":load slowchefs" }
        try pane.press("Enter")
        try pane.waitFor("│ / minutes > 100 AND chef.name BEGINSWITH[c] \"a\" │")
        try pane.press(":")
        try pane.type("ent")
        try pane.press("Tab")
        try pane.type("Ingr")
        try pane.press("Tab")
        try pane.waitUntil("the entity completed") { promptLine($0) == ":entity Ingredient" }
        try pane.press("Enter")
        try pane.waitFor("› Ingredient │ row 1 of 1,286")
        try pane.press("q")
        #expect(try pane.exitStatus() == 0)
    }

    @Test func viModeFromTheUsersInputrc() throws {
        let pane = try BrowserPane()
        let inputrc = pane.directory.appendingPathComponent("inputrc")
        try "set editing-mode vi\n".write(to: inputrc, atomically: true, encoding: .utf8)
        let store = try pane.copySample("Recipes")
        try pane.launch([store, "--entity", "Recipe"], environment: ["INPUTRC": inputrc.path])
        try pane.waitFor("Recipes.sqlite › Recipe │ row 1 of 200")
        try pane.press("/")
        try pane.type("minutes > 1000")
        // Esc enters vi command mode (the prompt stays), x deletes the last 0, Enter accepts.
        try pane.press("Escape")
        try pane.press("x")
        try pane.waitUntil("x in command mode") { promptLine($0) == "/minutes > 100" }
        try pane.press("Enter")
        try pane.waitFor("│ / minutes > 100 │")
        try pane.press("q")
        #expect(try pane.exitStatus() == 0)
    }
}
