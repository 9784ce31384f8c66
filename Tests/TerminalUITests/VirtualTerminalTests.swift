import Testing
import TerminalText
@testable import TerminalUI

struct VirtualTerminalTests {
    @Test func drawRecordsTheScreenAndOnlyTheChanges() throws {
        let terminal = VirtualTerminal(size: Size(columns: 12, rows: 2))
        var screen = Screen(size: terminal.size)
        screen.draw("hello", at: .zero)
        try terminal.draw(screen)
        #expect(terminal.snapshot() == ["hello", ""])
        screen.draw("w", at: Point(column: 0, row: 1))
        try terminal.draw(screen)
        #expect(terminal.snapshot() == ["hello", "w"])
        #expect(terminal.runs.last == CellRun(origin: Point(column: 0, row: 1), cells: [Cell("w")]))
        terminal.invalidate()
        try terminal.draw(screen)
        #expect(terminal.runs.suffix(2).map(\.cells.count) == [12, 12])
    }

    @Test func scriptedInputIsReadInOrderThenEnds() throws {
        let terminal = VirtualTerminal(size: Size(columns: 10, rows: 5))
        terminal.enqueue(.character("j"), .pageDown)
        terminal.enqueue(inputs: [.timeout])
        terminal.resize(to: Size(columns: 3, rows: 1))
        terminal.type("a\u{3}")
        #expect(try terminal.readKey(timeout: nil) == .character("j"))
        #expect(try terminal.readKey(timeout: nil) == .pageDown)
        #expect(try terminal.readKey(timeout: .seconds(1)) == nil)
        #expect(try terminal.readKey(timeout: nil) == .resize)
        #expect(terminal.size == Size(columns: 3, rows: 1))
        #expect(try terminal.readKey(timeout: nil) == .character("a"))
        #expect(try terminal.readKey(timeout: nil) == .control("c"))
        #expect(throws: TerminalError.endOfInput) { try terminal.readKey(timeout: nil) }
    }

    /// Strings that would retitle the window, clear the screen, write the clipboard, reorder text, or are not
    /// UTF-8. None of their control characters may reach the terminal.
    static let hostileStrings: [String] = [
        "\u{1B}]0;pwned\u{7}title",
        "\u{1B}[2J\u{1B}[Hcleared",
        "\u{1B}]52;c;cm0gLXJmIH4=\u{7}clipboard",
        "\u{1B}]8;;http://evil.example\u{1B}\\link\u{1B}]8;;\u{1B}\\",
        "\u{202E}gnp.exe\u{202C}",
        "\u{2066}isolate\u{2069}",
        "nul\u{0}byte",
        "c1\u{9B}31mcsi",
        "bell\u{7}\u{7F}",
        "line\nbreak\rreturn\ttab",
        TerminalSanitizer.sanitize(utf8: [0x41, 0xFF, 0xFE, 0x1B, 0x5B, 0x32, 0x4A, 0xC3, 0x28]),
    ]

    @Test func hostileStringsNeverReachTheOutputRaw() throws {
        let terminal = VirtualTerminal(size: Size(columns: 40, rows: Self.hostileStrings.count + 2))
        var screen = Screen(size: terminal.size)
        for (row, text) in Self.hostileStrings.enumerated() {
            screen.draw(text, at: Point(column: 0, row: row))
        }
        screen.drawBox(Rect(column: 0, row: Self.hostileStrings.count, columns: 40, rows: 2), title: "\u{1B}]0;x\u{7}")
        try terminal.draw(screen)
        let forbidden = terminal.written.unicodeScalars.filter { scalar in
            scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
                || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
        }
        #expect(forbidden.isEmpty, "raw control scalars: \(forbidden.map { String($0.value, radix: 16) })")
        let lines = terminal.snapshot()
        #expect(lines[0].hasPrefix("␛]0;pwned␇title"))
        #expect(lines[4].hasPrefix("<U+202E>gnp.exe<U+202C>"))
        #expect(lines[10].hasPrefix("A\\xFF\\xFE␛[2J\\xC3("))
    }

    @Test func hostileStringsInTheLinePromptAreSanitisedToo() throws {
        let editor = BasicLineEditor()
        editor.begin(.filter, initialText: "name == \"\u{1B}]52;c;eA==\u{7}\"")
        let terminal = VirtualTerminal(size: Size(columns: 60, rows: 1))
        var screen = Screen(size: terminal.size)
        LinePromptView.render(editor, label: "/", in: screen.bounds, into: &screen)
        try terminal.draw(screen)
        #expect(terminal.snapshot() == ["/name == \"␛]52;c;eA==␇\""])
        #expect(!terminal.written.unicodeScalars.contains { $0.value < 0x20 })
        #expect(screen.cursor == Point(column: 23, row: 0))
    }
}
