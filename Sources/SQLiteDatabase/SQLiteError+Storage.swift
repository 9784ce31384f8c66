import CSQLite

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Failures that come from the machine rather than from the database: a full disk, a file size limit, an I/O
/// error, no memory. They deserve their own words, because the remedy is outside the store.
extension SQLiteError {
    /// What went wrong with the storage or the memory, in one phrase, or nil when the error is not of that kind.
    public var storageProblem: String? {
        let number = systemErrorNumber
        switch code {
        case .full:
            return "the disk is full (SQLITE_FULL)"
        case .ioError:
            switch number {
            case ENOSPC?: return "the disk is full (ENOSPC)"
            case EFBIG?: return "the file would grow past the largest size allowed here (EFBIG: a file size limit)"
            case EDQUOT?: return "the disk quota is exhausted (EDQUOT)"
            case ENOMEM?: return "out of memory (ENOMEM)"
            default:
                let reason = number.map { " (\(String(cString: strerror($0))), errno \($0))" } ?? ""
                var text = "an I/O error while \(extendedCode.ioOperation)\(reason) (\(extendedCode.name))"
                // SQLite often loses the errno of a failed write (a later call replaces it): a file size limit,
                // which fails writes with EFBIG, is then worth naming as the likely cause.
                if let limit = Self.fileSizeLimit { text += "; this process may write files of at most \(limit) bytes (a file size limit, ulimit -f), the likely cause" }
                return text
            }
        case .noMemory:
            return "out of memory (SQLITE_NOMEM)"
        default:
            return nil
        }
    }
}

extension SQLiteError {
    /// The process's file size limit (`RLIMIT_FSIZE`) in bytes, or nil when there is none.
    static var fileSizeLimit: UInt64? {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_FSIZE.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max else { return nil }
        return UInt64(limit.rlim_cur)
    }
}

extension ResultCode {
    /// The operation an extended `SQLITE_IOERR_…` code names.
    var ioOperation: String {
        switch rawValue >> 8 {
        case 1: return "reading"
        case 2: return "reading (short read)"
        case 3: return "writing"
        case 4: return "syncing to disk"
        case 5: return "syncing the directory"
        case 6: return "truncating"
        case 7: return "reading file status"
        case 10: return "deleting a file"
        case 11, 12, 16, 17, 19, 20, 21: return "locking"
        case 24: return "seeking"
        default: return "accessing the file"
        }
    }
}

extension Connection {
    /// After a write failed: when the failure left the rollback journal hot (the main file holding part of the
    /// transaction), asks SQLite to apply it now; returns the journal's path when it is still needed afterwards
    /// (the main file alone is then incomplete until the next opener applies the journal), nil otherwise.
    public func restoreAfterFailedWrite() -> String? {
        guard path != ":memory:", Self.hasJournalContent(path: path) else { return nil }
        try? rollback()
        // Taking a read lock with no transaction open makes SQLite play back a hot journal.
        _ = try? scalar("SELECT count(*) FROM sqlite_master")
        return Self.hasJournalContent(path: path) && !isInTransaction ? Self.journalPath(for: path) : nil
    }
}
