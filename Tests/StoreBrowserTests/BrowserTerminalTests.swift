import Foundation
import SQLiteDatabase
import StoreBrowser
import Testing
import TerminalText
import TerminalUI

/// Issue 6, item 10, as far as a virtual terminal can check it: resizing at any moment and to tiny sizes, the
/// monochrome theme for NO_COLOR, the mouse, wide and combining characters.
@Suite("Terminal behaviour")
struct BrowserTerminalTests {
    static let tinySizes = [Size(columns: 0, rows: 0), Size(columns: 1, rows: 1), Size(columns: 10, rows: 3),
                            Size(columns: 20, rows: 5), Size(columns: 59, rows: 6), Size(columns: 3, rows: 40)]
    static let normal = Size(columns: 120, rows: 30)

    /// Resizes through every tiny size and back.
    static func squeeze(_ browser: BrowserHarness) throws {
        for size in tinySizes {
            try browser.resize(to: size)
            #expect(browser.screen.count == size.rows)
        }
        try browser.resize(to: normal)
    }

    @Test("Resizing to tiny sizes on the table, the detail pane, a prompt and each overlay keeps the state")
    func resizeEverywhere() throws {
        let browser = try BrowserHarness(entity: "Recipe", edit: true)
        try browser.press(.character("j"), .character("j"), .character("l"))
        try Self.squeeze(browser)
        #expect(browser.app.table.selection == 2)
        #expect(browser.app.table.currentColumn == 1)
        #expect(browser.statusLine.contains("row 3 of 200"))

        try browser.type("/servings >= ")
        try Self.squeeze(browser)
        #expect(browser.editor.activeKind == .filter)
        #expect(browser.editor.text == "servings >= ")
        #expect(browser.messageLine == "/servings >=")  // snapshots trim trailing spaces
        try browser.type("6\n")
        #expect(browser.statusLine.contains("/ servings >= 6"))

        try browser.press(.character("?"))
        try Self.squeeze(browser)
        #expect(browser.text.contains("Keys  (Esc closes)"))
        try browser.press(.escape)

        try browser.press(.character("F"))
        try Self.squeeze(browser)
        #expect(browser.text.contains("Frequency of"))
        try browser.press(.escape)

        try browser.press(.enter)
        try browser.selectField("name")
        try browser.press(.character("e"))
        try browser.type("Squeezed")
        try Self.squeeze(browser)
        #expect(browser.editor.text.hasSuffix("Squeezed"))
        try browser.press(.enter, .character("a"))
        try browser.press(.control("s"))
        try Self.squeeze(browser)
        #expect(browser.text.contains("Write 1 change(s)"))
        try browser.press(.character("n"))
        #expect(browser.statusLine.contains("1 pending"))
    }

    @Test("Keys pressed while the terminal is tiny still work, and nothing is drawn outside it")
    func keysWhileTiny() throws {
        let browser = try BrowserHarness(entity: "Recipe")
        for size in Self.tinySizes {
            try browser.resize(to: size)
            try browser.press(.character("j"), .pageDown, .character("l"), .enter, .escape, .character("?"), .escape)
            try browser.type("/x\u{1B}")
            #expect(browser.screen.count == size.rows)
            #expect(browser.screen.allSatisfy { DisplayWidth.of($0) <= size.columns })
        }
        try browser.resize(to: Self.normal)
        #expect(browser.statusLine.contains("Recipes.sqlite › Recipe"))
    }

    @Test("The monochrome theme (NO_COLOR) draws no colour at all; the coloured one does")
    func monochrome() throws {
        #expect(Theme.forEnvironment(["NO_COLOR": "1"]) == .monochrome)
        #expect(Theme.forEnvironment(["TERM": "dumb"]) == .monochrome)
        #expect(Theme.forEnvironment(["NO_COLOR": ""]) == .colored)
        let mono = try BrowserHarness(theme: .monochrome)
        try mono.press(.enter)
        let cells = try #require(mono.terminal.lastScreen).cells
        #expect(cells.allSatisfy { $0.style.foreground == .terminalDefault && $0.style.background == .terminalDefault })
        // The selection still shows, as reverse video.
        #expect(cells.contains { $0.style.attributes.contains(.reverse) })

        let colored = try BrowserHarness(theme: .colored)
        let colors = try #require(colored.terminal.lastScreen).cells
        #expect(colors.contains { $0.style.foreground != .terminalDefault || $0.style.background != .terminalDefault })
    }

    @Test("The mouse wheel moves the selection, a click selects a row or an entity, a double click opens")
    func mouse() throws {
        let browser = try BrowserHarness(entity: "Recipe")
        try browser.press(.mouse(MouseEvent(.wheelDown, at: Point(column: 60, row: 10))))
        try browser.press(.mouse(MouseEvent(.wheelDown, at: Point(column: 60, row: 10))))
        #expect(browser.app.table.selection == 2)
        try browser.press(.mouse(MouseEvent(.wheelUp, at: Point(column: 60, row: 10))))
        #expect(browser.app.table.selection == 1)
        // Row 0 of the table is on screen row 2 (below the box's top and the header).
        try browser.press(.mouse(MouseEvent(.click, at: Point(column: 60, row: 7))))
        #expect(browser.app.table.selection == 5)
        try browser.press(.mouse(MouseEvent(.doubleClick, at: Point(column: 60, row: 7))))
        #expect(browser.app.detail?.title == "Recipe p6")
        try browser.press(.escape)
        // A click on the entity pane selects the entity there; Enter opens it.
        try browser.press(.mouse(MouseEvent(.click, at: Point(column: 3, row: 1))))
        #expect(browser.app.focus == .entities)
        #expect(browser.app.entitySelection == 0)
        try browser.press(.enter)
        #expect(browser.statusLine.contains("› Chef │"))
        // A click below the last row selects nothing new.
        let many = try BrowserHarness(entity: "Cuisine", size: Size(columns: 120, rows: 60))
        try many.press(.mouse(MouseEvent(.click, at: Point(column: 60, row: 50))))
        #expect(many.app.table.selection == 19)
    }

    @Test("Wide and combining characters keep the columns aligned")
    func wideAndCombining() throws {
        let names = ["王小明", "Zoe\u{0301} Combining", "👩‍🍳 Emoji Chef", "Ｆｕｌｌｗｉｄｔｈ", "Plain Name"]
        let browser = try BrowserHarness(predicate: "email ENDSWITH 'wide.test'") { path in
            var script = ""
            for (offset, name) in names.enumerated() {
                script += "INSERT INTO ZCHEF (Z_PK, Z_ENT, Z_OPT, ZRECIPECOUNT, ZEMAIL, ZNAME) VALUES (\(100 + offset), 1, 1, \(offset), 'c\(offset)@wide.test', '\(name)');\n"
            }
            try StoreFile.write(path, script + "UPDATE Z_PRIMARYKEY SET Z_MAX = 104 WHERE Z_NAME = 'Chef';")
        }
        try browser.settle()
        let rows = browser.tableLines.filter { $0.contains("@wide.test") }
        #expect(rows.count == names.count)
        // The email column starts at the same display column on every row, whatever the name's characters.
        let starts = rows.map { line -> Int in
            let email = line.range(of: #"c\d@wide\.test"#, options: .regularExpression)!.lowerBound
            return DisplayWidth.of(String(line[..<email]))
        }
        #expect(Set(starts).count == 1, "email columns start at \(starts)")
        #expect(rows.contains { $0.contains("王小明") })
        #expect(rows.contains { $0.contains("Zoe\u{0301} Combining") })
        // The right border is at the same display column on every row too.
        #expect(Set(browser.screen.prefix(28).map { DisplayWidth.of($0) }).count == 1)
    }
}

extension BrowserTerminalTests {
    @Test("Ctrl-Z suspends and the screen is repainted whole on resume")
    func suspend() throws {
        let browser = try BrowserHarness()
        #expect(browser.app.handle(.control("z")) == .suspend)
        try browser.press(.control("z"))
        #expect(browser.terminal.suspendCount == 1)
        #expect(browser.statusLine.contains("Recipes.sqlite › Chef"))
    }
}
