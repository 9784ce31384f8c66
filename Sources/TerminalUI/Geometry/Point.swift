/// A position on the terminal, in cells: `column` from the left edge, `row` from the top, both zero-based.
public struct Point: Hashable, Sendable, CustomStringConvertible {
    public var column: Int
    public var row: Int

    public init(column: Int, row: Int) {
        self.column = column
        self.row = row
    }

    public static let zero = Point(column: 0, row: 0)

    public var description: String { "(\(column), \(row))" }
}
