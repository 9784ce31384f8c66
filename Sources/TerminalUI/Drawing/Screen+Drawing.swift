import TerminalText

/// The line-drawing characters of boxes and separators.
public enum BoxCharacters {
    public static let horizontal: Character = "─"
    public static let vertical: Character = "│"
    public static let topLeft: Character = "┌"
    public static let topRight: Character = "┐"
    public static let bottomLeft: Character = "└"
    public static let bottomRight: Character = "┘"
}

extension Screen {
    /// Draws `text` on one row starting at `point`, clipped to `clip` (the whole screen by default), and returns
    /// the number of columns it advanced. The text is sanitised first: control characters, escape sequences and
    /// bidi controls are drawn as visible symbols; zero-width clusters take no cell.
    @discardableResult
    public mutating func draw(_ text: String, at point: Point, style: Style = .plain, clip: Rect? = nil) -> Int {
        let area = clip.map { $0.intersection(bounds) } ?? bounds
        guard (area.minRow..<area.maxRow).contains(point.row) else { return 0 }
        var column = point.column
        for character in TerminalSanitizer.sanitize(text, layout: .singleLine) {
            let width = DisplayWidth.of(character)
            guard width > 0 else { continue }
            if column >= area.maxColumn { break }
            if column + width > area.minColumn {
                if column < area.minColumn {
                    // A wide cluster straddling the left edge of the clip: show the visible half as a blank.
                    put(.blank(style), at: Point(column: area.minColumn, row: point.row), clip: area)
                } else {
                    put(Cell(character, style: style), at: Point(column: column, row: point.row), clip: area)
                }
            }
            column += width
        }
        return column - point.column
    }

    /// Draws `text` in a `rect.size.columns`-wide field on the first row of `rect`, truncated with an ellipsis or
    /// padded with spaces in `style`, so that neighbouring fields line up.
    public mutating func drawField(_ text: String, in rect: Rect, style: Style = .plain,
                                   alignment: DisplayWidth.Alignment = .left) {
        guard !rect.isEmpty else { return }
        let safe = TerminalSanitizer.sanitize(text, layout: .singleLine)
        draw(DisplayWidth.pad(safe, toWidth: rect.size.columns, alignment: alignment),
             at: rect.origin, style: style, clip: rect)
    }

    /// Fills `rect` with `cell`.
    public mutating func fill(_ rect: Rect, with cell: Cell = .blank) {
        let area = rect.intersection(bounds)
        guard !area.isEmpty else { return }
        let step = cell.isWide ? 2 : 1
        for row in area.minRow..<area.maxRow {
            for column in stride(from: area.minColumn, to: area.maxColumn, by: step) {
                put(cell, at: Point(column: column, row: row), clip: area)
            }
        }
    }

    /// A full-width bar on the first row of `rect` (a status line, a selected row): the row is filled with
    /// `style`, typically reverse video, and `text` is drawn on it.
    public mutating func drawBar(_ text: String, in rect: Rect, style: Style = .reverse,
                                 alignment: DisplayWidth.Alignment = .left) {
        let row = rect.splitTop(1).top
        fill(row, with: .blank(style))
        drawField(text, in: row, style: style, alignment: alignment)
    }

    /// A horizontal separator across `rect`'s first row.
    public mutating func drawHorizontalLine(in rect: Rect, style: Style = .plain) {
        fill(rect.splitTop(1).top, with: Cell(BoxCharacters.horizontal, style: style))
    }

    /// A vertical separator down `rect`'s first column.
    public mutating func drawVerticalLine(in rect: Rect, style: Style = .plain) {
        fill(rect.splitLeft(1).left, with: Cell(BoxCharacters.vertical, style: style))
    }

    /// A box around the edge of `rect`, with an optional title in its top edge. Rectangles smaller than 2x2 get
    /// no box.
    public mutating func drawBox(_ rect: Rect, style: Style = .plain, title: String? = nil) {
        guard rect.size.columns >= 2, rect.size.rows >= 2 else { return }
        let right = rect.maxColumn - 1, bottom = rect.maxRow - 1
        drawHorizontalLine(in: Rect(column: rect.minColumn, row: rect.minRow, columns: rect.size.columns, rows: 1), style: style)
        drawHorizontalLine(in: Rect(column: rect.minColumn, row: bottom, columns: rect.size.columns, rows: 1), style: style)
        drawVerticalLine(in: Rect(column: rect.minColumn, row: rect.minRow, columns: 1, rows: rect.size.rows), style: style)
        drawVerticalLine(in: Rect(column: right, row: rect.minRow, columns: 1, rows: rect.size.rows), style: style)
        put(Cell(BoxCharacters.topLeft, style: style), at: rect.origin)
        put(Cell(BoxCharacters.topRight, style: style), at: Point(column: right, row: rect.minRow))
        put(Cell(BoxCharacters.bottomLeft, style: style), at: Point(column: rect.minColumn, row: bottom))
        put(Cell(BoxCharacters.bottomRight, style: style), at: Point(column: right, row: bottom))
        if let title, rect.size.columns > 4 {
            let titleArea = Rect(column: rect.minColumn + 2, row: rect.minRow, columns: rect.size.columns - 4, rows: 1)
            let fitted = DisplayWidth.truncate(TerminalSanitizer.sanitize(title), toWidth: titleArea.size.columns)
            draw(fitted, at: titleArea.origin, style: style.adding(.bold), clip: titleArea)
        }
    }
}
