import Foundation
import TerminalText

/// The JSON form of a `SchemaReport`: sorted keys and pretty printing, so output is stable for scripts and diffs.
/// The encoder escapes C0 controls; on a terminal C1 controls, DEL, bidi and invisible format characters in names
/// are escaped too (`TerminalSanitizer.escapeForJSON`), which keeps the JSON valid and its data exact.
enum SchemaJSONRenderer {
    static func render(_ report: SchemaReport, forTerminal: Bool = isatty(STDOUT_FILENO) != 0) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let json = String(decoding: try encoder.encode(report), as: UTF8.self)
        return forTerminal ? TerminalSanitizer.escapeForJSON(json) : json
    }
}
