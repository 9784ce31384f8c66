import TerminalText
import Testing
@testable import TerminalUI

struct ScreenTests {
    @Test func textIsClippedToTheRect() {
        var screen = Screen(size: Size(columns: 10, rows: 3))
        let clip = Rect(column: 2, row: 1, columns: 4, rows: 1)
        let advanced = screen.draw("abcdefgh", at: Point(column: 1, row: 1), clip: clip)
        #expect(advanced == 5)  // stops at the clip's right edge
        #expect(screen.lines() == ["", "  bcde", ""])
        screen.draw("zzz", at: Point(column: 0, row: 0), clip: clip)  // row outside the clip
        #expect(screen.lines()[0] == "")
    }

    @Test func wideCharacterCutAtTheRightEdgeBecomesABlank() {
        var screen = Screen(size: Size(columns: 5, rows: 1))
        screen.draw("ab日本", at: .zero)
        #expect(screen.lines() == ["ab日"])
        #expect(screen[4, 0] == .blank)
        #expect(screen[2, 0]?.isWide == true)
        #expect(screen[3, 0]?.isContinuation == true)
    }

    @Test func wideCharacterStraddlingTheLeftClipEdgeShowsABlank() {
        var screen = Screen(size: Size(columns: 6, rows: 1))
        screen.draw("日本語", at: Point(column: -1, row: 0), clip: screen.bounds)
        #expect(screen.lines(trimming: false) == [" 本語 "])
    }

    @Test func overwritingHalfAWideCharacterBlanksTheOtherHalf() {
        var screen = Screen(size: Size(columns: 6, rows: 1))
        screen.draw("日本語", at: .zero)
        screen.draw("x", at: Point(column: 1, row: 0))   // the continuation of 日
        #expect(screen.lines() == [" x本語"])
        screen.draw("y", at: Point(column: 2, row: 0))   // the lead of 本
        #expect(screen.lines() == [" xy 語"])
        #expect(screen.cells.filter(\.isContinuation).count == 1)
    }

    @Test func combiningAndZeroWidthTextTakesItsMeasuredColumns() {
        var screen = Screen(size: Size(columns: 10, rows: 1))
        let advanced = screen.draw("e\u{301}ab👍🏽👩\u{200D}👧", at: .zero)
        #expect(advanced == DisplayWidth.of("e\u{301}ab👍🏽👩\u{200D}👧"))
        #expect(screen.lines() == ["e\u{301}ab👍🏽👩\u{200D}👧"])
    }

    /// Issue 16: a zero-width space or byte-order mark in data no longer hides in the text.
    @Test func invisibleCharactersAreShownWhenDrawn() {
        var screen = Screen(size: Size(columns: 30, rows: 1))
        screen.draw("a\u{200B}b\u{FEFF}c\u{2060}", at: .zero)
        #expect(screen.lines() == ["a<U+200B>b<U+FEFF>c<U+2060>"])
    }

    @Test func controlCharactersAreSanitisedWhenDrawn() {
        var screen = Screen(size: Size(columns: 20, rows: 1))
        screen.draw("a\u{1B}[2Jb\u{7}", at: .zero)
        #expect(screen.lines() == ["a␛[2Jb␇"])
    }

    @Test func boxesBarsAndSeparators() {
        var screen = Screen(size: Size(columns: 12, rows: 5))
        screen.drawBox(Rect(column: 0, row: 0, columns: 12, rows: 4), title: "Recipes")
        screen.drawBar("status", in: Rect(column: 0, row: 4, columns: 12, rows: 1))
        #expect(screen.lines() == [
            "┌─Recipes──┐",
            "│          │",
            "│          │",
            "└──────────┘",
            "status",
        ])
        #expect(screen[11, 4]?.style == .reverse)  // the bar fills the whole row
        screen.drawVerticalLine(in: Rect(column: 5, row: 1, columns: 1, rows: 2))
        #expect(screen.lines()[1] == "│    │     │")
    }

    @Test func boxTooSmallToDrawIsSkipped() {
        var screen = Screen(size: Size(columns: 1, rows: 1))
        screen.drawBox(screen.bounds, title: "x")
        #expect(screen.lines() == [""])
    }

    @Test func drawingOnEmptyScreensDoesNothing() {
        for size in [Size(columns: 0, rows: 0), Size(columns: 0, rows: 5), Size(columns: 5, rows: 0)] {
            var screen = Screen(size: size)
            screen.draw("日本", at: .zero)
            screen.fill(screen.bounds, with: Cell("x"))
            screen.drawBox(Rect(column: 0, row: 0, columns: 10, rows: 10))
            screen.drawBar("status", in: screen.bounds)
            #expect(screen.cells.isEmpty)
        }
        #expect(Size(columns: -3, rows: 2) == Size(columns: 0, rows: 2))
    }

    @Test func fieldsOfATableLineUp() {
        var screen = Screen(size: Size(columns: 14, rows: 3))
        let rows = [("日本", "x"), ("cafe\u{301}", "y"), ("ｈｅｌｌｏ!", "z")]
        for (index, row) in rows.enumerated() {
            screen.drawField(row.0, in: Rect(column: 0, row: index, columns: 6, rows: 1))
            screen.drawField(row.1, in: Rect(column: 6, row: index, columns: 2, rows: 1))
        }
        // The second column starts at column 6 on every row.
        for row in 0..<3 {
            #expect(screen[6, row]?.character != " ")
        }
    }
}
