/// The current row of a statement, lent to the closures of ``Statement/forEachRow(_:)`` and
/// ``Statement/mapRows(_:)``.
///
/// A row is non-copyable: it cannot escape the closure, because its values change at the next step. Reading a
/// column costs exactly what the same read on the statement costs; nothing is allocated per row.
public struct Row: ~Copyable {
    @usableFromInline let statement: Statement

    @usableFromInline
    init(statement: Statement) {
        self.statement = statement
    }

    /// The number of columns.
    @inlinable public var count: Int { statement.columnCount }

    /// See ``Statement/int64(at:)``.
    @inlinable public func int64(at index: Int) -> Int64 { statement.int64(at: index) }
    /// See ``Statement/int(at:)``.
    @inlinable public func int(at index: Int) -> Int { statement.int(at: index) }
    /// See ``Statement/double(at:)``.
    @inlinable public func double(at index: Int) -> Double { statement.double(at: index) }
    /// See ``Statement/string(at:)``.
    @inlinable public func string(at index: Int) -> String? { statement.string(at: index) }
    /// See ``Statement/blob(at:)``.
    @inlinable public func blob(at index: Int) -> [UInt8]? { statement.blob(at: index) }
    /// See ``Statement/isNull(at:)``.
    @inlinable public func isNull(at index: Int) -> Bool { statement.isNull(at: index) }
    /// See ``Statement/columnType(at:)``.
    @inlinable public func columnType(at index: Int) -> SQLiteColumnType { statement.columnType(at: index) }
    /// See ``Statement/value(at:)``.
    @inlinable public func value(at index: Int) -> SQLiteValue { statement.value(at: index) }
    /// See ``Statement/withUnsafeBlob(at:_:)``.
    @inlinable
    public func withUnsafeBlob<Result>(
        at index: Int, _ body: (UnsafeRawBufferPointer?) throws -> Result
    ) rethrows -> Result {
        try statement.withUnsafeBlob(at: index, body)
    }
    /// All values of the row.
    public func values() -> [SQLiteValue] { statement.values() }
}

extension Statement {
    /// Runs the statement from the start and calls `body` for each row, then leaves the statement reset (bindings
    /// kept) so it can run again.
    ///
    /// ```swift
    /// var total: Int64 = 0
    /// try statement.forEachRow { row in total += row.int64(at: 0) }
    /// ```
    ///
    /// - Throws: an ``SQLiteError`` from SQLite, or whatever `body` throws (the loop then stops).
    @inlinable
    public func forEachRow(_ body: (borrowing Row) throws -> Void) throws {
        reset()
        defer { reset() }
        let row = Row(statement: self)
        while try step() {
            try body(row)
        }
    }

    /// Runs the statement from the start and collects `transform` of each row, then leaves it reset.
    @inlinable
    public func mapRows<T>(_ transform: (borrowing Row) throws -> T) throws -> [T] {
        var results: [T] = []
        try forEachRow { row in results.append(try transform(row)) }
        return results
    }

    /// Runs the statement from the start and returns every row's values: for small results and tests.
    public func allRows() throws(SQLiteError) -> [[SQLiteValue]] {
        reset()
        defer { reset() }
        var rows: [[SQLiteValue]] = []
        while try step() { rows.append(values()) }
        return rows
    }
}
