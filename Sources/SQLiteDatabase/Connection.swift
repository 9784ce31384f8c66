import CSQLite

/// A connection to one SQLite database file: opening, closing, and the connection-wide state (changes, row ids,
/// busy timeout, cancellation).
///
/// ## Threads
///
/// A connection is used by one thread at a time. It is deliberately **not** `Sendable`: the layer that owns it
/// (a store running on a private serial queue, an actor) is the one place that serialises access, so it is the one
/// place that may vouch for it, and the compiler checks every other use. The only operation that is safe from other
/// threads is cancellation, which goes through the `Sendable` ``interruptHandle``.
///
/// ## Lifetime
///
/// Prepared statements keep their connection alive, so the database is closed (with `sqlite3_close_v2`) when the
/// connection and all its statements are gone.
public final class Connection {
    /// How a database file is opened.
    public enum OpenMode: Sendable, Hashable {
        /// Reading only. The file must exist and be an SQLite database; a WAL database is read together with its
        /// `-wal` file. See ``Connection/init(path:mode:busyTimeout:)`` for read-only locations.
        case readOnly
        /// Reading and writing an existing file (SQLite silently falls back to reading only when the file is not
        /// writable: check ``Connection/isReadOnly``).
        case readWrite
        /// Reading and writing, creating the file when it does not exist.
        case create
    }

    /// The `sqlite3*` handle. Exposed to the module's inlinable code only.
    @usableFromInline let handle: OpaquePointer

    /// The database file as given when opening, or `:memory:` for an in-memory database.
    public let path: String

    /// The mode the connection was opened with.
    public let mode: OpenMode

    /// Whether the file was opened with SQLite's `immutable=1` option: the fallback for a WAL database in a location
    /// where its `-shm` index cannot be created. Such a connection takes no locks and never sees changes made by
    /// others (``dataVersion`` stays constant).
    public let isImmutable: Bool

    /// The rollback journal of an interrupted save that opening rolled back (its path), or nil. A save interrupted
    /// by a crash or a full disk leaves such a journal; the main file alone is then incomplete, and only a
    /// read-write opener may apply it, so even a read-only open applies it first when the file and its directory
    /// can be written. Callers should say so: the store holds its last complete save, not the interrupted one.
    public var recoveredJournal: String? { journalRecovery?.journal }

    /// What opening did with a hot rollback journal, or nil when it found none (see ``recoveredJournal``).
    public let journalRecovery: JournalRecovery?

    /// Cancels running statements from any thread; see ``InterruptHandle``.
    public let interruptHandle: InterruptHandle

    /// The prepared `PRAGMA data_version`, kept because terminal sessions poll it; a raw handle so that it does not
    /// keep the connection alive.
    var dataVersionStatement: OpaquePointer?

    /// The callback contexts of the handlers installed with ``trace(options:_:)`` and
    /// ``setProgressHandler(every:_:)``, kept alive while installed.
    var traceContext: ConnectionOwnedContext<TraceBox>?
    var progressContext: ConnectionOwnedContext<ProgressBox>?

    /// Numbers automatic savepoint names, so that nested savepoints never collide.
    var savepointCounter = 0

    private var busyTimeoutStorage: Duration

    /// Opens (or creates) the database at `path`.
    ///
    /// The connection checks at once that the file really is an SQLite database by reading its schema, so a foreign,
    /// truncated or encrypted file fails here with ``ResultCode/notADatabase`` (or ``ResultCode/corrupt``) and the
    /// path, rather than on the first query.
    ///
    /// Read-only opening follows these rules:
    /// - the file must exist (``ResultCode/cantOpen``) and must not be empty (``ResultCode/notADatabase``: an empty
    ///   file holds nothing to read, and is almost always a mistake);
    /// - a WAL database is read together with its `-wal` file, which SQLite does through the shared-memory index
    ///   `-shm`, creating it when missing;
    /// - when the `-shm` file is missing and cannot be created (a read-only directory) and the `-wal` file is
    ///   missing or empty, the database is opened with `immutable=1` (``isImmutable``): correct, because everything
    ///   committed is in the main file, but without locks, so changes by other processes are not seen;
    /// - when the `-shm` file is missing and cannot be created and the `-wal` file holds data, opening fails with
    ///   ``ResultCode/cantOpen`` and a message asking to copy the `.sqlite`, `-wal` and `-shm` files together to a
    ///   writable directory: reading the main file alone would silently miss the latest transactions;
    /// - a hot rollback journal (a save interrupted by a crash or a full disk) is rolled back first, through a brief
    ///   read-write connection, when the file and its directory can be written (``recoveredJournal`` then names
    ///   it); otherwise opening fails with ``ResultCode/readOnlyRollback`` and a message naming the journal that
    ///   must travel with the file.
    ///
    /// - Parameters:
    ///   - path: a file path (a URI is built from it, so any character is allowed), or `:memory:`.
    ///   - mode: see ``OpenMode``.
    ///   - busyTimeout: how long to wait for another connection's lock before failing with ``ResultCode/busy``;
    ///     it already applies to the schema check done here.
    public convenience init(path: String, mode: OpenMode = .readWrite, busyTimeout: Duration = .zero)
        throws(SQLiteError)
    {
        try self.init(path: path, mode: mode, busyTimeout: busyTimeout, sideFilesCreatable: nil)
    }

    /// The designated initialiser; `sideFilesCreatable` overrides the file-system check of the read-only rules
    /// (tests run as root, for whom no directory is read-only).
    init(path: String, mode: OpenMode, busyTimeout: Duration, sideFilesCreatable: Bool?) throws(SQLiteError) {
        let opened = try Self.open(
            path: path, mode: mode, busyTimeout: busyTimeout, sideFilesCreatable: sideFilesCreatable)
        self.handle = opened.handle
        self.path = path
        self.mode = mode
        self.isImmutable = opened.isImmutable
        self.journalRecovery = opened.journalRecovery
        self.busyTimeoutStorage = busyTimeout
        self.interruptHandle = InterruptHandle(database: opened.handle)
    }

    /// Opens a new, private, in-memory database.
    public static func inMemory() throws(SQLiteError) -> Connection {
        try Connection(path: ":memory:", mode: .create)
    }

    deinit {
        interruptHandle.invalidate()
        if let dataVersionStatement { sqlite3_finalize(dataVersionStatement) }
        sqlite3_close_v2(handle)
    }

    // MARK: - Connection state

    /// How long a statement waits for another connection's lock before failing with ``ResultCode/busy``
    /// (`sqlite3_busy_timeout`, at millisecond precision). Zero fails at once.
    public var busyTimeout: Duration {
        get { busyTimeoutStorage }
        set {
            busyTimeoutStorage = newValue
            sqlite3_busy_timeout(handle, Self.milliseconds(newValue))
        }
    }

    /// Whether the main database cannot be written, because it was opened read-only or because SQLite fell back to
    /// reading only (a read-only file opened with ``OpenMode/readWrite``).
    public var isReadOnly: Bool { sqlite3_db_readonly(handle, "main") == 1 }

    /// The rowid of the most recent successful `INSERT` on this connection (0 when there was none).
    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// The number of rows changed by the most recent `INSERT`, `UPDATE` or `DELETE` on this connection.
    public var changes: Int { Int(sqlite3_changes64(handle)) }

    /// The number of rows changed by all `INSERT`, `UPDATE` and `DELETE` statements since the connection opened.
    public var totalChanges: Int { Int(sqlite3_total_changes64(handle)) }

    /// Whether a transaction is open (SQLite is not in autocommit mode).
    public var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// `PRAGMA data_version`: a number that changes when *another* connection (in this process or another) commits
    /// a change to the database. Compare two readings to detect outside writes; this connection's own commits do
    /// not change it.
    public var dataVersion: Int64 {
        get throws(SQLiteError) {
            let sql = "PRAGMA data_version"
            if dataVersionStatement == nil {
                var statement: OpaquePointer?
                let code = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
                guard code == SQLITE_OK, let statement else { throw error(code: code, sql: sql) }
                dataVersionStatement = statement
            }
            let statement = dataVersionStatement!
            defer { sqlite3_reset(statement) }
            let code = sqlite3_step(statement)
            guard code == SQLITE_ROW else { throw error(code: code, sql: sql) }
            return sqlite3_column_int64(statement, 0)
        }
    }

    /// Makes the statements running on this connection stop with ``ResultCode/interrupt``. Safe from any thread
    /// through ``interruptHandle``; this method is the same call for code that owns the connection.
    public func interrupt() {
        interruptHandle.interrupt()
    }

    // MARK: - Errors

    /// The error for a failed call on this connection, with SQLite's message, the SQL and the path.
    @usableFromInline
    func error(code: Int32, sql: String?) -> SQLiteError {
        SQLiteError.fromConnection(handle, code: code, sql: sql, path: path)
    }

    static func milliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        let total = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        return Int32(clamping: max(0, total))
    }
}

@available(*, unavailable, message: "A Connection is used by one thread at a time; share its interruptHandle instead")
extension Connection: Sendable {}
