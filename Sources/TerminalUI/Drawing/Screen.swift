/// A grid of cells that an application draws into before anything reaches a terminal.
///
/// Every frame is drawn into a fresh `Screen`; a `Terminal` then sends only the cells that differ from the frame
/// it drew last (`changes(since:)`). Drawing is clipped to the screen and, optionally, to a rectangle. Text
/// drawing passes every string through `TerminalSanitizer`, so no control or escape character can reach the grid.
public struct Screen: Hashable, Sendable {
    public let size: Size
    /// Row-major: the cell at (column, row) is `cells[row * size.columns + column]`.
    public private(set) var cells: [Cell]
    /// Where the terminal shows its cursor after drawing this screen; nil hides it.
    public var cursor: Point?

    /// A screen of `size` filled with `fill`.
    public init(size: Size, fill: Cell = .blank) {
        self.size = size
        self.cells = Array(repeating: fill.isWide ? .blank(fill.style) : fill, count: size.columns * size.rows)
    }

    /// The whole screen as a rectangle.
    public var bounds: Rect { Rect(origin: .zero, size: size) }

    /// The cell at `point`, or nil outside the screen.
    public subscript(point: Point) -> Cell? {
        guard bounds.contains(point) else { return nil }
        return cells[index(point)]
    }

    public subscript(column: Int, row: Int) -> Cell? { self[Point(column: column, row: row)] }

    /// Places `cell` at `point` if it lies within `clip` (the whole screen by default). A wide cell also takes the
    /// cell to its right; if that cell is outside the clip, a blank is drawn instead, so a wide character is never
    /// cut in half. Overwriting half of an existing wide cell blanks its other half.
    public mutating func put(_ cell: Cell, at point: Point, clip: Rect? = nil) {
        guard !cell.isContinuation else { return }
        let area = clip.map { $0.intersection(bounds) } ?? bounds
        guard area.contains(point) else { return }
        guard !cell.isWide || area.contains(Point(column: point.column + 1, row: point.row)) else {
            store(.blank(cell.style), at: point)
            return
        }
        store(cell, at: point)
        if cell.isWide {
            let right = Point(column: point.column + 1, row: point.row)
            breakWideCell(at: right)
            cells[index(right)] = .continuation(cell.style)
        }
    }

    /// The screen as plain text, one string per row, continuation cells omitted so that each row reads as the
    /// terminal shows it. Trailing spaces are trimmed unless `trimming` is false.
    public func lines(trimming: Bool = true) -> [String] {
        (0..<size.rows).map { row in
            var line = ""
            for column in 0..<size.columns {
                let cell = cells[row * size.columns + column]
                if !cell.isContinuation { line.append(cell.character) }
            }
            guard trimming else { return line }
            while line.last == " " { line.removeLast() }
            return line
        }
    }

    // MARK: Keeping wide cells whole

    private func index(_ point: Point) -> Int { point.row * size.columns + point.column }

    private mutating func store(_ cell: Cell, at point: Point) {
        breakWideCell(at: point)
        cells[index(point)] = cell
    }

    /// Blanks the other half of a wide cell about to be overwritten at `point`.
    private mutating func breakWideCell(at point: Point) {
        let existing = cells[index(point)]
        if existing.isContinuation, point.column > 0 {
            let left = Point(column: point.column - 1, row: point.row)
            cells[index(left)] = .blank(cells[index(left)].style)
        } else if existing.isWide, point.column + 1 < size.columns {
            let right = Point(column: point.column + 1, row: point.row)
            cells[index(right)] = .blank(existing.style)
        }
    }
}

