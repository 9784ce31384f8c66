import ArgumentParser
import Foundation
import StoreAccess
import TerminalText

/// The output formats of `query` and `aggregate`.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case table, csv, json, jsonl
}

/// Writes rows as they come, so a million rows stream with flat memory. Every format is safe for control
/// characters in the data: tables and CSV pass the sanitiser; JSON escapes C0 controls itself, and on a terminal
/// also C1 controls, DEL, bidi and invisible format characters (`TerminalSanitizer.escapeForJSON`). Into a file
/// or a pipe JSON carries the data's own characters.
final class ResultWriter {
    private let format: OutputFormat
    private let columns: [String]
    private var widths: [Int] = []
    private var pending: [[Any?]] = []
    private var rowsWritten = 0
    private let output = FileHandle.standardOutput
    private var buffer = Data()
    /// Table rows are held until this many have arrived, to size the columns to their content.
    private let sizingSample = 200
    /// Whether JSON is escaped for a terminal: standard output is one.
    private let escapesJSONForTerminal = isatty(STDOUT_FILENO) != 0

    init(format: OutputFormat, columns: [String]) {
        self.format = format
        self.columns = columns
        switch format {
        case .csv: emit(columns.map(csvField).joined(separator: ",") + "\r\n")
        case .json: emit("[")
        case .table, .jsonl: break
        }
    }

    func write(_ values: [Any?]) throws {
        switch format {
        case .table:
            if widths.isEmpty {
                pending.append(values)
                if pending.count >= sizingSample { flushPendingTableRows() }
            } else {
                emit(tableLine(values.map { TerminalSanitizer.sanitize(ValueFormatting.text($0)) }))
            }
        case .csv:
            emit(values.map { csvField(TerminalSanitizer.sanitize(ValueFormatting.text($0), layout: .multiLine)) }.joined(separator: ",") + "\r\n")
        case .json, .jsonl:
            var object: [String: Any] = [:]
            for (column, value) in zip(columns, values) { object[column] = ValueFormatting.json(value) }
            let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
            let serialized = String(decoding: data, as: UTF8.self)
            let line = escapesJSONForTerminal ? TerminalSanitizer.escapeForJSON(serialized) : serialized
            if format == .json { emit((rowsWritten == 0 ? "\n  " : ",\n  ") + line) } else { emit(line + "\n") }
        }
        rowsWritten += 1
        if buffer.count > 64 * 1024 { flush() }
    }

    func finish() {
        switch format {
        case .table: flushPendingTableRows()
        case .json: emit(rowsWritten == 0 ? "]\n" : "\n]\n")
        case .csv, .jsonl: break
        }
        flush()
    }

    // MARK: Tables

    private func flushPendingTableRows() {
        guard widths.isEmpty else { return }
        let cells = pending.map { $0.map { TerminalSanitizer.sanitize(ValueFormatting.text($0)) } }
        var natural = columns.map { DisplayWidth.of(TerminalSanitizer.sanitize($0)) }
        for row in cells {
            for (index, cell) in row.enumerated() where index < natural.count {
                natural[index] = max(natural[index], DisplayWidth.of(cell))
            }
        }
        widths = Self.fit(natural, into: TerminalSize.columns)
        emit(tableLine(columns.map { TerminalSanitizer.sanitize($0) }))
        emit(tableLine(widths.map { String(repeating: "─", count: $0) }))
        for row in cells { emit(tableLine(row)) }
        pending.removeAll()
    }

    private func tableLine(_ cells: [String]) -> String {
        zip(cells, widths).map { DisplayWidth.pad($0, toWidth: $1) }.joined(separator: "  ") + "\n"
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

    // MARK: Output

    private func csvField(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    private func emit(_ text: String) {
        buffer.append(contentsOf: text.utf8)
    }

    private func flush() {
        output.write(buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}

/// The terminal's width, when standard output is a terminal.
enum TerminalSize {
    static var columns: Int? {
        if let text = ProcessInfo.processInfo.environment["COLUMNS"], let columns = Int(text), columns > 0 { return columns }
        guard isatty(STDOUT_FILENO) != 0 else { return nil }
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }
}
