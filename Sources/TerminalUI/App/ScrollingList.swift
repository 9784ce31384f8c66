/// The scroll state of a list of `count` rows with a selected row, and the keys that move it: `j`/`k` and the
/// arrows, PgDn/PgUp and Ctrl-F/Ctrl-B, Ctrl-D/Ctrl-U (half a page), `g`/Home and `G`/End, and the mouse wheel.
public struct ScrollingList: Hashable, Sendable {
    /// The number of rows.
    public var count: Int {
        didSet { clamp() }
    }
    /// The rows visible at once.
    public var visibleRows: Int {
        didSet { clamp() }
    }
    /// The selected row, or 0 in an empty list.
    public private(set) var selection = 0
    /// The first visible row.
    public private(set) var top = 0

    public init(count: Int, visibleRows: Int = 1) {
        self.count = max(0, count)
        self.visibleRows = max(0, visibleRows)
    }

    /// Moves for `key`; returns false for keys the list does not use.
    public mutating func handle(_ key: Key) -> Bool {
        let page = max(1, visibleRows)
        switch key {
        case .character("j"), .down: select(selection + 1)
        case .character("k"), .up: select(selection - 1)
        case .pageDown, .control("f"), .character(" "): select(selection + page, scrollingBy: page)
        case .pageUp, .control("b"): select(selection - page, scrollingBy: -page)
        case .control("d"): select(selection + max(1, page / 2), scrollingBy: max(1, page / 2))
        case .control("u"): select(selection - max(1, page / 2), scrollingBy: -max(1, page / 2))
        case .character("g"), .home: select(0)
        case .character("G"), .end: select(count - 1)
        case .mouse(let event) where event.kind == .wheelDown: select(selection + 3, scrollingBy: 3)
        case .mouse(let event) where event.kind == .wheelUp: select(selection - 3, scrollingBy: -3)
        default: return false
        }
        return true
    }

    /// Selects `row` (clamped) and scrolls it into view.
    public mutating func select(_ row: Int) {
        selection = row
        clamp()
    }

    /// Selects `row` and scrolls the view by `offset` rows too, as pagers do for a page key.
    private mutating func select(_ row: Int, scrollingBy offset: Int) {
        top += offset
        select(row)
    }

    private mutating func clamp() {
        selection = min(max(0, selection), max(0, count - 1))
        top = min(max(0, top), max(0, count - visibleRows))
        if selection < top { top = selection }
        if visibleRows > 0, selection >= top + visibleRows { top = selection - visibleRows + 1 }
    }

    /// Draws the visible rows into `rect`, each from `line(index)`, the selection as a reverse bar.
    public func render(into screen: inout Screen, in rect: Rect, theme: Theme, line: (Int) -> String) {
        for offset in 0..<rect.size.rows {
            let index = top + offset
            guard index < count else { break }
            let rowRect = Rect(column: rect.minColumn, row: rect.minRow + offset, columns: rect.size.columns, rows: 1)
            if index == selection {
                screen.drawBar(line(index), in: rowRect, style: theme.selection)
            } else {
                screen.drawField(line(index), in: rowRect, style: theme.normal)
            }
        }
    }
}
