import CoreDataTestSupport
import Foundation
import SQLiteDatabase
import StoreBrowser
import Testing
import TerminalUI

/// Issue 6, item 5: the `/` predicate prompt and the `:` commands, on the line editor the tests use.
@Suite("Prompts")
struct BrowserPromptTests {
    @Test("/ applies a predicate to the whole entity; an empty line removes it")
    func acceptedFilter() throws {
        let browser = try BrowserHarness(entity: "Recipe")
        try browser.type("/servings >= 8 AND isVegetarian == YES\n")
        try browser.settle()
        let count = try StoreFile.integer(browser.storePath, "SELECT COUNT(*) FROM ZRECIPE WHERE ZSERVINGS >= 8 AND ZISVEGETARIAN = 1")
        #expect(count > 0)
        // The filter is shown in its canonical form (YES is 1).
        #expect(browser.statusLine.contains("│ / servings >= 8 AND isVegetarian == 1 │ row 1 of \(count) │"))
        #expect(browser.screen[0].contains("Recipe where servings >= 8 AND isVegetarian == 1"))

        // The prompt opens on the current filter; clearing it removes the filter.
        try browser.press(.character("/"))
        #expect(browser.editor.text == "servings >= 8 AND isVegetarian == 1")
        try browser.press(.control("u"), .enter)
        try browser.settle()
        #expect(browser.statusLine.contains("│ row 1 of 200 │"))
        #expect(browser.messageLine.contains("filter removed"))
    }

    @Test("A parse error puts a caret under the bad character and keeps the prompt open with the text intact")
    func parseErrorCaret() throws {
        let browser = try BrowserHarness(entity: "Recipe")
        let bad = "servings >= 8 AND AND name == 'x'"
        try browser.type("/" + bad + "\n")
        #expect(browser.editor.activeKind == .filter)
        #expect(browser.editor.text == bad)
        #expect(browser.messageLine == "/" + bad)
        // The caret line sits above the status line, aligned with the prompt's text (after the "/" label).
        let caretLine = try #require(browser.screen.first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("^") })
        let caretColumn = caretLine.firstIndex(of: "^").map { caretLine.distance(from: caretLine.startIndex, to: $0) }
        let badOffset = bad.distance(from: bad.startIndex, to: bad.range(of: "AND name")!.lowerBound)
        #expect(caretColumn == 1 + badOffset)
        // Right above the caret, the format is shown aligned the same way, so the caret points at its bad character.
        let caretRow = try #require(browser.screen.firstIndex(of: caretLine))
        let formatLine = browser.screen[caretRow - 1]
        #expect(formatLine.hasPrefix(" " + bad), "\(browser.screen)")
        #expect(browser.screen[caretRow - 2].contains("invalid predicate: expected an expression"), "\(browser.screen)")
        #expect(browser.statusLine.contains("row 1 of 200"))  // the table did not change

        // Fixing the text in place and accepting applies it.
        try browser.press(.home)
        for _ in 0..<18 { try browser.press(.right) }
        for _ in 0..<4 { try browser.press(.delete) }
        #expect(browser.editor.text == "servings >= 8 AND name == 'x'")
        try browser.press(.enter)
        #expect(browser.editor.activeKind == nil)
        #expect(browser.statusLine.contains("/ servings >= 8 AND name == \"x\""))
    }

    @Test("An unknown key path is refused with a caret too, and Esc closes the prompt leaving the table as it was")
    func unknownKeyPath() throws {
        let browser = try BrowserHarness(entity: "Recipe")
        try browser.type("/servings >= 8 AND nmae == 3\n")
        #expect(browser.editor.activeKind == .filter)
        #expect(browser.text.contains("no property named 'nmae'"))
        let caretLine = try #require(browser.screen.first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("^") })
        #expect(caretLine.firstIndex(of: "^").map { caretLine.distance(from: caretLine.startIndex, to: $0) } == 19)
        try browser.press(.escape)
        #expect(browser.editor.activeKind == nil)
        #expect(!browser.statusLine.contains("nmae"))
    }

    @Test("Tab completes key paths through relationships, operators, modifiers, commands and entity names")
    func tabCompletion() throws {
        let browser = try BrowserHarness(entity: "Recipe")
        try browser.type("/chef.em")
        try browser.press(.tab)
        #expect(browser.editor.text == "chef.email ")
        try browser.type("BEGINS")
        try browser.press(.tab)
        #expect(browser.editor.text == "chef.email BEGINSWITH ")
        try browser.press(.backspace)
        try browser.type("[c")
        try browser.press(.tab)
        #expect(browser.editor.completionCandidates == ["BEGINSWITH[c]", "BEGINSWITH[cd]"])
        #expect(browser.statusLine.contains("BEGINSWITH[c]  BEGINSWITH[cd]"))  // listed above the prompt
        try browser.type("d")
        try browser.press(.tab)
        #expect(browser.editor.text == "chef.email BEGINSWITH[cd] ")
        try browser.type("'a' AND cuisine.")
        try browser.press(.tab)
        #expect(Set(browser.editor.completionCandidates).isSuperset(of: ["cuisine.name", "cuisine.region", "cuisine.recipes"]))
        try browser.type("na")
        try browser.press(.tab)
        #expect(browser.editor.text == "chef.email BEGINSWITH[cd] 'a' AND cuisine.name ")
        try browser.type("!= nil\n")
        #expect(browser.editor.activeKind == nil)
        #expect(!browser.app.messageIsError)

        // A relationship typed in full continues with its destination's keys.
        try browser.press(.character("/"), .control("u"))
        try browser.type("chef")
        try browser.press(.tab)
        #expect(browser.editor.text == "chef.")
        #expect(browser.editor.completionCandidates.contains("chef.email"))
        try browser.press(.escape)

        try browser.type(":ent")
        try browser.press(.tab)
        #expect(browser.editor.text == "entity ")
        try browser.type("Ing")
        try browser.press(.tab)
        #expect(browser.editor.text == "entity Ingredient ")
        try browser.press(.enter)
        #expect(browser.statusLine.contains("› Ingredient │"))
    }

    @Test("History is kept per prompt kind, written to the state directory as lines are accepted, and searchable")
    func historyPersists() throws {
        let state = try TemporaryDirectory.make(prefix: "browser-state")
        defer { try? FileManager.default.removeItem(at: state) }
        do {
            let browser = try BrowserHarness(entity: "Recipe", stateDirectory: state)
            try browser.type("/servings >= 8\n")
            // Written at once, before the browser quits.
            let filters = try String(contentsOf: state.appendingPathComponent("filter_history"), encoding: .utf8)
            #expect(filters == "servings >= 8\n")
            try browser.press(.character("/"), .control("u"))
            try browser.type("minutes < 30\n")
            try browser.type(":sql\n")
            try browser.press(.escape)
            let commands = try String(contentsOf: state.appendingPathComponent("command_history"), encoding: .utf8)
            #expect(commands == "sql\n")
        }
        let browser = try BrowserHarness(entity: "Recipe", stateDirectory: state)
        try browser.press(.character("/"))
        try browser.press(.control("u"), .up)
        #expect(browser.editor.text == "minutes < 30")
        try browser.press(.up)
        #expect(browser.editor.text == "servings >= 8")
        try browser.press(.escape)
        // Commands have their own history: no filters in it.
        try browser.press(.character(":"), .up)
        #expect(browser.editor.text == "sql")
        try browser.press(.up)
        #expect(browser.editor.text == "sql")
        try browser.press(.escape)
        // Ctrl-R searches the filter history.
        try browser.press(.character("/"), .control("u"), .control("r"))
        try browser.type("serv")
        #expect(browser.messageLine.hasPrefix("(reverse-i-search)`serv': servings >= 8"))
        try browser.press(.enter)
        #expect(browser.statusLine.contains("/ servings >= 8"))
    }

    @Test(":sql shows the SQL and bindings of the current filter and sort")
    func sqlOverlay() throws {
        let browser = try BrowserHarness(entity: "Recipe", predicate: "servings >= 8 AND name BEGINSWITH 'C'",
                                         size: Size(columns: 140, rows: 40))
        try browser.type(":sort -minutes\n")
        try browser.type(":sql\n")
        let text = browser.text
        #expect(text.contains("SQL  (Esc closes)"))
        #expect(text.contains("Filter: servings >= 8 AND name BEGINSWITH \"C\""))
        #expect(text.contains("Sort:   -minutes"))
        #expect(text.contains("FROM ZRECIPE"))
        #expect(text.contains("ZSERVINGS"))
        #expect(text.contains("ORDER BY"))
        #expect(text.contains("?1 = 8"))
        #expect(text.contains("'C'") || text.contains("\"C\""))
        try browser.press(.escape)
        #expect(!browser.text.contains("Esc closes"))
    }

    @Test(":save names the filter, :load applies it in a later session, :predicates lists them")
    func namedPredicates() throws {
        let state = try TemporaryDirectory.make(prefix: "browser-state")
        defer { try? FileManager.default.removeItem(at: state) }
        do {
            let browser = try BrowserHarness(entity: "Recipe", stateDirectory: state)
            try browser.type(":save quick\n")
            #expect(browser.app.messageIsError)
            #expect(browser.text.contains("there is no filter to save"))
            try browser.press(.escape)
            try browser.type("/minutes <= 30\n")
            try browser.type(":save quick\n")
            #expect(browser.messageLine.contains("saved filter quick"))
            try browser.press(.character("/"), .control("u"))
            try browser.type("servings > 6\n")
            try browser.type(":save large\n")
        }
        let saved = try String(contentsOf: state.appendingPathComponent("predicates"), encoding: .utf8)
        #expect(saved == "large\tservings > 6\nquick\tminutes <= 30\n")

        let browser = try BrowserHarness(entity: "Recipe", stateDirectory: state)
        try browser.type(":load quick\n")
        try browser.settle()
        let count = try StoreFile.integer(browser.storePath, "SELECT COUNT(*) FROM ZRECIPE WHERE ZMINUTES <= 30")
        #expect(browser.statusLine.contains("/ minutes <= 30 │ row 1 of \(count)"))
        try browser.type(":lo")
        try browser.press(.tab)
        try browser.type("la")
        try browser.press(.tab)
        #expect(browser.editor.text == "load large ")
        try browser.press(.escape)
        try browser.type(":predicates\n")
        #expect(browser.text.contains("Named filters"))
        #expect(browser.text.contains("large  servings > 6"))
        #expect(browser.text.contains("quick  minutes <= 30"))
        try browser.press(.escape)
        try browser.type(":load nothing\n")
        #expect(browser.app.messageIsError)
        #expect(browser.text.contains("no filter named \"nothing\""))
    }

    @Test("An unknown command is an error, and the prompt stays open on it")
    func unknownCommand() throws {
        let browser = try BrowserHarness()
        try browser.type(":frobnicate\n")
        #expect(browser.app.messageIsError)
        #expect(browser.text.contains(":frobnicate is not a command"))
        #expect(browser.editor.activeKind == .command)
        try browser.press(.escape)
        try browser.type(":help\n")
        #expect(browser.text.contains("Keys  (Esc closes)"))
    }
}
