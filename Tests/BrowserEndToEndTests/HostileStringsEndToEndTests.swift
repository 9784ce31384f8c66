import CoreDataTestSupport
import Foundation
import SQLiteDatabase
import Testing

/// Issue 6's acceptance: a store holding hostile strings renders safely. Escape sequences that would set the
/// window title, clear the screen or write the clipboard, bidi overrides, NULs and invalid UTF-8 are written into
/// a copy of a sample with raw SQL; the browser shows them as visible symbols, and the raw bytes it writes to the
/// terminal (recorded with `tmux pipe-pane`) contain none of them.
@Suite(.enabled(if: BrowserPane.isAvailable, BrowserPane.skipMessage))
struct HostileStringsEndToEndTests {
    /// `Z_PK` → an SQL expression for the cuisine's name.
    static let names: [(Int, String)] = [
        (1, "'title ' || char(27) || ']0;pwned-title' || char(7) || ' end'"),
        (2, "'clear ' || char(27) || '[2J' || char(27) || '[H end'"),
        (3, "'clipboard ' || char(27) || ']52;c;cHduZWQtY2xpcGJvYXJk' || char(7) || ' end'"),
        (4, "'bidi ' || char(8238) || 'txt.exe' || char(8236) || ' end'"),
        (5, "CAST(x'6e756c2000656e64' AS TEXT)"),               // "nul \0end"
        (6, "CAST(x'696e76616c696420ffc3201b5d20656e64' AS TEXT)"), // "invalid \xFF\xC3 \e] end"
    ]

    @Test func hostileStringsNeverReachTheTerminalRaw() throws {
        let pane = try BrowserPane(columns: 120)
        let store = try pane.copySample("Recipes")
        let connection = try Connection(path: store)
        for (key, expression) in Self.names {
            try connection.execute(sql: "UPDATE ZCUISINE SET ZNAME = \(expression), ZREGION = 'r\(key)' WHERE Z_PK = \(key)")
        }
        try pane.tmux.acceptClipboardWrites()
        try pane.tmux.sendLine("printf '\\033]2;%s\\033\\\\' safe-title")
        try pane.waitUntil("the title set") { _ in (try? pane.tmux.paneVariable("pane_title")) == "safe-title" }
        let recording = pane.directory.appendingPathComponent("output.bytes").path
        try pane.tmux.recordOutput(to: recording)

        try pane.launch([store, "--entity", "Cuisine"])
        var screen = try pane.waitFor("Recipes.sqlite › Cuisine │ row 1 of 20")
        let rows = pane.tableLines(screen).joined(separator: "\n")
        for visible in ["title ␛]0;pwned-title␇ end", "clear ␛[2J␛[H end", "clipboard ␛]52;c;cHduZWQ",
                        "bidi <U+202E>txt.exe<U+202C> end", "nul ␀end"] {
            #expect(rows.contains(visible), "\(visible) shown visibly in \(rows)")
        }
        // Invalid UTF-8 arrives decoded with replacement characters (or escaped bytes): visible either way.
        #expect(rows.contains("invalid \u{FFFD}\u{FFFD} ␛] end") || rows.contains("invalid \\xFF\\xC3 ␛] end"), "\(rows)")
        // The detail pane, the frequency overlay and the describe view pass the same sanitiser.
        try pane.press("Enter")
        screen = try pane.waitFor("field 1 of 3")
        #expect(screen.contains { $0.contains("title ␛]0;pwned-title␇ end") })
        try pane.press("Escape", "j", "j", "Enter")
        screen = try pane.waitFor("› Cuisine p3 │ field 1 of 3")
        #expect(screen.contains { $0.contains("clipboard ␛]52;c;cHduZWQtY2xpcGJvYXJk␇ end") }, "the full value: \(screen)")
        try pane.press("Escape", "F")
        try pane.waitFor("Frequency of name")
        try pane.press("G")
        try pane.press("Escape", "D")
        try pane.waitFor("Describe Cuisine")
        try pane.press("Escape", "/")
        try pane.type("name BEGINSWITH \"bidi\"")
        try pane.press("Enter")
        screen = try pane.waitFor("row 1 of 1")
        #expect(pane.tableLines(screen).contains { $0.contains("bidi <U+202E>txt.exe<U+202C> end") })
        try pane.press("q")
        #expect(try pane.exitStatus() == 0)

        #expect(try pane.tmux.paneVariable("pane_title") == "safe-title", "the window title is unchanged")
        #expect(try pane.tmux.pasteBuffers().isEmpty, "an OSC 52 write reached tmux's clipboard")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: recording))
        #expect(bytes.count > 1000)
        // Checked as booleans, so that a failure message never carries a payload to the terminal showing it.
        let payloads = ["\u{1B}]0;pwned", "\u{1B}]52;", "\u{1B}[2J\u{1B}[H end", "\u{202E}", "\u{202C}", "nul \u{0}", "\u{1B}] end"]
        let leaked = payloads.filter { bytes.range(of: Data($0.utf8)) != nil }.map { $0.unicodeScalars.map { $0.escaped(asASCII: true) }.joined() }
        #expect(leaked.isEmpty, "raw payloads written: \(leaked)")
        let invalidUTF8 = bytes.range(of: Data([0xFF])) != nil || bytes.range(of: Data([0xC3, 0x20])) != nil
        #expect(!invalidUTF8, "invalid UTF-8 written raw")
        let nul = bytes.range(of: Data([0])) != nil
        #expect(!nul, "a NUL written raw")
    }
}
