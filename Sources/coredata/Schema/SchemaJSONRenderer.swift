import Foundation

/// The JSON form of a `SchemaReport`: sorted keys and pretty printing, so output is stable for scripts and diffs.
/// JSON escapes control characters itself, so no sanitising is needed here.
enum SchemaJSONRenderer {
    static func render(_ report: SchemaReport) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(report), as: UTF8.self)
    }
}
