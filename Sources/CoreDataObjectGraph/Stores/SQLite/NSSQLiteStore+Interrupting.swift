import CoreDataSQLiteFormat
import SQLiteDatabase

extension NSSQLiteStore {
    /// Cancels what the store's connection is running, from any thread: the fetch or count under way fails with
    /// SQLite's interrupt error, and a save rolls back. A browser gives it to its Esc key while a long sort runs on a
    /// thread of its own. Nil before the store is loaded; after the store is removed it does nothing.
    public var interruptHandle: InterruptHandle? { file?.connection.interruptHandle }

    /// Runs `body` with the store's connection under the coordinator's lock: tests register slow collations or
    /// functions on it to play a slow store.
    package func withConnection<T>(_ body: (Connection) throws -> T) throws -> T {
        guard let coordinator = persistentStoreCoordinator, let file else {
            throw CoreDataError(.persistentStoreOperation, "the store is not loaded")
        }
        return try coordinator.withLock { try body(file.connection) }
    }
}
