/// A run of adjacent cells on one row that a terminal must (re)draw.
public struct CellRun: Hashable, Sendable {
    /// The position of the first cell.
    public var origin: Point
    /// The cells, left to right; a wide cell is followed by its continuation, which a terminal does not write.
    public var cells: [Cell]

    public init(origin: Point, cells: [Cell]) {
        self.origin = origin
        self.cells = cells
    }

    /// The characters the run shows, continuation cells left out.
    public var text: String {
        String(cells.filter { !$0.isContinuation }.map(\.character))
    }
}

extension Screen {
    /// The runs of cells that differ from `previous`: every cell when there is no previous frame or its size
    /// differs, nothing when the frames are equal. A run never starts on the continuation of a wide cell.
    public func changes(since previous: Screen?) -> [CellRun] {
        guard let previous, previous.size == size else {
            return (0..<size.rows).compactMap { row in
                let start = row * size.columns
                return size.columns == 0 ? nil
                    : CellRun(origin: Point(column: 0, row: row), cells: Array(cells[start..<start + size.columns]))
            }
        }
        var runs: [CellRun] = []
        for row in 0..<size.rows {
            let start = row * size.columns
            var column = 0
            while column < size.columns {
                guard cells[start + column] != previous.cells[start + column] else {
                    column += 1
                    continue
                }
                var first = column
                if cells[start + first].isContinuation, first > 0 { first -= 1 }
                var end = column + 1
                while end < size.columns, cells[start + end] != previous.cells[start + end] || cells[start + end].isContinuation {
                    end += 1
                }
                runs.append(CellRun(origin: Point(column: first, row: row), cells: Array(cells[start + first..<start + end])))
                column = end
            }
        }
        return runs
    }
}
