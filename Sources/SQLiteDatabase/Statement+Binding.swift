import CSQLite

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Binding values to the statement's `?`, `?NNN`, `:name`, `@name` and `$name` parameters.
///
/// Parameter indexes are 1-based. Text and bytes are copied by SQLite at binding time
/// (`SQLITE_TRANSIENT`), so the Swift values need not outlive the call. Binding to a running statement fails with
/// ``ResultCode/misuse``: call ``Statement/reset()`` first.
extension Statement {
    /// The number of parameters (the largest parameter index).
    public var parameterCount: Int { Int(sqlite3_bind_parameter_count(handle)) }

    /// The name of the parameter at `index`, with its prefix (`:name`), or nil for a nameless `?` parameter.
    public func parameterName(at index: Int) -> String? {
        guard let name = sqlite3_bind_parameter_name(handle, Int32(truncatingIfNeeded: index)) else { return nil }
        return String(cString: name)
    }

    /// The index of the parameter called `name`. The name may be given with its prefix (`:id`) or without it (`id`:
    /// the prefixes `:`, `@` and `$` are tried in that order).
    ///
    /// - Throws: ``ResultCode/range`` when the statement has no such parameter.
    public func parameterIndex(named name: String) throws(SQLiteError) -> Int {
        let candidates = name.first.map { ":@$?".contains($0) } == true ? [name] : [":" + name, "@" + name, "$" + name]
        for candidate in candidates {
            let index = sqlite3_bind_parameter_index(handle, candidate)
            if index > 0 { return Int(index) }
        }
        throw SQLiteError(
            .range, message: "no parameter named \(name) in the statement", sql: sql, path: connection.path)
    }

    // MARK: - By index

    /// Binds an integer.
    @inlinable
    public func bind(_ value: Int64, at index: Int) throws(SQLiteError) {
        try checkBinding(sqlite3_bind_int64(handle, Int32(truncatingIfNeeded: index), value), index: index)
    }

    /// Binds an integer.
    @inlinable
    public func bind(_ value: Int, at index: Int) throws(SQLiteError) {
        try bind(Int64(value), at: index)
    }

    /// Binds a real number.
    @inlinable
    public func bind(_ value: Double, at index: Int) throws(SQLiteError) {
        try checkBinding(sqlite3_bind_double(handle, Int32(truncatingIfNeeded: index), value), index: index)
    }

    /// Binds a boolean as the integer 1 or 0.
    @inlinable
    public func bind(_ value: Bool, at index: Int) throws(SQLiteError) {
        try bind(Int64(value ? 1 : 0), at: index)
    }

    /// Binds text (an empty string stays empty text, never `NULL`; embedded NUL characters are kept).
    @inlinable
    public func bind(_ value: String, at index: Int) throws(SQLiteError) {
        var text = value
        let column = Int32(truncatingIfNeeded: index)
        // withUTF8 reaches a native string's bytes without copying; SQLite then copies them once.
        let code = text.withUTF8 { bytes -> Int32 in
            guard let base = bytes.baseAddress else {
                // A NULL pointer would bind SQL NULL; an empty string must stay empty text.
                return sqlite3_bind_text64(handle, column, "", 0, csqlite_transient(), UInt8(SQLITE_UTF8))
            }
            return sqlite3_bind_text64(
                handle, column, UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self),
                sqlite3_uint64(bytes.count), csqlite_transient(), UInt8(SQLITE_UTF8))
        }
        try checkBinding(code, index: index)
    }

    /// Binds bytes as a blob (an empty array stays an empty blob, never `NULL`).
    @inlinable
    public func bind(_ value: [UInt8], at index: Int) throws(SQLiteError) {
        let code = value.withUnsafeBytes { bytes in
            bindBlob(bytes, at: index)
        }
        try checkBinding(code, index: index)
    }

    /// Binds the bytes of `value` as a blob.
    public func bind(_ value: Data, at index: Int) throws(SQLiteError) {
        let code = value.withUnsafeBytes { bytes in
            bindBlob(bytes, at: index)
        }
        try checkBinding(code, index: index)
    }

    /// Binds `NULL`.
    public func bindNull(at index: Int) throws(SQLiteError) {
        try checkBinding(sqlite3_bind_null(handle, Int32(truncatingIfNeeded: index)), index: index)
    }

    /// Binds a value of any storage class.
    public func bind(_ value: SQLiteValue, at index: Int) throws(SQLiteError) {
        switch value {
        case .null: try bindNull(at: index)
        case .integer(let integer): try bind(integer, at: index)
        case .real(let real): try bind(real, at: index)
        case .text(let text): try bind(text, at: index)
        case .blob(let bytes): try bind(bytes, at: index)
        }
    }

    /// Binds `values` to the parameters 1, 2, 3, … The count must match ``parameterCount``.
    ///
    /// - Throws: ``ResultCode/range`` when the counts differ.
    public func bind(_ values: [SQLiteValue]) throws(SQLiteError) {
        guard values.count == parameterCount else {
            throw SQLiteError(
                .range, message: "\(values.count) arguments for \(parameterCount) parameters", sql: sql,
                path: connection.path)
        }
        for (offset, value) in values.enumerated() {
            try bind(value, at: offset + 1)
        }
    }

    /// Binds values to named parameters (names with or without their prefix).
    ///
    /// - Throws: ``ResultCode/range`` for a name the statement does not have.
    public func bind(_ values: [String: SQLiteValue]) throws(SQLiteError) {
        for (name, value) in values {
            try bind(value, at: parameterIndex(named: name))
        }
    }

    // MARK: - By name

    /// Binds an integer to the parameter called `name`.
    public func bind(_ value: Int64, named name: String) throws(SQLiteError) {
        try bind(value, at: parameterIndex(named: name))
    }

    /// Binds an integer to the parameter called `name`.
    public func bind(_ value: Int, named name: String) throws(SQLiteError) {
        try bind(value, at: parameterIndex(named: name))
    }

    /// Binds a real number to the parameter called `name`.
    public func bind(_ value: Double, named name: String) throws(SQLiteError) {
        try bind(value, at: parameterIndex(named: name))
    }

    /// Binds a boolean (1 or 0) to the parameter called `name`.
    public func bind(_ value: Bool, named name: String) throws(SQLiteError) {
        try bind(value, at: parameterIndex(named: name))
    }

    /// Binds text to the parameter called `name`.
    public func bind(_ value: String, named name: String) throws(SQLiteError) {
        try bind(value, at: parameterIndex(named: name))
    }

    /// Binds bytes to the parameter called `name`.
    public func bind(_ value: [UInt8], named name: String) throws(SQLiteError) {
        try bind(value, at: parameterIndex(named: name))
    }

    /// Binds the bytes of `value` to the parameter called `name`.
    public func bind(_ value: Data, named name: String) throws(SQLiteError) {
        try bind(value, at: parameterIndex(named: name))
    }

    /// Binds a value of any storage class to the parameter called `name`.
    public func bind(_ value: SQLiteValue, named name: String) throws(SQLiteError) {
        try bind(value, at: parameterIndex(named: name))
    }

    /// Binds `NULL` to the parameter called `name`.
    public func bindNull(named name: String) throws(SQLiteError) {
        try bindNull(at: parameterIndex(named: name))
    }

    // MARK: - Support

    @usableFromInline
    func bindBlob(_ bytes: UnsafeRawBufferPointer, at index: Int) -> Int32 {
        let column = Int32(truncatingIfNeeded: index)
        guard let base = bytes.baseAddress, bytes.count > 0 else { return sqlite3_bind_zeroblob(handle, column, 0) }
        return sqlite3_bind_blob64(handle, column, base, sqlite3_uint64(bytes.count), csqlite_transient())
    }

    @inlinable
    func checkBinding(_ code: Int32, index: Int) throws(SQLiteError) {
        if code != SQLITE_OK { throw bindingError(code: code, index: index) }
    }

    @usableFromInline
    func bindingError(code: Int32, index: Int) -> SQLiteError {
        if code == SQLITE_RANGE {
            return SQLiteError(
                .range, message: "parameter index \(index) out of range: the statement has \(parameterCount) parameters",
                sql: sql, path: connection.path)
        }
        return connection.error(code: code, sql: sql)
    }
}
