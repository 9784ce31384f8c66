import CoreDataModel
import CoreDataSQLiteFormat
import Foundation
import PropertyListCoding
import SQLiteDatabase

/// The SQLite store's side of the coordinator's store lifecycle: creating a missing store, writing metadata, reading
/// and writing metadata without a coordinator, and destroying and replacing store files with everything beside them.
extension NSSQLiteStore {
    /// Creates the store file (and its directory) with the model's layout and metadata when nothing is at `url`, or
    /// only an empty file (an empty SQLite database, which `destroyPersistentStore` leaves), as Apple's coordinator
    /// does when a store is added. A store added read-only is never created.
    func createFileIfMissing(at url: URL) throws {
        if FileManager.default.fileExists(atPath: url.path) {
            let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.intValue
            guard size == 0, !isReadOnly else { return }
            // The empty file makes way for the new store, which the creator writes whole (it never overwrites).
            try? FileManager.default.removeItem(at: url)
        }
        if isReadOnly {
            throw CoreDataError(.persistentStoreOpen,
                                "\(url.path): no such file; a store added read-only (NSReadOnlyPersistentStoreOption) is opened, never created")
        }
        let directory = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw CoreDataError(.persistentStoreOpen, "\(directory.path): cannot create the store's directory (\(Self.fileSystemReason(error)))",
                                underlyingError: error)
        }
        do {
            try SQLiteStoreCreator.createStore(at: url, model: model)
        } catch {
            throw CoreDataError(.persistentStoreOpen, "cannot create the store: \(error)", underlyingError: error)
        }
    }

    // MARK: Metadata

    /// Writes metadata changed through `setMetadata(_:for:)` inside a save's transaction, so it commits (or rolls
    /// back) with the save.
    func writePendingMetadata() throws {
        guard hasUnsavedMetadata, let url else { return }
        try Self.write(metadata: metadata, to: connection, file: url.path)
    }

    /// After a save committed: the file now holds the metadata, and the store is known by its (possibly new) UUID.
    func didWritePendingMetadata() {
        guard hasUnsavedMetadata else { return }
        hasUnsavedMetadata = false
        if let uuid = metadata[StoreMetadata.Key.storeUUID] as? String { storeIdentifier = uuid }
    }

    /// `Z_METADATA`'s row from a metadata dictionary: the UUID in `Z_UUID`, every other key in the `Z_PLIST` binary
    /// property list (Apple keeps the UUID out of the plist).
    private static func write(metadata: [String: Any], to connection: Connection, file: String) throws {
        var keys = metadata
        let uuid = keys.removeValue(forKey: StoreMetadata.Key.storeUUID)
        guard let uuid = uuid as? String, !uuid.isEmpty else {
            throw CoreDataError(.persistentStoreOperation, "\(file): metadata key \(StoreMetadata.Key.storeUUID) must be a non-empty string")
        }
        let plist = BinaryPropertyListWriter().write(.dictionary(try StoreMetadataValues.propertyList(keys, file: file)))
        do {
            try connection.execute(sql: StoreSQL.writeMetadata, arguments: [.text(uuid), .blob([UInt8](plist))])
        } catch {
            throw CoreDataError(.persistentStoreSave, "\(file): cannot write the store's metadata (\(error))", underlyingError: error)
        }
    }

    /// The metadata of the SQLite store at `url`, read without a coordinator: `NSStoreUUID` from `Z_UUID`, the rest
    /// from `Z_PLIST`.
    static func readMetadata(at url: URL) throws -> [String: Any] {
        let file: SQLiteStoreFile
        do {
            file = try SQLiteStoreFile(path: url.path)
        } catch {
            throw CoreDataError(.persistentStoreOpen, error.description, underlyingError: error)
        }
        var metadata = file.metadata.dictionary.mapValues(\.foundationValue)
        metadata[StoreMetadata.Key.storeUUID] = file.metadata.uuid
        return metadata
    }

    /// Replaces the metadata of the SQLite store at `url` without a coordinator, in one transaction. `NSStoreType`
    /// is always the store's type, and the UUID stays unless `metadata` names another.
    static func writeMetadata(_ metadata: [String: Any]?, at url: URL) throws {
        let file: SQLiteStoreFile
        do {
            file = try SQLiteStoreFile(path: url.path, mode: .readWrite)
        } catch {
            throw CoreDataError(.persistentStoreOpen, error.description, underlyingError: error)
        }
        let current = [StoreMetadata.Key.storeUUID: file.metadata.uuid]
        let complete = StoreMetadataValues.completed(metadata, storeType: storeType, current: current)
        do {
            try file.connection.inTransaction(.immediate) {
                try write(metadata: complete, to: file.connection, file: url.path)
            }
        } catch let error as CoreDataError {
            throw error
        } catch {
            throw CoreDataError(.persistentStoreSave, "\(url.path): cannot write the store's metadata (\(error))", underlyingError: error)
        }
    }

    // MARK: Files

    /// The files of a store beside its main file: the write-ahead log, its index, a rollback journal.
    static func sideFiles(of url: URL) -> [URL] {
        ["-wal", "-shm", "-journal"].map { URL(fileURLWithPath: url.path + $0) }
    }

    /// The folder Core Data keeps beside a store for its external binary data (`.NAME_SUPPORT`).
    static func supportDirectory(of url: URL) -> URL {
        url.deletingLastPathComponent().appendingPathComponent(".\(url.deletingPathExtension().lastPathComponent)_SUPPORT", isDirectory: true)
    }

    /// Destroys the store at `url` as Apple's `destroyPersistentStore` does an SQLite store's: the database file is
    /// truncated to an empty database and left in place ("it is not possible to unlink a database file safely out from
    /// underneath another thread or process, so this API performs a truncation"), its journal files and external
    /// data folder are removed. Nothing there is not an error; a file that is not an SQLite database is refused.
    static func truncateFiles(at url: URL) throws {
        try checkIsDestroyable(url)
        guard FileManager.default.fileExists(atPath: url.path) else {
            // As Apple's, which opens the database to empty it: an empty database is left where there was none (code
            // written for Apple's platforms removes the file after destroying a store that may be gone already). Without
            // its directory there is nothing to leave, and nothing to destroy either.
            FileManager.default.createFile(atPath: url.path, contents: nil)
            return
        }
        for file in sideFiles(of: url) + [supportDirectory(of: url)] where FileManager.default.fileExists(atPath: file.path) {
            do {
                try FileManager.default.removeItem(at: file)
            } catch {
                throw CoreDataError(.persistentStoreOperation, "\(file.path): cannot be removed (\(fileSystemReason(error)))", underlyingError: error)
            }
        }
        do {
            let handle = try FileHandle(forWritingTo: url)
            defer { try? handle.close() }
            try handle.truncate(atOffset: 0)
        } catch {
            throw CoreDataError(.persistentStoreOperation, "\(url.path): cannot be truncated (\(fileSystemReason(error)))", underlyingError: error)
        }
    }

    /// Removes the store at `url` with its journal files and its external data folder. Nothing there is not an
    /// error; a file that is not an SQLite database is refused, so a wrong URL never deletes someone's document.
    static func destroyFiles(at url: URL) throws {
        try checkIsDestroyable(url)
        for file in [url] + sideFiles(of: url) + [supportDirectory(of: url)] where FileManager.default.fileExists(atPath: file.path) {
            do {
                try FileManager.default.removeItem(at: file)
            } catch {
                throw CoreDataError(.persistentStoreOperation, "\(file.path): cannot be removed (\(fileSystemReason(error)))", underlyingError: error)
            }
        }
    }

    /// Refuses a directory, or a file that is not an SQLite store, at `url`; nothing there passes.
    static func checkIsDestroyable(_ url: URL) throws {
        let path = url.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return }
        guard !isDirectory.boolValue else {
            throw CoreDataError(.persistentStoreOperation, "\(path): is a directory, not an SQLite store; nothing was destroyed")
        }
        try checkIsSQLiteFile(url, action: "destroyed")
    }

    /// Refuses a file that does not start with SQLite's header (an empty file is a store SQLite has not written yet).
    private static func checkIsSQLiteFile(_ url: URL, action: String) throws {
        guard let handle = FileHandle(forReadingAtPath: url.path) else {
            throw CoreDataError(.persistentStoreOperation, "\(url.path): cannot be read (permission denied); nothing was \(action)")
        }
        defer { try? handle.close() }
        let header = (try? handle.read(upToCount: 16)) ?? Data()
        guard header.isEmpty || header == Data("SQLite format 3\0".utf8) else {
            throw CoreDataError(.persistentStoreOperation, "\(url.path): is not an SQLite database, so not an SQLite store; nothing was \(action)")
        }
    }

    /// Replaces the store at `destination` with a consistent copy of the one at `source` (its committed state, write-ahead
    /// log included), and its external data with the source's. The copy is written beside the destination and renamed
    /// over it, so the destination is either the old store or the whole new one.
    static func copyStore(to destination: URL, from source: URL) throws {
        let sourceFile: SQLiteStoreFile
        do {
            sourceFile = try SQLiteStoreFile(path: source.path)
        } catch {
            throw CoreDataError(.persistentStoreOpen, "cannot copy the source store: \(error.description)", underlyingError: error)
        }
        if FileManager.default.fileExists(atPath: destination.path) { try checkIsSQLiteFile(destination, action: "replaced") }
        let directory = destination.deletingLastPathComponent()
        let temporary = directory.appendingPathComponent(".\(destination.lastPathComponent).replacing-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try sourceFile.connection.execute(sql: "VACUUM INTO ?", arguments: [.text(temporary.path)])
            // Core Data's stores run in WAL mode; the copy VACUUM INTO writes is in rollback mode.
            let copy = try Connection(path: temporary.path, mode: .readWrite)
            _ = try copy.setJournalMode(.wal)
        } catch {
            for file in [temporary] + sideFiles(of: temporary) { try? FileManager.default.removeItem(at: file) }
            throw CoreDataError(.persistentStoreOperation,
                                "\(destination.path): cannot write a copy of \(source.path) (\(fileSystemReason(error))); the destination is unchanged",
                                underlyingError: error)
        }
        // A write-ahead log left from the old store must never meet the new main file.
        for file in sideFiles(of: destination) + sideFiles(of: temporary) where FileManager.default.fileExists(atPath: file.path) {
            try? FileManager.default.removeItem(at: file)
        }
        // rename(2) replaces the destination in one step.
        guard rename(temporary.path, destination.path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw CoreDataError(.persistentStoreOperation, "\(destination.path): cannot be replaced (\(reason)); it is unchanged")
        }
        let sourceSupport = supportDirectory(of: source), destinationSupport = supportDirectory(of: destination)
        try? FileManager.default.removeItem(at: destinationSupport)
        if FileManager.default.fileExists(atPath: sourceSupport.path) {
            do {
                try FileManager.default.copyItem(at: sourceSupport, to: destinationSupport)
            } catch {
                throw CoreDataError(.persistentStoreOperation,
                                    "\(destinationSupport.path): cannot copy the source's external data (\(fileSystemReason(error)))", underlyingError: error)
            }
        }
    }
}
