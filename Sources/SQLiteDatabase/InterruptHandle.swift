import CSQLite
import Synchronization

/// A thread-safe way to cancel what a ``Connection`` is running, from any thread or task.
///
/// A connection is used by one thread at a time, but cancellation comes from elsewhere (a terminal key press, a
/// timeout), so the connection hands out this small `Sendable` object. It stays safe to use after the connection is
/// closed: it then does nothing.
public final class InterruptHandle: Sendable {
    /// The open connection, or nil once it is closed. The lock makes `interrupt()` and closing mutually exclusive,
    /// since calling `sqlite3_interrupt` on a closing connection is undefined behaviour.
    private let database: Mutex<SharedPointer?>

    /// The `sqlite3*` pointer, which only `sqlite3_interrupt` reads from other threads; SQLite documents that
    /// call as safe from any thread while the connection is open, which the mutex guarantees.
    private struct SharedPointer: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    init(database: OpaquePointer) {
        self.database = Mutex(SharedPointer(pointer: database))
    }

    /// Makes every statement that the connection is running stop as soon as possible with a
    /// ``ResultCode/interrupt`` error. Statements that finished are unaffected; a running transaction is rolled back
    /// only if the interrupted statement was an `INSERT`, `UPDATE` or `DELETE` inside an implicit transaction.
    public func interrupt() {
        database.withLock { database in
            if let database { sqlite3_interrupt(database.pointer) }
        }
    }

    /// Called by the connection before it closes; afterwards ``interrupt()`` does nothing.
    func invalidate() {
        database.withLock { $0 = nil }
    }
}
