import TerminalText

/// A table of sanitised cells: the first rows are held to size the columns to their content (at most 60 wide,
/// shrunk to the terminal), then every row is written as it comes, padded or cut with an ellipsis.
struct TableLayout {
    private let columns: [String]
    private let header: Bool
    private var widths: [Int] = []
    private var pending: [[String]] = []
    /// Rows held until this many have arrived, to size the columns.
    private let sizingSample = 200

    init(columns: [String], header: Bool) {
        self.columns = columns.map { ResultWriter.sanitize($0, layout: .singleLine) }
        self.header = header
    }

    mutating func add(_ row: [String], into out: inout OutputBuffer) {
        let cells = row.map { ResultWriter.sanitize($0, layout: .singleLine) }
        if widths.isEmpty {
            pending.append(cells)
            if pending.count >= sizingSample { flushPending(into: &out) }
        } else {
            writeLine(cells, into: &out)
        }
    }

    mutating func finish(into out: inout OutputBuffer) {
        flushPending(into: &out)
    }

    private mutating func flushPending(into out: inout OutputBuffer) {
        guard widths.isEmpty else { return }
        var natural = header ? columns.map { DisplayWidth.of($0) } : columns.map { _ in 1 }
        for row in pending {
            for (index, cell) in row.enumerated() where index < natural.count {
                natural[index] = max(natural[index], Self.width(of: cell))
            }
        }
        widths = Self.fit(natural, into: TerminalSize.columns)
        if header {
            writeLine(columns, into: &out)
            writeLine(widths.map { String(repeating: "─", count: $0) }, into: &out)
        }
        for row in pending { writeLine(row, into: &out) }
        pending.removeAll()
    }

    private static func width(of cell: String) -> Int {
        cell.utf8.allSatisfy({ $0 < 0x80 }) ? cell.utf8.count : DisplayWidth.of(cell)
    }

    /// Whether the columns are sized, so rows go out as they come (``write(_:dates:text:into:)``).
    var isSized: Bool { !widths.isEmpty }

    /// A row once the columns are sized: numbers, dates and booleans are written straight into the buffer (their
    /// text is printable ASCII, one column a byte, which the sanitiser leaves as it is) and padded by the bytes
    /// written; other cells become text (`text`), sanitised. No string or array is made for the common cells.
    mutating func write(_ row: [CellValue], dates: DateStyle, text: (CellValue) -> String, into out: inout OutputBuffer) {
        for index in 0..<min(row.count, widths.count) {
            if index > 0 { out.append("  " as StaticString) }
            let width = widths[index]
            let start = out.count
            switch row[index] {
            case .integer(let value): out.append(integer: value)
            case .double(let value): out.append(double: value)
            case .date(let date): out.append(date: date, style: dates)
            case .boolean(let value): out.append(value ? "true" as StaticString : "false" as StaticString)
            case .string(let string):
                writeCell(ResultWriter.sanitize(string, layout: .singleLine), width: width, into: &out)
                continue
            case let cell:
                writeCell(ResultWriter.sanitize(text(cell), layout: .singleLine), width: width, into: &out)
                continue
            }
            let written = out.count - start
            if written <= width {
                out.append(repeating: 0x20, count: width - written)
            } else {
                // Wider than its column: cut with an ellipsis, as text.
                let cell = out.removeLast(written)
                out.append(DisplayWidth.pad(cell, toWidth: width))
            }
        }
        out.append(0x0A)
    }

    private func writeLine(_ cells: [String], into out: inout OutputBuffer) {
        for (index, (cell, width)) in zip(cells, widths).enumerated() {
            if index > 0 { out.append("  " as StaticString) }
            writeCell(cell, width: width, into: &out)
        }
        out.append(0x0A)
    }

    /// A sanitised cell, padded or cut to `width`.
    private func writeCell(_ cell: String, width: Int, into out: inout OutputBuffer) {
        // Printable ASCII (what the sanitiser leaves of most data) is one column a byte.
        if cell.utf8.allSatisfy({ $0 < 0x80 }) {
            let count = cell.utf8.count
            if count <= width {
                out.append(cell)
                out.append(repeating: 0x20, count: width - count)
                return
            }
        }
        out.append(DisplayWidth.pad(cell, toWidth: width))
    }

    /// Shrinks the widest columns first until the row fits the terminal (each keeps at least 4 columns).
    static func fit(_ natural: [Int], into available: Int?) -> [Int] {
        var widths = natural.map { min($0, 60) }
        guard let available else { return natural }
        let separators = 2 * max(0, widths.count - 1)
        while widths.reduce(0, +) + separators > available, let widest = widths.indices.max(by: { widths[$0] < widths[$1] }),
              widths[widest] > 4 {
            widths[widest] -= 1
        }
        return widths
    }
}
