import CSQLite

/// One column of a statement's current row, looked up once (`sqlite3_column_value`): its storage class and its
/// content, read without looking the column up again.
///
/// Each of `Statement`'s column reads looks the column up and takes the connection's mutex, so reading a column's
/// type and then its value costs two lookups; a `ColumnValue` costs one. It is SQLite's unprotected value: valid
/// only until the statement steps, is reset or finalized, and, like the statement, on one thread at a time.
public struct ColumnValue {
    @usableFromInline let value: OpaquePointer?

    @inlinable
    init(_ value: OpaquePointer?) {
        self.value = value
    }

    /// The value's storage class.
    @inlinable @inline(__always)
    public var type: SQLiteColumnType {
        SQLiteColumnType(rawValue: sqlite3_value_type(value)) ?? .null
    }

    /// The value as a 64-bit integer, with SQLite's conversions (see ``Statement/int64(at:)``).
    @inlinable
    public var int64: Int64 {
        sqlite3_value_int64(value)
    }

    /// The value as a double, with SQLite's conversions (see ``Statement/double(at:)``).
    @inlinable
    public var double: Double {
        sqlite3_value_double(value)
    }

    /// The value as text, or nil when it is `NULL`, with the conversions and repairs of ``Statement/string(at:)``.
    @inlinable
    public var string: String? {
        guard let text = sqlite3_value_text(value) else {
            return sqlite3_value_type(value) == SQLITE_NULL ? nil : ""
        }
        let count = Int(sqlite3_value_bytes(value))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }
}

extension Statement {
    /// Column `index` of the current row, looked up once for its type and its content.
    @inlinable
    public func column(at index: Int) -> ColumnValue {
        ColumnValue(sqlite3_column_value(handle, Int32(truncatingIfNeeded: index)))
    }
}

extension Row {
    /// See ``Statement/column(at:)``.
    @inlinable
    public func column(at index: Int) -> ColumnValue { statement.column(at: index) }
}
