import CSQLite

/// A prepared SQL statement: bind parameters, step through rows, read columns.
///
/// The column reads call SQLite directly and return plain Swift values, so a loop such as
///
/// ```swift
/// let statement = try connection.prepare("SELECT Z_PK, ZNAME FROM ZRECIPE WHERE ZRATING > ?")
/// try statement.bind(3, at: 1)
/// while try statement.step() {
///     let key = statement.int64(at: 0)
///     let name = statement.string(at: 1)
/// }
/// ```
///
/// costs what the C API costs plus the strings themselves. Column indexes are 0-based and parameter indexes
/// 1-based, as in SQLite. Column reads are only meaningful after ``step()`` returned `true`.
///
/// A statement keeps its ``connection`` alive and, like it, is used by one thread at a time.
public final class Statement {
    /// The `sqlite3_stmt*` handle. Exposed to the module's inlinable code only.
    @usableFromInline let handle: OpaquePointer

    /// The connection this statement was prepared on.
    public let connection: Connection

    /// The SQL text of the statement, as prepared.
    public let sql: String

    /// The number of columns in each result row (0 for statements that return no data).
    public let columnCount: Int

    /// Prepares `sql`, which must hold exactly one statement.
    ///
    /// - Parameter persistent: hint that the statement will be kept and reused many times (a statement cache),
    ///   so SQLite allocates it outside its small lookaside memory (`SQLITE_PREPARE_PERSISTENT`).
    public init(connection: Connection, sql: String, persistent: Bool = false) throws(SQLiteError) {
        let flags = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
        var statement: OpaquePointer?
        var code = SQLITE_OK
        var extraStatement = false
        sql.withCString { text in
            var tail: UnsafePointer<CChar>?
            // The byte count includes the terminating NUL, which spares SQLite a copy of the text.
            code = sqlite3_prepare_v3(connection.handle, text, Int32(sql.utf8.count + 1), flags, &statement, &tail)
            if code == SQLITE_OK, let tail {
                extraStatement = Self.holdsStatement(tail, on: connection.handle)
            }
        }
        guard code == SQLITE_OK else { throw connection.error(code: code, sql: sql) }
        guard let statement else {
            throw SQLiteError(.misuse, message: "no SQL statement to prepare", sql: sql, path: connection.path)
        }
        guard !extraStatement else {
            sqlite3_finalize(statement)
            throw SQLiteError(
                .misuse, message: "more than one SQL statement: prepare them one by one, or use execute(sql:)",
                sql: sql, path: connection.path)
        }
        self.handle = statement
        self.connection = connection
        self.sql = sql
        self.columnCount = Int(sqlite3_column_count(statement))
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Whether text after a prepared statement holds another statement (not just spaces, semicolons or comments).
    private static func holdsStatement(_ tail: UnsafePointer<CChar>, on database: OpaquePointer) -> Bool {
        var cursor = tail
        while cursor.pointee != 0 {
            switch UInt8(bitPattern: cursor.pointee) {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: ";"):
                cursor += 1
            default:
                // Something else (maybe a comment): let SQLite's parser decide.
                var next: OpaquePointer?
                let code = sqlite3_prepare_v2(database, cursor, -1, &next, nil)
                sqlite3_finalize(next)
                return code != SQLITE_OK || next != nil
            }
        }
        return false
    }

    // MARK: - Execution

    /// Runs the statement until the next row or the end.
    ///
    /// - Returns: `true` when a row is available for the column reads, `false` when the statement is done.
    ///   Stepping again after `false` runs the statement again from the start.
    /// - Throws: ``SQLiteError`` with this statement's SQL (``ResultCode/busy``, ``ResultCode/constraint``,
    ///   ``ResultCode/interrupt``, …).
    @inlinable
    public func step() throws(SQLiteError) -> Bool {
        let code = sqlite3_step(handle)
        if code == SQLITE_ROW { return true }
        if code == SQLITE_DONE { return false }
        throw stepError(code: code)
    }

    @usableFromInline
    func stepError(code: Int32) -> SQLiteError {
        connection.error(code: code, sql: sql)
    }

    /// Runs the statement to completion, ignoring any rows (for `INSERT`, `UPDATE`, DDL, …).
    public func run() throws(SQLiteError) {
        while try step() {}
    }

    /// Rewinds the statement so that it can run again; bindings are kept.
    ///
    /// It does not throw: the only error SQLite reports here is the one the last ``step()`` already threw.
    public func reset() {
        sqlite3_reset(handle)
    }

    /// Sets every parameter back to `NULL`.
    public func clearBindings() {
        sqlite3_clear_bindings(handle)
    }

    /// The SQL with the current bindings written in, for debug logs (`sqlite3_expanded_sql`); falls back to
    /// ``sql`` if SQLite cannot build it (out of memory, or longer than the length limit).
    public var expandedSQL: String {
        guard let text = sqlite3_expanded_sql(handle) else { return sql }
        defer { sqlite3_free(text) }
        return String(cString: text)
    }

    /// Whether the statement never writes to the database (`sqlite3_stmt_readonly`).
    public var isReadOnly: Bool { sqlite3_stmt_readonly(handle) != 0 }

    /// Whether the statement has started and not yet finished or been reset.
    public var isBusy: Bool { sqlite3_stmt_busy(handle) != 0 }

    // MARK: - Columns

    /// The name of the column at `index` (its `AS` alias, or the name SQLite chose).
    public func columnName(at index: Int) -> String {
        guard let name = sqlite3_column_name(handle, Int32(truncatingIfNeeded: index)) else { return "" }
        return String(cString: name)
    }

    /// The names of all result columns, in order.
    public var columnNames: [String] { (0..<columnCount).map { columnName(at: $0) } }

    /// The index of the first result column named `name` (compared without regard to ASCII case, as SQLite
    /// compares identifiers), or nil when there is none.
    public func columnIndex(named name: String) -> Int? {
        let lowered = name.lowercased()
        return (0..<columnCount).first { columnName(at: $0).lowercased() == lowered }
    }

    /// The type the column at `index` was declared with in `CREATE TABLE` (`VARCHAR`, `TIMESTAMP`, …), or nil
    /// when the result column is an expression rather than a table column.
    public func columnDeclaredType(at index: Int) -> String? {
        guard let type = sqlite3_column_decltype(handle, Int32(truncatingIfNeeded: index)) else { return nil }
        return String(cString: type)
    }

    /// The storage class of the value at `index` in the current row.
    @inlinable
    public func columnType(at index: Int) -> SQLiteColumnType {
        SQLiteColumnType(rawValue: sqlite3_column_type(handle, Int32(truncatingIfNeeded: index))) ?? .null
    }

    /// Whether the value at `index` in the current row is `NULL`.
    @inlinable
    public func isNull(at index: Int) -> Bool {
        sqlite3_column_type(handle, Int32(truncatingIfNeeded: index)) == SQLITE_NULL
    }

    /// The value at `index` as a 64-bit integer, with SQLite's conversions (`NULL` is 0, reals are truncated, text
    /// is parsed).
    @inlinable
    public func int64(at index: Int) -> Int64 {
        sqlite3_column_int64(handle, Int32(truncatingIfNeeded: index))
    }

    /// The value at `index` as an `Int`, with the conversions of ``int64(at:)``.
    @inlinable
    public func int(at index: Int) -> Int {
        Int(truncatingIfNeeded: sqlite3_column_int64(handle, Int32(truncatingIfNeeded: index)))
    }

    /// The value at `index` as a `Double`, with SQLite's conversions (`NULL` is 0.0).
    @inlinable
    public func double(at index: Int) -> Double {
        sqlite3_column_double(handle, Int32(truncatingIfNeeded: index))
    }

    /// The value at `index` as text, or nil when it is `NULL`. Numbers are converted to text as SQLite does;
    /// embedded NUL characters are kept, and invalid UTF-8 is repaired with U+FFFD.
    @inlinable
    public func string(at index: Int) -> String? {
        let column = Int32(truncatingIfNeeded: index)
        // Text first, then its length: the order SQLite documents as safe. A NULL pointer means SQL NULL (or an
        // empty value SQLite could not convert), which only then costs a type check.
        guard let text = sqlite3_column_text(handle, column) else {
            return sqlite3_column_type(handle, column) == SQLITE_NULL ? nil : ""
        }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    /// The value at `index` as bytes, or nil when it is `NULL`. Text is returned as its UTF-8 bytes.
    @inlinable
    public func blob(at index: Int) -> [UInt8]? {
        let column = Int32(truncatingIfNeeded: index)
        // SQLite returns a NULL pointer for both SQL NULL and an empty blob; only then is the type checked.
        guard let bytes = sqlite3_column_blob(handle, column) else {
            return sqlite3_column_type(handle, column) == SQLITE_NULL ? nil : []
        }
        let count = Int(sqlite3_column_bytes(handle, column))
        return [UInt8](UnsafeRawBufferPointer(start: bytes, count: count))
    }

    /// Calls `body` with the bytes of the value at `index` without copying them (nil when it is `NULL`). The
    /// buffer is valid only during the call.
    @inlinable
    public func withUnsafeBlob<Result>(
        at index: Int, _ body: (UnsafeRawBufferPointer?) throws -> Result
    ) rethrows -> Result {
        let column = Int32(truncatingIfNeeded: index)
        if sqlite3_column_type(handle, column) == SQLITE_NULL { return try body(nil) }
        guard let bytes = sqlite3_column_blob(handle, column) else { return try body(UnsafeRawBufferPointer(start: nil, count: 0)) }
        return try body(UnsafeRawBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(handle, column))))
    }

    /// The value at `index` in its own storage class.
    @inlinable
    public func value(at index: Int) -> SQLiteValue {
        switch columnType(at: index) {
        case .null: return .null
        case .integer: return .integer(int64(at: index))
        case .real: return .real(double(at: index))
        case .text: return .text(string(at: index) ?? "")
        case .blob: return .blob(blob(at: index) ?? [])
        }
    }

    /// All values of the current row.
    public func values() -> [SQLiteValue] {
        (0..<columnCount).map { value(at: $0) }
    }
}

@available(*, unavailable, message: "A Statement is used by one thread at a time, like its Connection")
extension Statement: Sendable {}
