import CSQLite

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Hot rollback journals: what a save interrupted by a crash, a kill or a full disk leaves beside a database in
/// rollback-journal mode. The main file may then hold half of the save; the `-journal` holds the pages that undo
/// it, and only a read-write opener may apply them. A read-only reader is refused (`SQLITE_READONLY_ROLLBACK`), so
/// opening read-only first rolls the journal back through a brief read-write connection when the location allows.
/// What opening did with a hot rollback journal it found beside a database (``Connection/journalRecovery``).
public struct JournalRecovery: Sendable, Equatable {
    /// The journal's path.
    public let journal: String
    /// Whether rolling back wrote to the main file. False when the journal held no valid rollback data (its header
    /// was damaged or it recorded no page), so SQLite only removed it and the database is byte for byte as before.
    public let restoredPages: Bool
}

extension Connection {
    /// The path of the rollback journal SQLite keeps beside `path`.
    public static func journalPath(for path: String) -> String { path + "-journal" }

    /// Whether the rollback journal beside `path` holds an interrupted transaction, judged from the file alone: it
    /// exists, is not empty and does not start with a zero byte (a committed journal in `PERSIST` mode is zeroed).
    /// A journal of a writer that is still running looks the same; SQLite tells the two apart by its lock.
    public static func hasJournalContent(path: String) -> Bool {
        let descriptor = Glibc.open(journalPath(for: path), O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var first: UInt8 = 0
        return read(descriptor, &first, 1) == 1 && first != 0
    }

    /// Rolls back a hot journal beside `path` before the real connection opens, and says what that did. Does nothing
    /// (nil) when there is no journal, or when the journal belongs to a writer that holds its lock.
    ///
    /// - Throws: ``ResultCode/readOnlyRollback`` with a message naming the journal when the journal is hot but the
    ///   file or its directory cannot be written, so that nothing can apply it here.
    static func rollBackHotJournal(path: String, busyTimeout: Duration, canWriteInPlace: Bool) throws(SQLiteError) -> JournalRecovery? {
        guard hasJournalContent(path: path) else { return nil }
        // SQLite decides whether the journal is hot (no writer holds the reserved lock): a read-only reader is
        // refused with SQLITE_READONLY_ROLLBACK exactly then.
        do throws(SQLiteError) {
            let probe = try openHandle(path: path, mode: .readOnly, immutable: false, isMemory: false)
            try configureAndCheck(probe, path: path, busyTimeout: busyTimeout)
            sqlite3_close_v2(probe)
            return nil
        } catch {
            guard error.extendedCode == .readOnlyRollback else { throw error }
        }
        guard canWriteInPlace else { throw hotJournalError(path: path, detail: nil) }
        let before = fileStamp(path)
        let handle = try openHandle(path: path, mode: .readWrite, immutable: false, isMemory: false)
        // SQLite falls back to reading only when the file turns out not to be writable.
        guard sqlite3_db_readonly(handle, "main") != 1 else {
            sqlite3_close_v2(handle)
            throw hotJournalError(path: path, detail: "the file is read-only")
        }
        do throws(SQLiteError) {
            // The first read of a read-write connection applies the journal and deletes it.
            try configureAndCheck(handle, path: path, busyTimeout: busyTimeout)
        } catch {
            throw hotJournalError(path: path, detail: error.message)
        }
        sqlite3_close_v2(handle)
        return JournalRecovery(journal: journalPath(for: path), restoredPages: fileStamp(path) != before)
    }

    /// The size and modification time of `path`: rolling a journal back writes the main file, which changes both
    /// or at least the time.
    private static func fileStamp(_ path: String) -> [Int] {
        var status = stat()
        guard stat(path, &status) == 0 else { return [] }
        return [Int(status.st_size), Int(status.st_mtim.tv_sec), Int(status.st_mtim.tv_nsec), Int(status.st_ino)]
    }

    /// The error for a hot journal that cannot be applied where the database lies.
    static func hotJournalError(path: String, detail: String?) -> SQLiteError {
        let journal = journalPath(for: path)
        var message = "an interrupted save left \(fileName(journal)) beside the database: the main file on its own is "
            + "incomplete, and the journal holds the pages that restore it, which only a writer may apply; this "
            + "location cannot be written (read-only file or directory). Copy \(fileName(path)) together with "
            + "\(fileName(journal)) to a writable directory and open the copy; never copy or delete one without the other"
        if let detail { message += " (\(detail))" }
        return SQLiteError(resultCode: ResultCode.readOnlyRollback.rawValue, message: message, path: path)
    }

    static func fileName(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }

    /// Whether both `path` and its directory can be written, as rolling back (and deleting) a journal needs.
    static func canWriteInPlace(path: String, directoryWritable: Bool) -> Bool {
        directoryWritable && Glibc.access(path, W_OK) == 0
    }
}

/// A `-wal` that does not belong to the file beside it: SQLite cannot tell (a WAL header names no database), so it
/// applies the frames and the database reads as damaged. When the main file alone is intact, the error says so.
extension Connection {
    /// Whether the main file, read without its `-wal` (`immutable=1`, which never touches side files), passes
    /// `PRAGMA quick_check`.
    static func mainFileAloneIsIntact(path: String, busyTimeout: Duration) -> Bool {
        guard let handle = try? openHandle(path: path, mode: .readOnly, immutable: true, isMemory: false) else { return false }
        defer { sqlite3_close_v2(handle) }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, "PRAGMA quick_check(1)", -1, &statement, nil) == SQLITE_OK else { return false }
        defer { sqlite3_finalize(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW, let text = sqlite3_column_text(statement, 0) else { return false }
        return String(cString: text) == "ok"
    }

    static func staleWALError(path: String, walByteCount: Int64, detail: String) -> SQLiteError {
        let wal = path + "-wal"
        let message = "the database reads as damaged together with \(fileName(wal)) (\(walByteCount) bytes), while the main "
            + "file alone is intact: the -wal probably belongs to another copy of the database (a stale -wal left "
            + "when the file was replaced). Move \(fileName(wal)) and \(fileName(path + "-shm")) aside to read the "
            + "file as of its last checkpoint (transactions only in that -wal are then not seen) (SQLite said: \(detail))"
        return SQLiteError(.corrupt, message: message, path: path)
    }
}
