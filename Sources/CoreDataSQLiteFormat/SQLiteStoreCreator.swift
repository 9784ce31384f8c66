import CoreDataModel
import Foundation
import PropertyListCoding
import SQLiteDatabase

/// Creates an empty store for a model, as Apple's Core Data creates one (store format reference §13.4): the
/// pragmas, every table, index and trigger in Apple's order, `Z_PRIMARYKEY` rows, `Z_METADATA` with the
/// model's version hashes, digest and checksum, and the model itself in `Z_MODELCACHE`.
public enum SQLiteStoreCreator {
    /// The framework version written into new stores' metadata (`NSPersistenceFrameworkVersion`): the iOS 17-era
    /// Core Data whose format we reproduce.
    public static let frameworkVersion: Int64 = 1344

    /// Creates the store file at `url` (which must not exist) and returns its UUID. Nothing is left behind on
    /// failure.
    @discardableResult
    public static func createStore(at url: URL, model: NSManagedObjectModel, uuid: UUID = UUID()) throws -> String {
        guard !FileManager.default.fileExists(atPath: url.path) else {
            throw StoreFormatError(file: url.path, reason: "already exists; refusing to overwrite it")
        }
        let layout = StoreLayout(model: model)
        let identifier = uuid.uuidString
        do {
            let connection = try Connection(path: url.path, mode: .create)
            // auto_vacuum and page_size only take effect before the first table exists.
            try connection.execute(sql: "PRAGMA auto_vacuum = 2; PRAGMA page_size = 4096")
            _ = try connection.setJournalMode(.wal)
            try connection.inTransaction(.exclusive) {
                for statement in layout.schemaStatements(model: model) {
                    try connection.execute(sql: statement)
                }
                let insert = try connection.prepare("INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, 0)")
                for name in layout.numbering.namesInNumberOrder {
                    let parent = model.entitiesByName[name]?.superentity.flatMap { layout.numbering[$0.entityName] } ?? 0
                    try insert.bind([.integer(Int64(layout.numbering[name]!)), .text(name), .integer(Int64(parent))])
                    try insert.run()
                    insert.reset()
                }
                try connection.execute(
                    sql: "INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, ?, ?)",
                    arguments: [.text(identifier), .blob([UInt8](metadataPlist(for: model)))])
                // The store carries its model, as Apple's do, so it opens without the model file.
                let cache = try ModelCache.deflate([UInt8](try CompiledModelWriter.archive(model)))
                try connection.execute(sql: "INSERT INTO Z_MODELCACHE (Z_CONTENT) VALUES (?)", arguments: [.blob(cache)])
            }
        } catch {
            for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
            if let error = error as? StoreFormatError { throw error }
            throw StoreFormatError(file: url.path, reason: "could not be created (\(error))")
        }
        return identifier
    }

    /// The `Z_PLIST` dictionary Core Data writes for a model.
    public static func metadataPlist(for model: NSManagedObjectModel) -> Data {
        let hashes = model.entityVersionHashesByName
        let dictionary: [String: PropertyListValue] = [
            StoreMetadata.Key.storeType: .string("SQLite"),
            StoreMetadata.Key.frameworkVersion: .integer(frameworkVersion),
            StoreMetadata.Key.versionHashes: .dictionary(hashes.mapValues { .data($0) }),
            StoreMetadata.Key.versionHashesVersion: .integer(3),
            StoreMetadata.Key.versionIdentifiers: .array(model.versionIdentifierStrings.map { .string($0) }),
            StoreMetadata.Key.versionHashesDigest: .string(model.versionHashesDigest),
            StoreMetadata.Key.versionChecksum: .string(model.versionChecksum),
            StoreMetadata.Key.autoVacuumLevel: .string("2"),
        ]
        return BinaryPropertyListWriter().write(.dictionary(dictionary))
    }
}
