import CSQLite

/// Transactions and savepoints.
extension Connection {
    /// How a transaction takes its locks (`BEGIN DEFERRED`, `IMMEDIATE` or `EXCLUSIVE`).
    public enum TransactionKind: String, Sendable, Hashable {
        /// Locks are taken when first needed: a read lock at the first read, a write lock at the first write.
        case deferred = "DEFERRED"
        /// The write lock is taken at once, so the transaction cannot fail later with ``ResultCode/busy`` because
        /// another connection started writing.
        case immediate = "IMMEDIATE"
        /// Like ``immediate``; in rollback-journal mode it also keeps readers out.
        case exclusive = "EXCLUSIVE"
    }

    /// Starts a transaction; prefer ``inTransaction(_:_:)``, which cannot forget to end it.
    public func beginTransaction(_ kind: TransactionKind = .deferred) throws(SQLiteError) {
        try execute(sql: "BEGIN \(kind.rawValue) TRANSACTION")
    }

    /// Commits the current transaction.
    public func commit() throws(SQLiteError) {
        try execute(sql: "COMMIT TRANSACTION")
    }

    /// Rolls back the current transaction; does nothing when none is open (SQLite may already have rolled back
    /// after an error such as ``ResultCode/full``).
    public func rollback() throws(SQLiteError) {
        guard isInTransaction else { return }
        try execute(sql: "ROLLBACK TRANSACTION")
    }

    /// Runs `body` in a transaction: commits when it returns, rolls back when it throws (then rethrows its
    /// error).
    ///
    /// Transactions do not nest: inside one, use ``inSavepoint(name:_:)``. When the commit itself fails (for
    /// example ``ResultCode/busy``), the transaction is rolled back and the commit error is thrown.
    @discardableResult
    public func inTransaction<T>(_ kind: TransactionKind = .deferred, _ body: () throws -> T) throws -> T {
        try beginTransaction(kind)
        let result: T
        do {
            result = try body()
        } catch {
            // The body's error is the one that matters; a rollback failure would only hide it.
            try? rollback()
            throw error
        }
        do {
            try commit()
        } catch {
            try? rollback()
            throw error
        }
        return result
    }

    /// Runs `body` inside a savepoint: releases it when `body` returns, rolls back to it (and releases it) when
    /// `body` throws. Savepoints nest, inside or outside a transaction; outside one, the outermost savepoint
    /// behaves as a deferred transaction.
    ///
    /// - Parameter name: the savepoint's name, or nil for a unique generated one.
    @discardableResult
    public func inSavepoint<T>(name: String? = nil, _ body: () throws -> T) throws -> T {
        let savepointName: String
        if let name {
            savepointName = name
        } else {
            savepointCounter += 1
            savepointName = "savepoint_\(savepointCounter)"
        }
        let quoted = Self.quoteIdentifier(savepointName)
        let startsTransaction = !isInTransaction
        try execute(sql: "SAVEPOINT \(quoted)")
        let result: T
        do {
            result = try body()
        } catch {
            // ROLLBACK TO undoes the changes but keeps the savepoint on the stack: RELEASE pops it.
            try? execute(sql: "ROLLBACK TO SAVEPOINT \(quoted)")
            try? execute(sql: "RELEASE SAVEPOINT \(quoted)")
            throw error
        }
        do {
            try execute(sql: "RELEASE SAVEPOINT \(quoted)")
        } catch {
            // Releasing the outermost savepoint commits, which can fail (busy): leave no transaction behind.
            if startsTransaction {
                try? rollback()
            } else {
                try? execute(sql: "ROLLBACK TO SAVEPOINT \(quoted)")
                try? execute(sql: "RELEASE SAVEPOINT \(quoted)")
            }
            throw error
        }
        return result
    }

    /// `name` as an SQL identifier in double quotes, with inner quotes doubled.
    public static func quoteIdentifier(_ name: String) -> String {
        "\"" + name.replacing("\"", with: "\"\"") + "\""
    }
}
