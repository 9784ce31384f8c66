/// A rectangle of cells: `origin` is its top-left cell. Rectangles are half-open: `maxColumn` and `maxRow` lie
/// just outside.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    public var origin: Point
    public var size: Size

    public init(origin: Point, size: Size) {
        self.origin = origin
        self.size = size
    }

    public init(column: Int, row: Int, columns: Int, rows: Int) {
        self.init(origin: Point(column: column, row: row), size: Size(columns: columns, rows: rows))
    }

    public var minColumn: Int { origin.column }
    public var minRow: Int { origin.row }
    public var maxColumn: Int { origin.column + size.columns }
    public var maxRow: Int { origin.row + size.rows }
    public var isEmpty: Bool { size.isEmpty }

    public func contains(_ point: Point) -> Bool {
        (minColumn..<maxColumn).contains(point.column) && (minRow..<maxRow).contains(point.row)
    }

    /// The cells both rectangles cover; empty (at the clamped origin) when they do not overlap.
    public func intersection(_ other: Rect) -> Rect {
        let left = max(minColumn, other.minColumn), top = max(minRow, other.minRow)
        let right = min(maxColumn, other.maxColumn), bottom = min(maxRow, other.maxRow)
        return Rect(column: left, row: top, columns: right - left, rows: bottom - top)
    }

    /// The rectangle shrunk by `amount` cells on every side (a box's interior), never below zero size.
    public func inset(by amount: Int) -> Rect {
        Rect(column: minColumn + amount, row: minRow + amount,
             columns: size.columns - 2 * amount, rows: size.rows - 2 * amount)
    }

    /// Splits off the top `count` rows: returns them and the rest.
    public func splitTop(_ count: Int) -> (top: Rect, rest: Rect) {
        let taken = min(max(0, count), size.rows)
        return (Rect(column: minColumn, row: minRow, columns: size.columns, rows: taken),
                Rect(column: minColumn, row: minRow + taken, columns: size.columns, rows: size.rows - taken))
    }

    /// Splits off the bottom `count` rows: returns the rest and them.
    public func splitBottom(_ count: Int) -> (rest: Rect, bottom: Rect) {
        let taken = min(max(0, count), size.rows)
        return (Rect(column: minColumn, row: minRow, columns: size.columns, rows: size.rows - taken),
                Rect(column: minColumn, row: maxRow - taken, columns: size.columns, rows: taken))
    }

    /// Splits off the left `count` columns: returns them and the rest.
    public func splitLeft(_ count: Int) -> (left: Rect, rest: Rect) {
        let taken = min(max(0, count), size.columns)
        return (Rect(column: minColumn, row: minRow, columns: taken, rows: size.rows),
                Rect(column: minColumn + taken, row: minRow, columns: size.columns - taken, rows: size.rows))
    }

    public var description: String { "\(origin) \(size)" }
}
