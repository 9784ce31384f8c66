import Foundation

extension PropertyListValue {
    /// The string, when this is `.string`.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The integer as `Int64`, when this is an integer that fits.
    public var int64Value: Int64? {
        switch self {
        case .integer(let value): return value
        case .unsignedInteger(let value): return Int64(exactly: value)
        default: return nil
        }
    }

    /// The integer as `Int`, when this is an integer that fits.
    public var intValue: Int? {
        int64Value.flatMap { Int(exactly: $0) }
    }

    /// The integer as `UInt64`, when this is a non-negative integer.
    public var uint64Value: UInt64? {
        switch self {
        case .integer(let value): return UInt64(exactly: value)
        case .unsignedInteger(let value): return value
        default: return nil
        }
    }

    /// The number as `Double`, for `.real` and for integers (which may round).
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

    /// The date, when this is `.date`.
    public var dateValue: Date? {
        if case .date(let value) = self { return value }
        return nil
    }

    /// The bytes, when this is `.data`.
    public var dataValue: Data? {
        if case .data(let value) = self { return value }
        return nil
    }

    /// The elements, when this is `.array`.
    public var arrayValue: [PropertyListValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The entries, when this is `.dictionary`.
    public var dictionaryValue: [String: PropertyListValue]? {
        if case .dictionary(let value) = self { return value }
        return nil
    }

    /// The archive object index, when this is `.uid`.
    public var uidValue: UInt64? {
        if case .uid(let value) = self { return value }
        return nil
    }

    /// Whether this is the binary null marker.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The value stored under `key`, when this is a dictionary that has it.
    public subscript(key: String) -> PropertyListValue? {
        dictionaryValue?[key]
    }

    /// The element at `index`, when this is an array and `index` is in range.
    public subscript(index: Int) -> PropertyListValue? {
        guard let elements = arrayValue, elements.indices.contains(index) else { return nil }
        return elements[index]
    }

    /// The case name, for error messages ("string", "dictionary", …).
    public var typeName: String {
        switch self {
        case .string: return "string"
        case .integer, .unsignedInteger: return "integer"
        case .real: return "real"
        case .bool: return "boolean"
        case .date: return "date"
        case .data: return "data"
        case .array: return "array"
        case .dictionary: return "dictionary"
        case .uid: return "uid"
        case .null: return "null"
        }
    }

    /// Whether this value, or any value nested in it, is a `.uid` (a keyed archive, which Foundation on Linux
    /// cannot expose) or `.null` (which XML cannot hold).
    public var containsArchiveOnlyValues: Bool {
        switch self {
        case .uid, .null: return true
        case .array(let elements): return elements.contains { $0.containsArchiveOnlyValues }
        case .dictionary(let entries): return entries.values.contains { $0.containsArchiveOnlyValues }
        default: return false
        }
    }
}
