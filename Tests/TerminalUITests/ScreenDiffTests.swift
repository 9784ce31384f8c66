import Testing
@testable import TerminalUI

struct ScreenDiffTests {
    @Test func firstFrameSendsEveryRow() {
        let screen = Screen(size: Size(columns: 3, rows: 2))
        let runs = screen.changes(since: nil)
        #expect(runs.count == 2)
        #expect(runs.map(\.cells.count) == [3, 3])
    }

    @Test func equalFramesSendNothing() {
        var screen = Screen(size: Size(columns: 10, rows: 3))
        screen.draw("hello", at: .zero)
        #expect(screen.changes(since: screen).isEmpty)
    }

    @Test func onlyChangedCellsAreSent() {
        var before = Screen(size: Size(columns: 10, rows: 3))
        before.draw("hello", at: Point(column: 0, row: 0))
        before.draw("world", at: Point(column: 0, row: 2))
        var after = before
        after.draw("J", at: Point(column: 0, row: 0))
        after.draw("l", at: Point(column: 3, row: 2))
        after.draw("d!", at: Point(column: 4, row: 2))
        let runs = after.changes(since: before)
        #expect(runs == [
            CellRun(origin: Point(column: 0, row: 0), cells: [Cell("J")]),
            CellRun(origin: Point(column: 5, row: 2), cells: [Cell("!")]),
        ])
    }

    @Test func styleChangesAreChanges() {
        var before = Screen(size: Size(columns: 4, rows: 1))
        before.draw("ab", at: .zero)
        var after = Screen(size: Size(columns: 4, rows: 1))
        after.draw("ab", at: .zero, style: .bold)
        #expect(after.changes(since: before).map(\.text) == ["ab"])
    }

    @Test func aChangedWideCellIsSentWhole() {
        var before = Screen(size: Size(columns: 6, rows: 1))
        before.draw("a日b", at: .zero)
        var after = before
        after.draw("本", at: Point(column: 1, row: 0))
        let runs = after.changes(since: before)
        #expect(runs.count == 1)
        #expect(runs[0].origin == Point(column: 1, row: 0))
        #expect(runs[0].text == "本")
        #expect(runs[0].cells.count == 2)
    }

    @Test func aWideCellReplacedByNarrowOnesSendsBothColumns() {
        var before = Screen(size: Size(columns: 4, rows: 1))
        before.draw("日x", at: .zero)
        var after = before
        after.draw("ab", at: .zero)
        let runs = after.changes(since: before)
        #expect(runs == [CellRun(origin: .zero, cells: [Cell("a"), Cell("b")])])
    }

    @Test func aResizedFrameIsSentWhole() {
        let before = Screen(size: Size(columns: 3, rows: 1))
        let after = Screen(size: Size(columns: 4, rows: 1))
        #expect(after.changes(since: before).map(\.cells.count) == [4])
    }
}
