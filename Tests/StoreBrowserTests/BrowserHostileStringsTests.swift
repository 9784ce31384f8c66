import Foundation
import SQLiteDatabase
import StoreBrowser
import Testing
import TerminalUI

/// Issue 6, item 10 and its acceptance: a store holding hostile strings renders safely. Every string from the
/// store passes the sanitiser; what the terminal would receive (`VirtualTerminal.written`) holds no control, escape
/// or bidi character from the data, and visible substitutes show instead.
@Suite("Hostile strings")
struct BrowserHostileStringsTests {
    /// Chef names written with SQL, as an attacker's app could have stored them (SQL text, so raw bytes stay raw).
    static let hostileNames: [(label: String, sql: String)] = [
        ("title", "'title' || char(27) || ']0;pwned' || char(7)"),
        ("clear", "'clear' || char(27) || '[2J' || char(27) || '[H'"),
        ("clipboard", "'clip' || char(27) || ']52;c;cm0gLXJmIH4=' || char(7)"),
        ("bidi", "'bidi ' || char(8238) || 'txt.exe' || char(8236) || char(8294) || 'x' || char(8297)"),
        ("nul", "'nul' || char(0) || 'after'"),
        ("c1", "'c1' || char(155) || '31m' || char(133)"),
        ("newline", "'line1' || char(10) || 'line2' || char(13) || char(9) || 'tab'"),
        ("invalid", "CAST(x'696e76616c6964ff9fc0af' AS TEXT)"),
        ("del", "'del' || char(127)"),
    ]

    static func hostileStore() throws -> BrowserHarness {
        try BrowserHarness(size: Size(columns: 140, rows: 40)) { path in
            var script = ""
            for (offset, entry) in hostileNames.enumerated() {
                script += "INSERT INTO ZCHEF (Z_PK, Z_ENT, Z_OPT, ZRECIPECOUNT, ZEMAIL, ZNAME) VALUES (\(offset + 1000), 1, 1, 0, 'h\(offset)@hostile.test', \(entry.sql));\n"
            }
            try StoreFile.write(path, script + "UPDATE Z_PRIMARYKEY SET Z_MAX = \(1000 + hostileNames.count) WHERE Z_NAME = 'Chef';")
        }
    }

    /// Scalars that must never reach the terminal from data: C0 (the box-drawing output has none), DEL, C1, and the
    /// bidi controls.
    static func isDangerous(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return value < 0x20 || value == 0x7F || (0x80...0x9F).contains(value) || [0x061C, 0x200E, 0x200F].contains(value)
            || (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
    }

    static func expectSafe(_ browser: BrowserHarness, sourceLocation: SourceLocation = #_sourceLocation) {
        let dangerous = browser.terminal.written.unicodeScalars.filter(isDangerous)
        #expect(dangerous.isEmpty, "raw controls reached the terminal: \(dangerous.map { String($0.value, radix: 16) })",
                sourceLocation: sourceLocation)
    }

    @Test("The table, the detail pane, frequency and describe of hostile values write nothing dangerous")
    func everyViewIsSafe() throws {
        let browser = try Self.hostileStore()
        // The hostile chefs are the last rows.
        try browser.press(.character("G"))
        try browser.settle()
        Self.expectSafe(browser)
        let text = browser.text
        #expect(text.contains("title␛]0;pwned␇"))
        #expect(text.contains("clear␛[2J␛[H"))
        #expect(text.contains("clip␛]52;c;cm0gLXJmIH4=␇"))
        #expect(text.contains("bidi <U+202E>txt.exe<U+202C><U+2066>x<U"))  // the column is 40 wide
        #expect(text.contains("nul␀after"))
        #expect(text.contains("c1<U+009B>31m<U+0085>"))
        #expect(text.contains("line1␊line2␍␉tab"))
        #expect(text.contains("del␡"))
        // Invalid UTF-8 shows as a visible substitute, never as raw bytes.
        let invalid = try #require(browser.screen.first { $0.contains("invalid") })
        #expect(invalid.contains("\u{FFFD}") || invalid.contains("\\x"))

        // Every hostile chef in the detail pane, multi-line values included.
        for _ in Self.hostileNames {
            try browser.press(.enter)
            Self.expectSafe(browser)
            try browser.press(.escape, .character("k"))
        }
        try browser.press(.character("G"), .enter)
        #expect(browser.text.contains("del␡"))
        try browser.press(.escape)

        try browser.selectColumn("name")
        try browser.press(.character("F"))
        #expect(browser.text.contains("title␛]0;pwned␇"))
        Self.expectSafe(browser)
        try browser.press(.escape, .character("D"))
        Self.expectSafe(browser)
        try browser.press(.escape)
        try browser.type(":sql\n")
        Self.expectSafe(browser)
    }

    @Test("A hostile value being edited, and its pending old → new, are shown safely")
    func editingHostileValue() throws {
        let browser = try BrowserHarness(edit: true, size: Size(columns: 140, rows: 40)) { path in
            try StoreFile.write(path, "UPDATE ZCHEF SET ZNAME = 'x' || char(27) || '[2J' || char(8238) WHERE Z_PK = 1;")
        }
        try browser.press(.enter)
        try browser.selectField("name")
        try browser.press(.character("e"))
        #expect(browser.messageLine.contains("name = x␛[2J<U+202E>"))
        try browser.press(.end)
        try browser.type("!")
        try browser.press(.enter)
        #expect(browser.text.contains("x␛[2J<U+202E> → x␛[2J<U+202E>!"))
        try browser.press(.character("a"), .control("s"))
        #expect(browser.text.contains("name: \"x␛[2J<U+202E>\" → \"x␛[2J<U+202E>!\""))
        Self.expectSafe(browser)
    }
}
