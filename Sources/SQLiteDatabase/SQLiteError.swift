import CSQLite

/// An error reported by SQLite, carrying the statement that failed and the database file, so logs and messages can
/// name both.
///
/// Match errors by result code with ``ResultCode`` patterns:
///
/// ```swift
/// do {
///     try connection.execute(sql: "INSERT INTO item(id) VALUES (1)")
/// } catch ResultCode.constraint {
///     // any constraint violation
/// } catch ResultCode.busy {
///     // the database is locked by another connection
/// }
/// ```
public struct SQLiteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The primary result code (`SQLITE_BUSY`, `SQLITE_CORRUPT`, …): the low eight bits of the extended code.
    public var resultCode: Int32
    /// The extended result code (`SQLITE_CONSTRAINT_UNIQUE`, …), or the primary code when SQLite gave no detail.
    public var extendedResultCode: Int32
    /// SQLite's own message, or ours when the failure was detected before SQLite was asked.
    public var message: String
    /// The SQL being prepared or run, when there was one.
    public var sql: String?
    /// The database file the connection had open (or was opening), when there was one.
    public var path: String?
    /// The operating system's error number behind an I/O failure (`sqlite3_system_errno`: `ENOSPC`, `EFBIG`, `EIO`,
    /// …), when SQLite recorded one.
    public var systemErrorNumber: Int32?

    /// Creates an error from raw SQLite codes.
    ///
    /// - Parameters:
    ///   - resultCode: a primary or extended result code; only its low eight bits are kept as the primary code.
    ///   - extendedResultCode: the extended code; when nil, `resultCode` is used.
    ///   - message: a human-readable explanation.
    ///   - sql: the statement being prepared or run.
    ///   - path: the database file.
    public init(
        resultCode: Int32, extendedResultCode: Int32? = nil, message: String, sql: String? = nil, path: String? = nil
    ) {
        self.resultCode = resultCode & 0xFF
        self.extendedResultCode = extendedResultCode ?? resultCode
        self.message = message
        self.sql = sql
        self.path = path
    }

    /// Creates an error with a named result code.
    public init(_ code: ResultCode, message: String, sql: String? = nil, path: String? = nil) {
        self.init(resultCode: code.rawValue, message: message, sql: sql, path: path)
    }

    /// The primary result code, for comparisons such as `error.code == .busy`.
    public var code: ResultCode { ResultCode(rawValue: resultCode) }

    /// The extended result code, for comparisons such as `error.extendedCode == .constraintUnique`.
    public var extendedCode: ResultCode { ResultCode(rawValue: extendedResultCode) }

    public var description: String {
        var text = "SQLite error \(extendedCode.name) (\(extendedResultCode)): \(message)"
        if let path { text += " — database `\(path)`" }
        if let sql { text += " — while executing `\(sql)`" }
        return text
    }
}

extension SQLiteError {
    /// Builds the error for a failing call on `database`, reading SQLite's current message for that connection.
    ///
    /// The message is read immediately: the next call on the connection replaces it.
    @usableFromInline
    static func fromConnection(
        _ database: OpaquePointer?, code: Int32, sql: String? = nil, path: String? = nil
    ) -> SQLiteError {
        let message: String
        if let database, let text = sqlite3_errmsg(database), sqlite3_errcode(database) != SQLITE_OK {
            message = String(cString: text)
        } else {
            message = String(cString: sqlite3_errstr(code))
        }
        var error = SQLiteError(resultCode: code, extendedResultCode: code, message: message, sql: sql, path: path)
        if let database, code & 0xFF == SQLITE_IOERR || code & 0xFF == SQLITE_FULL || code & 0xFF == SQLITE_CANTOPEN {
            let number = sqlite3_system_errno(database)
            if number != 0 { error.systemErrorNumber = number }
        }
        return error
    }
}
