import CoreDataModel
import Foundation
import SQLiteDatabase

/// A Core Data SQLite store on disk, opened read-only to learn what it holds: its metadata, entity numbers,
/// model cache and row counts. Opening checks, in order, that the file exists, is SQLite, is intact enough to read,
/// and is a Core Data store, and names the first thing that is wrong.
public final class SQLiteStoreFile {
    public let path: String
    public let connection: Connection
    public let metadata: StoreMetadata
    /// `Z_PRIMARYKEY`, in entity-number order.
    public let primaryKeys: [PrimaryKeyEntry]
    public let hasModelCache: Bool

    /// Opens the store at `path`, read-only unless `mode` says otherwise, waiting up to `busyTimeout` for a writer.
    public convenience init(path: String, mode: Connection.OpenMode = .readOnly, busyTimeout: Duration = .seconds(5)) throws(StoreFormatError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw StoreFormatError(file: path, reason: "no such file")
        }
        guard !isDirectory.boolValue else { throw StoreFormatError(file: path, reason: "is a directory, not a store file") }
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw StoreFormatError(file: path, reason: "cannot be read (permission denied)")
        }
        let connection: Connection
        do {
            connection = try Connection(path: path, mode: mode, busyTimeout: busyTimeout)
        } catch {
            throw Self.describe(error, path: path)
        }
        try self.init(connection: connection, path: path)
    }

    /// The store behind an open connection, its metadata and entity numbers read afresh (after a migration changed
    /// them, say): the connection is kept, not reopened.
    public init(connection: Connection, path: String) throws(StoreFormatError) {
        self.path = path
        self.connection = connection
        do {
            guard try connection.tableExists("Z_METADATA"), try connection.tableExists("Z_PRIMARYKEY") else {
                throw StoreFormatError(file: path, reason: "is an SQLite database but not a Core Data store (it has no Z_METADATA and Z_PRIMARYKEY tables)")
            }
            let rows = try connection.query("SELECT Z_UUID, Z_PLIST FROM Z_METADATA")
            guard let row = rows.first, row.count == 2 else {
                throw StoreFormatError(file: path, reason: "is not a valid Core Data store: its Z_METADATA table is empty")
            }
            guard let plist = row[1].blobValue else {
                throw StoreFormatError(file: path, reason: "is not a valid Core Data store: Z_METADATA.Z_PLIST is not a blob")
            }
            metadata = try StoreMetadata(uuid: row[0].stringValue ?? "", plist: plist, file: path)
            primaryKeys = try connection.query("SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT").map { row in
                PrimaryKeyEntry(entityNumber: Int(row[0].int64Value ?? 0), name: row[1].stringValue ?? "",
                                superEntityNumber: Int(row[2].int64Value ?? 0), maximumPrimaryKey: row[3].int64Value ?? 0)
            }
            hasModelCache = try connection.tableExists("Z_MODELCACHE")
        } catch let error as StoreFormatError {
            throw error
        } catch let error as SQLiteError {
            throw Self.describe(error, path: path)
        } catch {
            throw StoreFormatError(file: path, reason: "cannot be read (\(error))")
        }
    }

    /// The rollback journal of an interrupted save that opening applied, or nil (see
    /// `Connection.recoveredJournal`).
    public var recoveredJournal: String? { connection.recoveredJournal }

    /// One line saying that opening recovered an interrupted save, for a command's standard error or the browser's
    /// message line; nil when it did not.
    public var recoveryNote: String? {
        connection.journalRecovery.map { recovery in
            let journal = (recovery.journal as NSString).lastPathComponent
            guard recovery.restoredPages else {
                return "removed \(journal), a rollback journal that held no valid rollback data; the store was not changed"
            }
            return "recovered an interrupted save from \(journal): it was rolled back, and the store holds its last complete save"
        }
    }

    /// The journal mode the file header records (`wal` or `delete`).
    public var journalMode: String? {
        (try? connection.journalMode())?.rawValue
    }

    /// The model Core Data cached in the store, or nil when the store has none (stores before iOS 5-era
    /// frameworks, and stores whose cache row is empty).
    public func cachedModel() throws(StoreFormatError) -> NSManagedObjectModel? {
        guard hasModelCache else { return nil }
        let blob: [UInt8]?
        do {
            blob = try connection.scalar("SELECT Z_CONTENT FROM Z_MODELCACHE LIMIT 1")?.blobValue
        } catch {
            throw Self.describe(error, path: path)
        }
        guard let blob, !blob.isEmpty else { return nil }
        return try ModelCache.model(fromCache: blob, file: path)
    }

    /// Row counts by `Z_ENT` over every entity table of `layout` that exists in the store
    /// (`SELECT Z_ENT, count(*) … GROUP BY Z_ENT`).
    public func rowCountsByEntityNumber(layout: StoreLayout) throws(StoreFormatError) -> [Int: Int] {
        var counts: [Int: Int] = [:]
        do {
            for table in layout.tables where try connection.tableExists(table.name) {
                for row in try connection.query(StoreSQL.rowCountsByEntity(table: table)) {
                    counts[Int(row[0].int64Value ?? 0), default: 0] += Int(row[1].int64Value ?? 0)
                }
            }
        } catch {
            throw Self.describe(error, path: path)
        }
        return counts
    }

    /// Turns an SQLite failure into a message about the store file.
    static func describe(_ error: SQLiteError, path: String) -> StoreFormatError {
        switch error.code {
        case .notADatabase:
            return StoreFormatError(file: path, reason: "is not an SQLite database (and so not a Core Data store)")
        case .corrupt where error.message.hasPrefix("the database reads as damaged together with"):
            // A stale -wal beside an intact file (Connection explains it).
            return StoreFormatError(file: path, reason: "cannot be read: \(error.message)")
        case .corrupt:
            return StoreFormatError(file: path, reason: "is corrupt or truncated (SQLite: \(error.message))")
        case .readOnly where error.extendedCode == .readOnlyRollback:
            return StoreFormatError(file: path, reason: "cannot be opened here: \(error.message)")
        case .full, .ioError, .noMemory:
            return StoreFormatError(file: path, reason: "cannot be read: \(error.storageProblem ?? error.message) (\(error.description))")
        case .busy, .locked:
            return StoreFormatError(file: path, reason: "is locked by another process (SQLite: \(error.message)); try again")
        case .cantOpen:
            return StoreFormatError(file: path, reason: "cannot be opened (SQLite: \(error.message))")
        default:
            return StoreFormatError(file: path, reason: "cannot be read (\(error.description))")
        }
    }
}
