/// An error reported by SQLite, carrying the statement that failed so logs and messages can name it.
public struct SQLiteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The primary result code (`SQLITE_BUSY`, `SQLITE_CORRUPT`, …).
    public var resultCode: Int32
    /// The extended result code, when SQLite provided one.
    public var extendedResultCode: Int32
    /// SQLite's own message.
    public var message: String
    /// The SQL being prepared or run, when there was one.
    public var sql: String?

    public init(resultCode: Int32, extendedResultCode: Int32? = nil, message: String, sql: String? = nil) {
        self.resultCode = resultCode
        self.extendedResultCode = extendedResultCode ?? resultCode
        self.message = message
        self.sql = sql
    }

    public var description: String {
        var text = "SQLite error \(resultCode): \(message)"
        if let sql { text += " — while executing `\(sql)`" }
        return text
    }
}
