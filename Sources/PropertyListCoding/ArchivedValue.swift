import Foundation

/// A field of an archived object with its UIDs resolved one step: strings, numbers and data that the archiver
/// stored in `$objects` come back as values, `$null` as `.null`, and real objects as `.object` references that
/// the caller follows (or not) through `KeyedArchive.object(_:)`.
public enum ArchivedValue: Sendable, Hashable {
    /// `nil` in the archiving code: UID 0 (`$null`) or a binary null.
    case null
    /// A string (plain `NSString` values are stored as strings in `$objects`).
    case string(String)
    /// An integer (inline, or a plain `NSNumber` in `$objects`).
    case integer(Int64)
    /// An integer above `Int64.max`.
    case unsignedInteger(UInt64)
    /// A floating-point number.
    case real(Double)
    /// A boolean.
    case bool(Bool)
    /// A date stored as a plist date (archivers store `NSDate` as an object with `NS.time` instead).
    case date(Date)
    /// Bytes (plain `NSData` values are stored as data in `$objects`).
    case data(Data)
    /// An inline array, such as `NS.keys` and `NS.objects`, with each element resolved.
    case array([ArchivedValue])
    /// An inline dictionary with each value resolved (rare: archivers use objects for dictionaries).
    case dictionary([String: ArchivedValue])
    /// An archived object: a `$objects` entry with a `$class`.
    case object(ArchivedObjectReference)

    /// The string, when this is `.string`.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The integer, when this is an integer that fits in `Int64`.
    public var int64Value: Int64? {
        switch self {
        case .integer(let value): return value
        case .unsignedInteger(let value): return Int64(exactly: value)
        default: return nil
        }
    }

    /// The integer as `Int`, when this is an integer that fits.
    public var intValue: Int? { int64Value.flatMap { Int(exactly: $0) } }

    /// The number as `Double`, for reals and integers.
    public var doubleValue: Double? {
        switch self {
        case .real(let value): return value
        case .integer(let value): return Double(value)
        case .unsignedInteger(let value): return Double(value)
        default: return nil
        }
    }

    /// The boolean, when this is `.bool`.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The bytes, when this is `.data`.
    public var dataValue: Data? {
        if case .data(let value) = self { return value }
        return nil
    }

    /// The elements, when this is an inline `.array`.
    public var arrayValue: [ArchivedValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The reference, when this is `.object`.
    public var objectReference: ArchivedObjectReference? {
        if case .object(let reference) = self { return reference }
        return nil
    }

    /// Whether this is `.null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The case name, for error messages.
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .string: return "string"
        case .integer, .unsignedInteger: return "integer"
        case .real: return "real"
        case .bool: return "boolean"
        case .date: return "date"
        case .data: return "data"
        case .array: return "array"
        case .dictionary: return "dictionary"
        case .object(let reference): return "object \(reference)"
        }
    }
}
