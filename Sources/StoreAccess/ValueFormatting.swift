import CoreDataObjectGraph
import Foundation
import TerminalText

/// How values from the store are written in each output format. Text for terminals is always sanitised; JSON
/// escapes control characters itself.
package enum ValueFormatting {
    private static let dateStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    /// One line of text for a table cell or CSV field (not yet sanitised).
    package static func text(_ value: Any?) -> String {
        switch value {
        case nil: return ""
        case let string as String: return string
        case let bool as Bool: return bool ? "true" : "false"
        case let date as Date: return dateStyle.format(date)
        case let data as Data: return "<\(data.count) bytes>"
        case let uuid as UUID: return uuid.uuidString
        case let url as URL: return url.absoluteString
        case let decimal as Decimal: return decimal.description
        case let double as Double: return double.rounded() == double && abs(double) < 1e15 ? String(Int64(double)) : String(double)
        case let object as NSManagedObject: return object.objectID.uriRepresentation().absoluteString
        case let id as NSManagedObjectID: return id.uriRepresentation().absoluteString
        case let set as Set<NSManagedObject>: return "\(set.count) object\(set.count == 1 ? "" : "s")"
        case let array as [NSManagedObject]: return "\(array.count) object\(array.count == 1 ? "" : "s")"
        case let array as [Any]: return "[" + array.map { text($0) }.joined(separator: ", ") + "]"
        default: return String(describing: value!)
        }
    }

    /// A JSON-compatible value (strings, numbers, booleans, arrays, null).
    package static func json(_ value: Any?) -> Any {
        switch value {
        case nil: return NSNull()
        case let string as String: return string
        case let bool as Bool: return bool
        case let int as Int64: return int
        case let int as Int: return int
        case let double as Double: return double.isFinite ? double : String(double)
        case let float as Float: return Double(float)
        case let decimal as Decimal: return NSDecimalNumber(decimal: decimal)
        case let date as Date: return dateStyle.format(date)
        case let data as Data: return data.base64EncodedString()
        case let set as Set<NSManagedObject>: return set.map { $0.objectID.uriRepresentation().absoluteString }.sorted()
        case let array as [NSManagedObject]: return array.map { $0.objectID.uriRepresentation().absoluteString }
        case let array as [Any]: return array.map { json($0) }
        default: return text(value)
        }
    }
}
