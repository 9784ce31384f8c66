import Foundation
import TerminalText

/// Writes rows as they come, straight into a byte buffer, so any number of rows streams with flat memory.
///
/// Into a file or a pipe, CSV, TSV and JSON carry the store's exact values (RFC 4180 quotes, TSV escapes, JSON
/// escapes). On a terminal every string passes the one sanitiser (`TerminalSanitizer`): CSV and TSV cells are
/// sanitised, and JSON escapes what the sanitiser would change (`TerminalSanitizer.escapeForJSON`), so it stays
/// valid JSON of the exact data. Tables and Markdown are for reading and are always sanitised.
final class ResultWriter {
    private let settings: OutputSettings
    private let columns: [String]
    private var out = OutputBuffer()
    private var rowsWritten = 0
    /// `"name":` of each column, escaped once.
    private var jsonKeys: [[UInt8]] = []
    private var table: TableLayout?

    init(columns: [String], settings: OutputSettings) {
        self.settings = settings
        self.columns = columns
        switch settings.format {
        case .csv, .tsv:
            if settings.header { writeDelimitedRow(columns.map { CellValue.string($0) }, into: &out) }
        case .json, .jsonl:
            jsonKeys = columns.map { column in
                var key = OutputBuffer.scratch()
                key.appendJSONString(column, forTerminal: settings.isTerminal)
                key.append(UInt8(ascii: ":"))
                return key.bytes
            }
            if settings.format == .json { out.append("[" as StaticString) }
        case .markdown:
            writeMarkdownRow(columns.map { CellValue.string($0) }, into: &out)
            out.append("|" as StaticString)
            for _ in columns { out.append(" --- |" as StaticString) }
            out.append(0x0A)
        case .table:
            table = TableLayout(columns: columns, header: settings.header)
        }
    }

    func write(_ row: [CellValue]) {
        // The row is written into `out` as one access (the formats take it `inout`), not one per value.
        switch settings.format {
        case .csv, .tsv: writeDelimitedRow(row, into: &out)
        case .json:
            out.append(rowsWritten == 0 ? "\n  " as StaticString : ",\n  " as StaticString)
            writeJSONObject(row, into: &out)
        case .jsonl:
            writeJSONObject(row, into: &out)
            out.append(0x0A)
        case .markdown: writeMarkdownRow(row, into: &out)
        case .table:
            if table!.isSized {
                table!.write(row, dates: settings.dates, text: { cellText($0, binaryAsBase64: false) }, into: &out)
            } else {
                table!.add(row.map { cellText($0, binaryAsBase64: false) }, into: &out)
            }
        }
        rowsWritten += 1
        if out.isFull { out.flush() }
    }

    func finish() {
        switch settings.format {
        case .table: table!.finish(into: &out)
        case .json: out.append(rowsWritten == 0 ? "]\n" as StaticString : "\n]\n" as StaticString)
        case .csv, .tsv, .jsonl, .markdown: break
        }
        out.flush()
    }

    // MARK: Delimited text

    private func writeDelimitedRow(_ row: [CellValue], into out: inout OutputBuffer) {
        let csv = settings.format == .csv
        for index in row.indices {
            if index > 0 { out.append(csv ? UInt8(ascii: ",") : 0x09) }
            switch row[index] {
            case .integer(let value): out.append(integer: value)
            case .double(let value) where value.isFinite: out.append(double: value)
            // Numbers and dates never need quotes or escapes, nor sanitising.
            case .date(let date): out.append(date: date, style: settings.dates)
            case .string(let text) where !settings.isTerminal:
                if csv { out.appendCSVField(text) } else { out.appendTSVField(text) }
            case let cell:
                var text = cellText(cell, binaryAsBase64: true)
                if settings.isTerminal { text = Self.sanitize(text, layout: csv ? .multiLine : .singleLine) }
                if csv { out.appendCSVField(text) } else { out.appendTSVField(text) }
            }
        }
        if csv { out.append("\r\n" as StaticString) } else { out.append(0x0A) }
    }

    private func writeMarkdownRow(_ row: [CellValue], into out: inout OutputBuffer) {
        out.append("|" as StaticString)
        for cell in row {
            out.append(0x20)
            let text = Self.sanitize(cellText(cell, binaryAsBase64: false), layout: .singleLine)
            if text.utf8.contains(UInt8(ascii: "|")) || text.utf8.contains(UInt8(ascii: "\\")) {
                out.append(text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "|", with: "\\|"))
            } else {
                out.append(text)
            }
            out.append(" |" as StaticString)
        }
        out.append(0x0A)
    }

    /// A cell as one piece of text, unsanitised: dates in the chosen style, binary data as base64 or a size note.
    private func cellText(_ cell: CellValue, binaryAsBase64: Bool) -> String {
        switch cell {
        case .null: return settings.nullText
        case .integer(let value): return String(value)
        case .double(let value):
            var digits = OutputBuffer.scratch()
            digits.append(double: value)
            return String(decoding: digits.bytes, as: UTF8.self)
        case .boolean(let value): return value ? "true" : "false"
        case .string(let text), .text(let text, _): return text
        case .date(let date):
            var digits = OutputBuffer.scratch()
            digits.append(date: date, style: settings.dates)
            return String(decoding: digits.bytes, as: UTF8.self)
        case .data(let data): return binaryAsBase64 ? data.base64EncodedString() : "<\(data.count) bytes>"
        case .reference(_, let label): return label
        case .references(let objects): return "\(objects.count) object\(objects.count == 1 ? "" : "s")"
        }
    }

    /// The sanitiser, skipped for printable ASCII, which it would return unchanged.
    static func sanitize(_ text: String, layout: TerminalSanitizer.Layout) -> String {
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text }
        return TerminalSanitizer.sanitize(text, layout: layout)
    }

    // MARK: JSON

    private func writeJSONObject(_ row: [CellValue], into out: inout OutputBuffer) {
        out.append(UInt8(ascii: "{"))
        for (index, cell) in row.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            jsonKeys[index].withUnsafeBufferPointer { out.append(contentsOf: $0) }
            writeJSONValue(cell, into: &out)
        }
        out.append(UInt8(ascii: "}"))
    }

    private func writeJSONValue(_ cell: CellValue, into out: inout OutputBuffer) {
        let terminal = settings.isTerminal
        switch cell {
        case .null: out.append("null" as StaticString)
        case .integer(let value): out.append(integer: value)
        case .double(let value):
            if value.isFinite { out.append(double: value) } else { out.appendJSONString(value.description, forTerminal: false) }
        case .boolean(let value): out.append(value ? "true" as StaticString : "false" as StaticString)
        case .string(let text): out.appendJSONString(text, forTerminal: terminal)
        case .text(let text, let isNumber):
            if isNumber, Double(text)?.isFinite == true { out.append(text) } else { out.appendJSONString(text, forTerminal: terminal) }
        case .date(let date):
            if settings.dates == .iso { out.append(UInt8(ascii: "\"")) }
            out.append(date: date, style: settings.dates)
            if settings.dates == .iso { out.append(UInt8(ascii: "\"")) }
        case .data(let data): out.appendJSONString(data.base64EncodedString(), forTerminal: false)
        case .reference(let uri, let label): writeJSONReference(uri: uri, label: label, into: &out)
        case .references(let objects):
            out.append(UInt8(ascii: "["))
            for (index, object) in objects.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                writeJSONReference(uri: object.uri, label: object.label, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        }
    }

    private func writeJSONReference(uri: String, label: String, into out: inout OutputBuffer) {
        out.append("{\"uri\":" as StaticString)
        out.appendJSONString(uri, forTerminal: settings.isTerminal)
        out.append(",\"label\":" as StaticString)
        out.appendJSONString(label, forTerminal: settings.isTerminal)
        out.append(UInt8(ascii: "}"))
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
