import CSQLite

/// A named SQLite result code, primary (`.busy`) or extended (`.constraintUnique`).
///
/// Used as a pattern, a primary code matches every extended code in its family, while an extended code matches only
/// itself: `catch ResultCode.constraint` catches a unique violation, `catch ResultCode.constraintUnique` catches only
/// that.
public struct ResultCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The numeric code, as SQLite defines it.
    public let rawValue: Int32

    /// Wraps a numeric SQLite result code.
    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// The primary code of this code's family (the low eight bits).
    public var primary: ResultCode { ResultCode(rawValue: rawValue & 0xFF) }

    /// Whether this is an extended code, more precise than its primary code.
    public var isExtended: Bool { rawValue > 0xFF }

    /// SQLite's English description of the code ("database is locked", …).
    public var explanation: String { String(cString: sqlite3_errstr(rawValue)) }

    /// The C name of the code, such as `SQLITE_BUSY`, or `SQLITE_<number>` for codes this type does not name.
    public var name: String {
        if let name = Self.names[rawValue] { return name }
        if isExtended, let family = Self.names[rawValue & 0xFF] { return "\(family)_\(rawValue >> 8)" }
        return "SQLITE_\(rawValue)"
    }

    public var description: String { "\(name): \(explanation)" }

    /// Whether `error` is an ``SQLiteError`` with this code (the family for a primary code, exactly for an extended
    /// one).
    public static func ~= (pattern: ResultCode, error: any Error) -> Bool {
        guard let error = error as? SQLiteError else { return false }
        return pattern ~= error
    }

    /// Whether `error` has this code (the family for a primary code, exactly for an extended one).
    public static func ~= (pattern: ResultCode, error: SQLiteError) -> Bool {
        pattern.isExtended ? error.extendedResultCode == pattern.rawValue : error.resultCode == pattern.rawValue
    }
}

// MARK: - Primary codes

extension ResultCode {
    public static let ok = ResultCode(rawValue: SQLITE_OK)
    /// A generic error: SQL syntax, missing table, an error raised by a custom function, …
    public static let error = ResultCode(rawValue: SQLITE_ERROR)
    public static let `internal` = ResultCode(rawValue: SQLITE_INTERNAL)
    /// An access permission was denied.
    public static let permission = ResultCode(rawValue: SQLITE_PERM)
    /// A callback asked to abort, or a conflict resolution aborted the statement.
    public static let abort = ResultCode(rawValue: SQLITE_ABORT)
    /// Another connection holds a lock that the busy timeout did not outlast.
    public static let busy = ResultCode(rawValue: SQLITE_BUSY)
    /// A conflict inside the same connection (a table in use by a running statement).
    public static let locked = ResultCode(rawValue: SQLITE_LOCKED)
    public static let noMemory = ResultCode(rawValue: SQLITE_NOMEM)
    /// An attempt to write through a read-only connection or to a read-only file.
    public static let readOnly = ResultCode(rawValue: SQLITE_READONLY)
    /// The operation was cancelled by ``Connection/interrupt()`` or a progress handler.
    public static let interrupt = ResultCode(rawValue: SQLITE_INTERRUPT)
    public static let ioError = ResultCode(rawValue: SQLITE_IOERR)
    /// The database file is malformed (truncated, overwritten, …).
    public static let corrupt = ResultCode(rawValue: SQLITE_CORRUPT)
    public static let notFound = ResultCode(rawValue: SQLITE_NOTFOUND)
    public static let full = ResultCode(rawValue: SQLITE_FULL)
    /// The file (or one of its `-wal`/`-shm` side files) could not be opened.
    public static let cantOpen = ResultCode(rawValue: SQLITE_CANTOPEN)
    public static let `protocol` = ResultCode(rawValue: SQLITE_PROTOCOL)
    public static let empty = ResultCode(rawValue: SQLITE_EMPTY)
    public static let schema = ResultCode(rawValue: SQLITE_SCHEMA)
    public static let tooBig = ResultCode(rawValue: SQLITE_TOOBIG)
    /// A `UNIQUE`, `NOT NULL`, `CHECK`, foreign-key or primary-key constraint failed.
    public static let constraint = ResultCode(rawValue: SQLITE_CONSTRAINT)
    public static let mismatch = ResultCode(rawValue: SQLITE_MISMATCH)
    /// The API was used incorrectly (for example, binding while a statement runs).
    public static let misuse = ResultCode(rawValue: SQLITE_MISUSE)
    public static let noLargeFileSupport = ResultCode(rawValue: SQLITE_NOLFS)
    public static let authorization = ResultCode(rawValue: SQLITE_AUTH)
    public static let format = ResultCode(rawValue: SQLITE_FORMAT)
    /// A bind index or column index is out of range, or a parameter name is unknown.
    public static let range = ResultCode(rawValue: SQLITE_RANGE)
    /// The file is not an SQLite database (or is encrypted).
    public static let notADatabase = ResultCode(rawValue: SQLITE_NOTADB)
    public static let notice = ResultCode(rawValue: SQLITE_NOTICE)
    public static let warning = ResultCode(rawValue: SQLITE_WARNING)
    public static let row = ResultCode(rawValue: SQLITE_ROW)
    public static let done = ResultCode(rawValue: SQLITE_DONE)
}

// MARK: - Extended codes

extension ResultCode {
    private static func extended(_ primary: Int32, _ detail: Int32) -> ResultCode {
        ResultCode(rawValue: primary | (detail << 8))
    }

    public static let busyRecovery = extended(SQLITE_BUSY, 1)
    /// A WAL read transaction cannot be upgraded to a write transaction because another connection wrote meanwhile.
    public static let busySnapshot = extended(SQLITE_BUSY, 2)
    public static let busyTimeout = extended(SQLITE_BUSY, 3)
    public static let lockedSharedCache = extended(SQLITE_LOCKED, 1)
    public static let readOnlyRecovery = extended(SQLITE_READONLY, 1)
    public static let readOnlyCantLock = extended(SQLITE_READONLY, 2)
    public static let readOnlyRollback = extended(SQLITE_READONLY, 3)
    public static let readOnlyDatabaseMoved = extended(SQLITE_READONLY, 4)
    /// A read-only connection could not initialise the WAL index (`-shm`).
    public static let readOnlyCantInit = extended(SQLITE_READONLY, 5)
    public static let readOnlyDirectory = extended(SQLITE_READONLY, 6)
    public static let corruptVirtualTable = extended(SQLITE_CORRUPT, 1)
    public static let corruptSequence = extended(SQLITE_CORRUPT, 2)
    public static let corruptIndex = extended(SQLITE_CORRUPT, 3)
    public static let cantOpenIsDirectory = extended(SQLITE_CANTOPEN, 2)
    public static let cantOpenFullPath = extended(SQLITE_CANTOPEN, 3)
    public static let constraintCheck = extended(SQLITE_CONSTRAINT, 1)
    public static let constraintCommitHook = extended(SQLITE_CONSTRAINT, 2)
    public static let constraintForeignKey = extended(SQLITE_CONSTRAINT, 3)
    public static let constraintFunction = extended(SQLITE_CONSTRAINT, 4)
    public static let constraintNotNull = extended(SQLITE_CONSTRAINT, 5)
    public static let constraintPrimaryKey = extended(SQLITE_CONSTRAINT, 6)
    public static let constraintTrigger = extended(SQLITE_CONSTRAINT, 7)
    public static let constraintUnique = extended(SQLITE_CONSTRAINT, 8)
    public static let constraintVirtualTable = extended(SQLITE_CONSTRAINT, 9)
    public static let constraintRowID = extended(SQLITE_CONSTRAINT, 10)
    public static let abortRollback = extended(SQLITE_ABORT, 2)

    private static let names: [Int32: String] = [
        SQLITE_OK: "SQLITE_OK", SQLITE_ERROR: "SQLITE_ERROR", SQLITE_INTERNAL: "SQLITE_INTERNAL",
        SQLITE_PERM: "SQLITE_PERM", SQLITE_ABORT: "SQLITE_ABORT", SQLITE_BUSY: "SQLITE_BUSY",
        SQLITE_LOCKED: "SQLITE_LOCKED", SQLITE_NOMEM: "SQLITE_NOMEM", SQLITE_READONLY: "SQLITE_READONLY",
        SQLITE_INTERRUPT: "SQLITE_INTERRUPT", SQLITE_IOERR: "SQLITE_IOERR", SQLITE_CORRUPT: "SQLITE_CORRUPT",
        SQLITE_NOTFOUND: "SQLITE_NOTFOUND", SQLITE_FULL: "SQLITE_FULL", SQLITE_CANTOPEN: "SQLITE_CANTOPEN",
        SQLITE_PROTOCOL: "SQLITE_PROTOCOL", SQLITE_EMPTY: "SQLITE_EMPTY", SQLITE_SCHEMA: "SQLITE_SCHEMA",
        SQLITE_TOOBIG: "SQLITE_TOOBIG", SQLITE_CONSTRAINT: "SQLITE_CONSTRAINT", SQLITE_MISMATCH: "SQLITE_MISMATCH",
        SQLITE_MISUSE: "SQLITE_MISUSE", SQLITE_NOLFS: "SQLITE_NOLFS", SQLITE_AUTH: "SQLITE_AUTH",
        SQLITE_FORMAT: "SQLITE_FORMAT", SQLITE_RANGE: "SQLITE_RANGE", SQLITE_NOTADB: "SQLITE_NOTADB",
        SQLITE_NOTICE: "SQLITE_NOTICE", SQLITE_WARNING: "SQLITE_WARNING", SQLITE_ROW: "SQLITE_ROW",
        SQLITE_DONE: "SQLITE_DONE",
        busySnapshot.rawValue: "SQLITE_BUSY_SNAPSHOT", busyTimeout.rawValue: "SQLITE_BUSY_TIMEOUT",
        readOnlyCantInit.rawValue: "SQLITE_READONLY_CANTINIT", readOnlyDirectory.rawValue: "SQLITE_READONLY_DIRECTORY",
        readOnlyRecovery.rawValue: "SQLITE_READONLY_RECOVERY", readOnlyCantLock.rawValue: "SQLITE_READONLY_CANTLOCK",
        constraintUnique.rawValue: "SQLITE_CONSTRAINT_UNIQUE", constraintNotNull.rawValue: "SQLITE_CONSTRAINT_NOTNULL",
        constraintPrimaryKey.rawValue: "SQLITE_CONSTRAINT_PRIMARYKEY",
        constraintForeignKey.rawValue: "SQLITE_CONSTRAINT_FOREIGNKEY", constraintCheck.rawValue: "SQLITE_CONSTRAINT_CHECK",
        constraintTrigger.rawValue: "SQLITE_CONSTRAINT_TRIGGER", constraintRowID.rawValue: "SQLITE_CONSTRAINT_ROWID",
    ]
}
