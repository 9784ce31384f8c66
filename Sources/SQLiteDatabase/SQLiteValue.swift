#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One value in SQLite's storage classes: what a column holds, a parameter receives, or a custom function returns.
///
/// Use the typed column reads of ``Statement`` (``Statement/int64(at:)`` …) on hot paths; this enum is for generic
/// code, small queries and function arguments.
public enum SQLiteValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    /// UTF-8 text; embedded NUL characters are kept.
    case text(String)
    case blob([UInt8])

    /// The integer, for `.integer` only.
    public var int64Value: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }

    /// The number as a `Double`, for `.real` and `.integer`.
    public var doubleValue: Double? {
        switch self {
        case .real(let value): return value
        case .integer(let value): return Double(value)
        default: return nil
        }
    }

    /// The text, for `.text` only.
    public var stringValue: String? {
        if case .text(let value) = self { return value }
        return nil
    }

    /// The bytes, for `.blob` only.
    public var blobValue: [UInt8]? {
        if case .blob(let value) = self { return value }
        return nil
    }

    /// Whether this is SQL `NULL`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The storage class, as ``Statement/columnType(at:)`` reports it.
    public var type: SQLiteColumnType {
        switch self {
        case .null: return .null
        case .integer: return .integer
        case .real: return .real
        case .text: return .text
        case .blob: return .blob
        }
    }
}

extension SQLiteValue {
    /// An integer value.
    public init(_ value: Int) { self = .integer(Int64(value)) }

    /// A blob holding the bytes of `data`.
    public init(_ data: Data) { self = .blob([UInt8](data)) }
}

extension SQLiteValue: ExpressibleByNilLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByStringLiteral, ExpressibleByBooleanLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .real(value) }
    public init(stringLiteral value: String) { self = .text(value) }
    /// SQLite has no boolean type: `true` is stored as 1 and `false` as 0.
    public init(booleanLiteral value: Bool) { self = .integer(value ? 1 : 0) }
}

extension SQLiteValue: CustomStringConvertible {
    /// The value written as an SQL literal (`NULL`, `42`, `'it''s'`, `X'00FF'`), for logs and debugging.
    public var description: String {
        switch self {
        case .null: return "NULL"
        case .integer(let value): return String(value)
        case .real(let value): return String(value)
        case .text(let value): return "'" + value.replacing("'", with: "''") + "'"
        case .blob(let bytes):
            let digits = Array("0123456789ABCDEF".utf8)
            var hex = [UInt8]()
            hex.reserveCapacity(bytes.count * 2)
            for byte in bytes {
                hex.append(digits[Int(byte >> 4)])
                hex.append(digits[Int(byte & 0x0F)])
            }
            return "X'" + String(decoding: hex, as: UTF8.self) + "'"
        }
    }
}

/// SQLite's storage classes, as reported for a column of the current row.
public enum SQLiteColumnType: Int32, Sendable, Hashable {
    case integer = 1
    case real = 2
    case text = 3
    case blob = 4
    case null = 5
}
