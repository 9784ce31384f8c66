import CBenchSQLite
import Foundation

/// What a hand-written migration of the `Record` store would carry as constants, read before timing from a store our
/// migration produced: the metadata values the new version changes, the new model cache blob, and the new schema of
/// `ZRECORD` (table first, then its indexes).
struct MigrationConstants {
    /// The `Z_PLIST` keys whose values differ between the old and the new version (hashes, identifiers, digest,
    /// checksum), with their new values.
    let changedMetadata: [String: Any]
    let modelCache: [UInt8]
    let recordSchema: [String]

    init(template: URL, reference: URL) throws {
        let old = try Self.metadata(of: RawDatabase(path: template.path)).plist
        let referenceDatabase = try RawDatabase(path: reference.path)
        let new = try Self.metadata(of: referenceDatabase).plist
        changedMetadata = new.filter { key, value in
            guard let previous = old[key] else { return true }
            return !NSDictionary(dictionary: [key: previous]).isEqual(to: [key: value])
        }
        let cache = try referenceDatabase.prepare("SELECT Z_CONTENT FROM Z_MODELCACHE")
        modelCache = try cache.step() ? cache.blob(0) : []
        let schema = try referenceDatabase.prepare(
            "SELECT sql FROM sqlite_master WHERE tbl_name = 'ZRECORD' AND sql IS NOT NULL ORDER BY type DESC")
        var statements: [String] = []
        while try schema.step() { statements.append(schema.text(0) ?? "") }
        recordSchema = statements
    }

    /// `Z_UUID` and the decoded `Z_PLIST` of a store.
    static func metadata(of database: RawDatabase) throws -> (uuid: String, plist: [String: Any]) {
        let statement = try database.prepare("SELECT Z_UUID, Z_PLIST FROM Z_METADATA")
        guard try statement.step() else { throw RawSQLiteError(message: "Z_METADATA is empty") }
        let plist = try PropertyListSerialization.propertyList(from: Data(statement.blob(1)), format: nil)
        guard let dictionary = plist as? [String: Any] else { throw RawSQLiteError(message: "Z_PLIST is not a dictionary") }
        return (statement.text(0) ?? "", dictionary)
    }

    /// The metadata step of a migration, inside the caller's transaction: the store's own `Z_PLIST` read and
    /// decoded, the changed keys set, encoded and written back; the model cache replaced.
    func writeMetadata(into database: RawDatabase) throws {
        var (_, plist) = try Self.metadata(of: database)
        plist.merge(changedMetadata) { $1 }
        let encoded = try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)
        let update = try database.prepare("UPDATE Z_METADATA SET Z_PLIST = ?")
        update.bind([UInt8](encoded), at: 1)
        _ = try update.step()
        try database.execute("DELETE FROM Z_MODELCACHE")
        let insert = try database.prepare("INSERT INTO Z_MODELCACHE (Z_CONTENT) VALUES (?)")
        insert.bind(modelCache, at: 1)
        _ = try insert.step()
    }
}

extension RawStatement {
    func blob(_ column: Int32) -> [UInt8] {
        guard let bytes = sqlite3_column_blob(handle, column) else { return [] }
        return [UInt8](UnsafeRawBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(handle, column))))
    }

    func bind(_ bytes: [UInt8], at index: Int32) {
        bytes.withUnsafeBytes { buffer in
            // SQLITE_TRANSIENT: SQLite copies the bytes.
            _ = sqlite3_bind_blob(handle, index, buffer.baseAddress, Int32(buffer.count), unsafeBitCast(-1, to: sqlite3_destructor_type.self))
        }
    }
}
