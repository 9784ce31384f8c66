/// A terminal or region size in cells. Negative dimensions are clamped to zero: a terminal can report 0 columns.
public struct Size: Hashable, Sendable, CustomStringConvertible {
    public var columns: Int
    public var rows: Int

    public init(columns: Int, rows: Int) {
        self.columns = max(0, columns)
        self.rows = max(0, rows)
    }

    public static let zero = Size(columns: 0, rows: 0)

    /// True when there is no cell to draw into.
    public var isEmpty: Bool { columns == 0 || rows == 0 }

    public var description: String { "\(columns)x\(rows)" }
}
