import CoreDataModel
import Foundation
import PropertyListCoding
import StoreAccess

/// Full values for the detail pane: text as it is (the view wraps it), binary data as size and hex, transformable
/// values decoded from their keyed archive where possible.
enum DetailValueText {
    static let hexPreviewBytes = 48

    static func text(_ value: Any?, type: NSAttributeType) -> String {
        guard let value else { return "" }
        guard let data = value as? Data else { return ValueFormatting.text(value) }
        if type == .transformableAttributeType, let decoded = decodedArchive(data) {
            return decoded
        }
        return hex(data)
    }

    /// `48 bytes: 89 50 4e 47 …`.
    static func hex(_ data: Data) -> String {
        let shown = data.prefix(hexPreviewBytes).map { byte in
            let digits = String(byte, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }.joined(separator: " ")
        return "\(data.count) bytes: " + shown + (data.count > hexPreviewBytes ? " …" : "")
    }

    /// The root object of an NSKeyedArchiver archive, described; nil when the data is not one.
    static func decodedArchive(_ data: Data) -> String? {
        guard let archive = try? KeyedArchive(data: data), let root = try? archive.plainTopValue() else { return nil }
        return describe(root)
    }

    private static func describe(_ value: PropertyListValue) -> String {
        switch value {
        case .string(let string): return string
        case .integer(let number): return String(number)
        case .unsignedInteger(let number): return String(number)
        case .real(let number): return String(number)
        case .bool(let flag): return flag ? "true" : "false"
        case .date(let date): return ValueFormatting.text(date)
        case .data(let bytes): return hex(bytes)
        case .array(let items): return "[" + items.map(describe).joined(separator: ", ") + "]"
        case .dictionary(let entries):
            return "{" + entries.keys.sorted().map { "\($0): \(describe(entries[$0]!))" }.joined(separator: ", ") + "}"
        case .uid(let uid): return "uid \(uid)"
        case .null: return "nil"
        }
    }
}
