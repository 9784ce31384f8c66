import Foundation
import PropertyListCoding

/// Conversions between `PropertyListValue` and the objects `PropertyListSerialization` produces, for the
/// differential tests against Foundation.
enum FoundationBridge {
    struct UnsupportedObject: Error, CustomStringConvertible {
        let description: String
    }

    /// The value Foundation decoded, as a `PropertyListValue`.
    static func value(of object: Any) throws -> PropertyListValue {
        if type(of: object) == Bool.self, let flag = object as? Bool { return .bool(flag) }
        if let string = object as? String { return .string(string) }
        if let data = object as? Data { return .data(data) }
        if let date = object as? Date { return .date(date) }
        if let number = object as? NSNumber {
            switch String(cString: number.objCType) {
            case "f", "d": return .real(number.doubleValue)
            // NSKeyedUnarchiver hands booleans back as NSNumber(value: Bool), whose type is `char`;
            // neither it nor PropertyListSerialization produces `char` for integers.
            case "c": return .bool(number.boolValue)
            case "Q": return .integer(exactly: number.uint64Value)
            default: return .integer(number.int64Value)
            }
        }
        if let array = object as? [Any] { return .array(try array.map(value(of:))) }
        if let dictionary = object as? [String: Any] { return .dictionary(try dictionary.mapValues(value(of:))) }
        throw UnsupportedObject(description: "unsupported Foundation object \(type(of: object))")
    }

    /// A Foundation object graph for `value`, for `PropertyListSerialization.data(fromPropertyList:)`.
    static func object(for value: PropertyListValue) throws -> Any {
        switch value {
        case .string(let string): return string
        case .integer(let integer): return NSNumber(value: integer)
        case .unsignedInteger(let integer): return NSNumber(value: integer)
        case .real(let real): return NSNumber(value: real)
        case .bool(let flag): return flag
        case .date(let date): return date
        case .data(let data): return data
        case .array(let elements): return try elements.map(object(for:)) as NSArray
        case .dictionary(let entries): return try entries.mapValues(object(for:)) as NSDictionary
        case .uid, .null: throw UnsupportedObject(description: "Foundation cannot write \(value.typeName)")
        }
    }

    /// Decodes `data` with `PropertyListSerialization`.
    static func foundationRead(_ data: Data) throws -> PropertyListValue {
        try value(of: PropertyListSerialization.propertyList(from: data, options: [], format: nil))
    }

    /// Encodes `value` with `PropertyListSerialization`.
    static func foundationWrite(_ value: PropertyListValue, format: PropertyListSerialization.PropertyListFormat) throws -> Data {
        try PropertyListSerialization.data(fromPropertyList: object(for: value), format: format, options: 0)
    }
}
