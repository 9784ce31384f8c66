import CSQLite

/// Preparing and running SQL.
extension Connection {
    /// Prepares one SQL statement.
    ///
    /// - Parameter persistent: the statement will be kept and reused (a statement cache); see
    ///   ``Statement/init(connection:sql:persistent:)``.
    /// - Throws: ``SQLiteError`` with the SQL, for a syntax error, an unknown table, several statements, …
    public func prepare(_ sql: String, persistent: Bool = false) throws(SQLiteError) -> Statement {
        try Statement(connection: self, sql: sql, persistent: persistent)
    }

    /// Runs a script of any number of statements separated by semicolons, discarding result rows.
    ///
    /// Statements run one after another; the first failure stops the script and its error carries the text of the
    /// statement that failed. Statements that ran before stay applied unless the script is inside a transaction.
    public func execute(sql script: String) throws(SQLiteError) {
        var failure: SQLiteError?
        script.withCString { start in
            var cursor: UnsafePointer<CChar>? = start
            while let current = cursor, current.pointee != 0 {
                var statement: OpaquePointer?
                var tail: UnsafePointer<CChar>?
                var code = sqlite3_prepare_v2(handle, current, -1, &statement, &tail)
                guard code == SQLITE_OK else {
                    failure = error(code: code, sql: Self.text(from: current, to: tail))
                    return
                }
                // A trailing comment or blank leaves no statement: the script is over.
                guard let statement else { return }
                repeat { code = sqlite3_step(statement) } while code == SQLITE_ROW
                if code != SQLITE_DONE {
                    failure = error(code: code, sql: String(cString: sqlite3_sql(statement)))
                    sqlite3_finalize(statement)
                    return
                }
                sqlite3_finalize(statement)
                cursor = tail
            }
        }
        if let failure { throw failure }
    }

    /// Runs one statement with positional `arguments`, discarding result rows.
    public func execute(sql: String, arguments: [SQLiteValue]) throws(SQLiteError) {
        let statement = try prepare(sql)
        try statement.bind(arguments)
        try statement.run()
    }

    /// Runs one statement with positional `arguments` and returns all its rows: for small results (schema
    /// queries, tests). Use ``Statement/forEachRow(_:)`` for large ones.
    public func query(_ sql: String, arguments: [SQLiteValue] = []) throws(SQLiteError) -> [[SQLiteValue]] {
        let statement = try prepare(sql)
        try statement.bind(arguments)
        return try statement.allRows()
    }

    /// Runs one statement and returns the first column of its first row, or nil when there is no row (a `NULL`
    /// value is ``SQLiteValue/null``, not nil).
    public func scalar(_ sql: String, arguments: [SQLiteValue] = []) throws(SQLiteError) -> SQLiteValue? {
        let statement = try prepare(sql)
        try statement.bind(arguments)
        guard try statement.step() else { return nil }
        return statement.value(at: 0)
    }

    /// The statement text between two positions of a script, for error messages.
    private static func text(from start: UnsafePointer<CChar>, to end: UnsafePointer<CChar>?) -> String {
        guard let end, end > start else { return String(cString: start) }
        let bytes = UnsafeRawBufferPointer(start: start, count: end - start)
        return String(decoding: bytes, as: UTF8.self)
    }
}
