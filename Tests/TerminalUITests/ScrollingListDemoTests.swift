import TerminalText
import Testing
@testable import TerminalUI

/// The demo app of `terminal-demo`, driven through `VirtualTerminal` with snapshot assertions.
struct ScrollingListDemoTests {
    private func line(_ number: Int, width: Int) -> String {
        var text = DisplayWidth.pad(ScrollingListDemo.line(number - 1), toWidth: width)
        while text.last == " " { text.removeLast() }
        return text
    }

    private func runDemo(on terminal: VirtualTerminal) throws -> ScrollingListDemo {
        var app = ScrollingListDemo()
        try run(app: &app, terminal: terminal)
        return app
    }

    @Test func firstScreen() throws {
        let terminal = VirtualTerminal(size: Size(columns: 40, rows: 4))
        _ = try runDemo(on: terminal)
        #expect(terminal.snapshot() == [
            line(1, width: 40),
            line(2, width: 40),
            line(3, width: 40),
            "row 1 of 1000  j/k PgDn g/G q",
        ])
        // The selection is a reverse bar across the whole row.
        #expect(terminal.lastScreen?[39, 0]?.style == Theme.monochrome.selection)
    }

    @Test func movingDownPagingAndJumping() throws {
        let terminal = VirtualTerminal(size: Size(columns: 40, rows: 4))
        terminal.enqueue(.character("j"), .character("j"))
        var app = ScrollingListDemo()
        try run(app: &app, terminal: terminal)
        #expect(app.list.selection == 2)
        #expect(terminal.snapshot().last == "row 3 of 1000  j/k PgDn g/G q")

        terminal.enqueue(.pageDown)
        try run(app: &app, terminal: terminal)
        #expect(app.list.selection == 5)
        #expect(terminal.snapshot() == [line(4, width: 40), line(5, width: 40), line(6, width: 40),
                                        "row 6 of 1000  j/k PgDn g/G q"])

        terminal.enqueue(.character("G"))
        try run(app: &app, terminal: terminal)
        #expect(terminal.snapshot() == [line(998, width: 40), line(999, width: 40), line(1000, width: 40),
                                        "row 1000 of 1000  j/k PgDn g/G q"])

        terminal.enqueue(.character("g"))
        try run(app: &app, terminal: terminal)
        #expect(terminal.snapshot().first == line(1, width: 40))
        #expect(terminal.snapshot().last == "row 1 of 1000  j/k PgDn g/G q")
    }

    @Test func redrawsSendOnlyWhatChanged() throws {
        let terminal = VirtualTerminal(size: Size(columns: 40, rows: 10))
        terminal.enqueue(.character("j"))
        _ = try runDemo(on: terminal)
        let firstFrameRuns = 10
        let secondFrame = terminal.runs.dropFirst(firstFrameRuns)
        // Rows 1 and 2 swap their selection style and the status text changes: nothing else is sent.
        #expect(Set(secondFrame.map(\.origin.row)) == [0, 1, 9])
    }

    @Test func quitEndsTheLoopAndUnknownKeysRing() throws {
        let terminal = VirtualTerminal(size: Size(columns: 20, rows: 3))
        terminal.enqueue(.character("x"), .character("q"), .character("j"))
        _ = try runDemo(on: terminal)
        #expect(terminal.bellCount == 1)
        #expect(terminal.pendingInputCount == 1)  // `j` after `q` was never read
    }

    @Test func suspendAndRepaint() throws {
        let terminal = VirtualTerminal(size: Size(columns: 20, rows: 3))
        terminal.enqueue(.control("z"), .control("l"))
        _ = try runDemo(on: terminal)
        #expect(terminal.suspendCount == 1)
        #expect(terminal.runs.suffix(3).map(\.cells.count) == [20, 20, 20])  // Ctrl-L repainted every row
    }

    @Test func resizingKeepsTheSelectionVisibleAndSurvivesTinySizes() throws {
        let terminal = VirtualTerminal(size: Size(columns: 80, rows: 24))
        terminal.enqueue(.character("G"))
        terminal.resize(to: Size(columns: 20, rows: 5))
        var app = ScrollingListDemo()
        try run(app: &app, terminal: terminal)
        #expect(terminal.snapshot() == [
            "Line 997: the quick…",
            "Line 998: the quick…",
            "Line 999: the quick…",
            "Line 1000: the quic…",
            "row 1000 of 1000  j…",
        ])
        for size in [Size(columns: 1, rows: 1), Size(columns: 0, rows: 0), Size(columns: 0, rows: 3),
                     Size(columns: 5, rows: 0), Size(columns: 3, rows: 2), Size(columns: 1, rows: 2)] {
            terminal.resize(to: size)
            terminal.enqueue(.character("k"), .pageUp, .character("j"))
            try run(app: &app, terminal: terminal)
            #expect(terminal.lastScreen?.size == size)
        }
        #expect(terminal.snapshot() == ["…", "…"])  // one column: every line is its ellipsis
        terminal.resize(to: Size(columns: 30, rows: 3))
        try run(app: &app, terminal: terminal)
        // Each tiny size moved up by k, a page (at least one row) and down by j: 7 rows in all.
        #expect(terminal.snapshot() == ["Line 993: the quick brown fox…", "Line 994: the quick brown fox…",
                                        "row 993 of 1000  j/k PgDn g/G…"])
    }

    @Test func wideCharactersAlignInNarrowColumns() throws {
        // At 30 columns the CJK word is cut before its last character would cross the edge.
        let terminal = VirtualTerminal(size: Size(columns: 31, rows: 2))
        _ = try runDemo(on: terminal)
        let first = try #require(terminal.lastScreen)
        #expect(first.lines()[0] == "Line 1: the quick brown fox 日…")
        #expect(DisplayWidth.of(first.lines(trimming: false)[0]) == 31)
    }
}
