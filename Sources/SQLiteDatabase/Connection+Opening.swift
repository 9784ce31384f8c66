import CSQLite

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How a read-only connection reaches a database, decided from the files on disk before opening.
enum ReadOnlyAccess: Equatable {
    /// A normal read-only connection, taking shared locks and reading the `-wal` through the `-shm` index.
    case shared
    /// `immutable=1`: no locks, no `-wal`; only correct when the `-wal` holds nothing.
    case immutable
}

/// What the read-only rules need to know about a database file and its neighbours.
struct DatabaseFileState: Equatable {
    /// The header says the database is in WAL mode (format version bytes 18–19 equal to 2).
    var isWAL: Bool
    /// `-shm` (and `-wal`) can be created beside the database: its directory is writable.
    var canCreateSideFiles: Bool
    var sharedMemoryFileExists: Bool
    /// The size of the `-wal` file, 0 when it is absent.
    var walByteCount: Int64
}

extension Connection {
    /// Chooses between ``ReadOnlyAccess/shared`` and ``ReadOnlyAccess/immutable``, or refuses, as documented on
    /// ``Connection/init(path:mode:busyTimeout:)``.
    static func readOnlyAccess(for state: DatabaseFileState, path: String) throws(SQLiteError) -> ReadOnlyAccess {
        // SQLite reads a WAL database read-only when it can create the -shm, or when the -shm already exists
        // (it then keeps the index in private memory).
        if !state.isWAL || state.canCreateSideFiles || state.sharedMemoryFileExists { return .shared }
        if state.walByteCount > 0 { throw walNeedsSideFilesError(path: path, detail: nil) }
        return .immutable
    }

    static func walNeedsSideFilesError(path: String, detail: String?) -> SQLiteError {
        var message = "cannot read this WAL-mode database read-only in place: its -wal file holds transactions that "
            + "are not yet in the main file, and SQLite needs a -shm index file that cannot be created here "
            + "(read-only directory or file). Copy the database together with its -wal and -shm files to a "
            + "writable directory and open the copy"
        if let detail { message += " (SQLite said: \(detail))" }
        return SQLiteError(.cantOpen, message: message, path: path)
    }

    /// Opens the handle, applies the connection settings and checks that the file is a database.
    static func open(
        path: String, mode: OpenMode, busyTimeout: Duration, sideFilesCreatable: Bool?
    ) throws(SQLiteError) -> (handle: OpaquePointer, isImmutable: Bool, journalRecovery: JournalRecovery?) {
        let isMemory = path == ":memory:" || path.isEmpty
        var chosenAccess = ReadOnlyAccess.shared
        var fileState: DatabaseFileState?
        var journalRecovery: JournalRecovery?
        if !isMemory && mode != .create {
            let state = try inspectFile(at: path, mode: mode, sideFilesCreatable: sideFilesCreatable)
            fileState = state
            // Before anything reads the file: a hot journal means the main file alone is not the database.
            journalRecovery = try rollBackHotJournal(
                path: path, busyTimeout: busyTimeout,
                canWriteInPlace: canWriteInPlace(path: path, directoryWritable: state.canCreateSideFiles))
            if mode == .readOnly { chosenAccess = try readOnlyAccess(for: state, path: path) }
        }
        do throws(SQLiteError) {
            let immutable = chosenAccess == .immutable
            let handle = try openHandle(path: path, mode: mode, immutable: immutable, isMemory: isMemory)
            try configureAndCheck(handle, path: path, busyTimeout: busyTimeout)
            return (handle, immutable, journalRecovery)
        } catch {
            if let state = fileState, state.walByteCount > 0, error.code == .corrupt || error.code == .notADatabase,
                mainFileAloneIsIntact(path: path, busyTimeout: busyTimeout) {
                throw staleWALError(path: path, walByteCount: state.walByteCount, detail: error.message)
            }
            // A read-only WAL database whose -shm SQLite could not use after all (an unwritable -shm with no -wal,
            // a file system without shared memory): fall back as the rules say.
            guard mode == .readOnly, chosenAccess == .shared, let state = fileState, state.isWAL,
                error.code == .cantOpen || error.code == .readOnly
            else { throw error }
            guard state.walByteCount == 0 else { throw walNeedsSideFilesError(path: path, detail: error.message) }
            let handle = try openHandle(path: path, mode: mode, immutable: true, isMemory: false)
            try configureAndCheck(handle, path: path, busyTimeout: busyTimeout)
            return (handle, true, journalRecovery)
        }
    }

    static func openHandle(
        path: String, mode: OpenMode, immutable: Bool, isMemory: Bool
    ) throws(SQLiteError) -> OpaquePointer {
        var flags = SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX
        switch mode {
        case .readOnly: flags |= SQLITE_OPEN_READONLY
        case .readWrite: flags |= SQLITE_OPEN_READWRITE
        case .create: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        }
        // Paths always go through a `file:` URI so that a name containing `?` or `#`, or starting with `file:`,
        // means the file it names, and so that `immutable=1` can be added.
        var filename = isMemory ? ":memory:" : uri(forPath: path)
        if immutable { filename += "?immutable=1" }
        var handle: OpaquePointer?
        let code = sqlite3_open_v2(filename, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let error = SQLiteError.fromConnection(handle, code: code, path: path)
            sqlite3_close_v2(handle)
            throw error
        }
        return handle
    }

    static func configureAndCheck(
        _ handle: OpaquePointer, path: String, busyTimeout: Duration
    ) throws(SQLiteError) {
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, milliseconds(busyTimeout))
        // Reading the schema reads and validates page 1: a foreign file fails here, not on the first real query.
        let sql = "SELECT count(*) FROM sqlite_master"
        var statement: OpaquePointer?
        var code = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        if code == SQLITE_OK {
            code = sqlite3_step(statement)
            if code == SQLITE_ROW { code = SQLITE_OK }
        }
        if code != SQLITE_OK {
            let error = SQLiteError.fromConnection(handle, code: code, sql: sql, path: path)
            sqlite3_finalize(statement)
            sqlite3_close_v2(handle)
            throw error
        }
        sqlite3_finalize(statement)
    }

    /// Checks that the file exists and is not empty, and gathers what the read-only rules need.
    private static func inspectFile(
        at path: String, mode: OpenMode, sideFilesCreatable: Bool?
    ) throws(SQLiteError) -> DatabaseFileState {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw SQLiteError(.cantOpen, message: "unable to open database file: no such file", path: path)
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw SQLiteError(.cantOpen, message: "unable to open database file: not a regular file", path: path)
        }
        if mode == .readOnly && info.st_size == 0 {
            throw SQLiteError(.notADatabase, message: "file is not a database: it is empty", path: path)
        }
        let header = readHeader(path: path)
        var walInfo = stat()
        let walByteCount = stat(path + "-wal", &walInfo) == 0 ? Int64(walInfo.st_size) : 0
        return DatabaseFileState(
            // SQLite reads a non-empty -wal even beside a file whose header says rollback journal (a -wal left from
            // the file's WAL days, or one that came with a copy): such a file is read as WAL too.
            isWAL: (header.count >= 20 && (header[18] == 2 || header[19] == 2)) || walByteCount > 0,
            canCreateSideFiles: sideFilesCreatable ?? (Glibc.access(directory(of: path), W_OK) == 0),
            sharedMemoryFileExists: Glibc.access(path + "-shm", F_OK) == 0,
            walByteCount: walByteCount)
    }

    /// The first 100 bytes of the file (fewer for a short file, none when it cannot be read).
    private static func readHeader(path: String) -> [UInt8] {
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return [] }
        defer { close(descriptor) }
        var header = [UInt8](repeating: 0, count: 100)
        let count = header.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, 100) }
        return count > 0 ? Array(header.prefix(count)) : []
    }

    private static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// A `file:` URI for `path`, percent-encoding everything but unreserved characters and slashes.
    static func uri(forPath path: String) -> String {
        let hexDigits = Array("0123456789ABCDEF".utf8)
        var bytes = Array("file:".utf8)
        // An absolute path gets an empty authority (`file:///…`) so that `//x` is never read as a host name.
        if path.hasPrefix("/") { bytes += Array("//".utf8) }
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"), UInt8(ascii: "/"):
                bytes.append(byte)
            default:
                bytes += [UInt8(ascii: "%"), hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
