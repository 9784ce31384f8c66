import SQLiteDatabase
import Synchronization

/// Prepared `SELECT`s kept by a store across fetches, keyed by their SQL.
///
/// Fetches bind every constant, so the same kind of fetch (a find-or-create lookup, the next page of a batched
/// array, a fault) runs the same SQL again and again; parsing and planning it each time cost more than running it
/// (`sqlite3_prepare_v3` dominated a fetch-per-record import). A statement is checked out for one run and
/// checked in reset, with its bindings cleared, so a cached statement never holds a read transaction. A statement
/// already checked out (a fetch inside another fetch's body) is not shared: the nested run prepares its own.
final class FetchStatementCache: Sendable {
    /// Beyond this many distinct statements the unused ones are dropped (`IN` lists of varying lengths make new SQL).
    static let capacity = 64

    /// A statement is only used under the coordinator's lock, one run at a time (the `inUse` flag); the mutex
    /// guards the dictionary.
    private struct Entry: @unchecked Sendable {
        var statement: Statement
        var inUse: Bool
    }

    private let entries = Mutex<[String: Entry]>([:])

    /// A prepared statement for `sql`, the cached one when it is free.
    func checkOut(_ sql: String, on connection: Connection) throws(SQLiteError) -> (Statement, cached: Bool) {
        let cached: Statement? = entries.withLock { entries in
            guard var entry = entries[sql], !entry.inUse else { return nil }
            entry.inUse = true
            entries[sql] = entry
            return entry.statement
        }
        if let cached { return (cached, true) }
        let statement = try connection.prepare(sql, persistent: true)
        let entry = Entry(statement: statement, inUse: true)
        let kept = entries.withLock { entries -> Bool in
            guard entries[sql] == nil else { return false }
            if entries.count >= Self.capacity { entries = entries.filter(\.value.inUse) }
            entries[sql] = entry
            return true
        }
        return (statement, kept)
    }

    /// Returns a statement after its run: reset, bindings cleared, free for the next run of its SQL.
    func checkIn(_ statement: Statement, cached: Bool) {
        statement.reset()
        guard cached else { return }
        statement.clearBindings()
        _ = statement.statusCounter(.virtualMachineSteps, reset: true)
        entries.withLock { $0[statement.sql]?.inUse = false }
    }

    func removeAll() {
        entries.withLock { $0 = $0.filter(\.value.inUse) }
    }
}
