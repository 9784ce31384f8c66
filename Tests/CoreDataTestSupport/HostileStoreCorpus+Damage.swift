import Foundation
import SQLiteDatabase

/// Variants made by damaging the Library sample: its bytes, its metadata, its schema and its rows.
extension HostileStoreCorpus {
    static let pageSize = 4096
    /// The Library sample's pages: 3 holds ZAUTHOR, 6 ZITEM, 12 Z_METADATA, 13 Z_MODELCACHE (rootpage in sqlite_master).
    static let libraryPages = 15

    mutating func addFileDamage() throws {
        let size = Self.pageSize * Self.libraryPages
        var lengths = [50, 100, Self.pageSize, Self.pageSize * 7, size - 1]
        if long { lengths += (1..<Self.libraryPages).flatMap { [Self.pageSize * $0, Self.pageSize * $0 + 1000] } }
        for length in Set(lengths).sorted() {
            try library("truncated-at-\(length)", expectation: .opensOrRefuses) { try Self.truncateFile($0, to: length) }
        }
        let zeroed = long ? Array(1...Self.libraryPages) : [1, 3, 12, 13]
        for page in zeroed {
            try library("zeroed-page-\(page)", expectation: page == 1 ? .refused(mentioning: "not") : .opensOrRefuses) {
                try Self.overwrite($0, at: (page - 1) * Self.pageSize, with: Data(count: Self.pageSize))
            }
        }
        // Header fields: a file format from a future SQLite (bytes 18–19), a page size that is not a power of two.
        try library("future-file-format", expectation: .opensOrRefuses) { try Self.overwrite($0, at: 18, with: Data([3, 3])) }
        try library("bad-page-size", expectation: .opensOrRefuses) { try Self.overwrite($0, at: 16, with: Data([0x03, 0x00])) }
        // A header that claims SQLite followed by noise, as an encrypted store looks.
        try library("noise-after-header", expectation: .opensOrRefuses) { path in
            try Self.overwrite(path, at: 100, with: Self.noise(size - 100, seed: 16))
        }
    }

    mutating func addMetadataDamage() throws {
        let garbage: [(String, SQLiteValue)] = [
            ("plist-garbage", .blob([0xDE, 0xAD, 0xBE, 0xEF])),
            ("plist-null", .null),
            ("plist-empty", .blob([])),
            ("plist-text", .text("<plist>not really</plist>")),
            ("plist-array", .blob(try Self.binaryPlist(["NSStoreType", "SQLite"]))),
            ("plist-truncated", .blob(Array(try Self.libraryMetadata().prefix(300)))),
        ]
        for (name, value) in garbage {
            try library(name, expectation: .opensOrRefuses) { try Self.sql($0, "UPDATE Z_METADATA SET Z_PLIST = ?", [value]) }
        }
        try library("plist-hashes-wrong-type", expectation: .opensOrRefuses) { path in
            var plist = try Self.libraryMetadataDictionary()
            plist["NSStoreModelVersionHashes"] = "Author=1"
            try Self.sql(path, "UPDATE Z_METADATA SET Z_PLIST = ?", [.blob(try Self.binaryPlist(plist))])
        }
        try library("plist-hash-of-another-model", expectation: .opensOrRefuses) { path in
            var plist = try Self.libraryMetadataDictionary()
            var hashes = plist["NSStoreModelVersionHashes"] as? [String: Any] ?? [:]
            hashes["Author"] = Data(repeating: 7, count: 32)
            hashes["Pamphlet"] = Data(repeating: 9, count: 32)
            plist["NSStoreModelVersionHashes"] = hashes
            try Self.sql(path, "UPDATE Z_METADATA SET Z_PLIST = ?", [.blob(try Self.binaryPlist(plist))])
        }
        // Keys and versions a later Core Data might write: they must not stop a read.
        try library("plist-newer-keys", expectation: .opens(count: Self.libraryAuthors)) { path in
            var plist = try Self.libraryMetadataDictionary()
            plist["NSPersistenceFrameworkVersion"] = 99_999
            plist["NSStoreModelVersionHashesVersion"] = 4
            plist["NSFutureFeatureKey"] = ["nested": [1, 2, 3], "flag": true] as [String: Any]
            plist["_NSAutoVacuumLevel"] = "9"
            try Self.sql(path, "UPDATE Z_METADATA SET Z_PLIST = ?", [.blob(try Self.binaryPlist(plist))])
        }
        try library("metadata-version-99", expectation: .opensOrRefuses) { try Self.sql($0, "UPDATE Z_METADATA SET Z_VERSION = 99") }
        try library("metadata-uuid-null", expectation: .opensOrRefuses) { try Self.sql($0, "UPDATE Z_METADATA SET Z_UUID = NULL") }
        try library("metadata-row-missing", expectation: .opensOrRefuses) { try Self.sql($0, "DELETE FROM Z_METADATA") }
        try library("metadata-two-rows", expectation: .opensOrRefuses) { path in
            try Self.sql(path, "INSERT INTO Z_METADATA SELECT 2, 'ANOTHER-UUID', x'00' FROM Z_METADATA")
        }
        try library("model-cache-garbage", expectation: .opensOrRefuses) {
            try Self.sql($0, "UPDATE Z_MODELCACHE SET Z_CONTENT = x'789c0badcafe'")
        }
        try library("model-cache-empty", expectation: .opens(count: Self.libraryAuthors)) { try Self.sql($0, "DELETE FROM Z_MODELCACHE") }
    }

    mutating func addSchemaDamage() throws {
        for table in ["Z_METADATA", "Z_MODELCACHE", "Z_PRIMARYKEY", "ZAUTHOR", "ZITEM", "Z_1BOOKS"] {
            let expectation: HostileStore.Expectation = table == "Z_MODELCACHE" ? .opens(count: Self.libraryAuthors) : .opensOrRefuses
            try library("table-missing-\(table)", expectation: expectation) { try Self.sql($0, "DROP TABLE \(table)") }
        }
        try library("column-missing", expectation: .opensOrRefuses) { try Self.sql($0, "ALTER TABLE ZAUTHOR DROP COLUMN ZBORN") }
        try library("column-extra", expectation: .opens(count: Self.libraryAuthors)) {
            try Self.sql($0, "ALTER TABLE ZAUTHOR ADD COLUMN ZNICKNAME VARCHAR")
        }
        try library("table-is-a-view", expectation: .opensOrRefuses) { path in
            try Self.sql(path, "ALTER TABLE ZAUTHOR RENAME TO ZAUTHOR_DATA; CREATE VIEW ZAUTHOR AS SELECT * FROM ZAUTHOR_DATA")
        }
        // Z_PRIMARYKEY inconsistent with the model: an entity the model lacks, a renamed one, a cycle of superentities.
        try library("primarykey-unknown-entity", expectation: .opens(count: Self.libraryAuthors)) {
            try Self.sql($0, "INSERT INTO Z_PRIMARYKEY VALUES (6, 'Ghost', 0, 4)")
        }
        try library("primarykey-renamed-entity", expectation: .opensOrRefuses) {
            try Self.sql($0, "UPDATE Z_PRIMARYKEY SET Z_NAME = 'Writer' WHERE Z_ENT = 1")
        }
        try library("primarykey-super-cycle", expectation: .opensOrRefuses) {
            try Self.sql($0, "UPDATE Z_PRIMARYKEY SET Z_SUPER = 3 WHERE Z_ENT = 2")
        }
        try library("inferred-super-cycle", expectation: .opensOrRefuses) {
            try Self.sql($0, "DROP TABLE Z_MODELCACHE; UPDATE Z_PRIMARYKEY SET Z_SUPER = 3 WHERE Z_ENT = 2")
        }
        try library("inferred-self-super", expectation: .opensOrRefuses) {
            try Self.sql($0, "DROP TABLE Z_MODELCACHE; UPDATE Z_PRIMARYKEY SET Z_SUPER = 1 WHERE Z_ENT = 1")
        }
    }

    mutating func addRowDamage() throws {
        let authors = Self.libraryAuthors
        try library("entity-number-unknown", entity: "Book", attribute: "title", keys: "title,shelf.name",
                    expectation: .opensOrRefuses) { try Self.sql($0, "UPDATE ZITEM SET Z_ENT = 99 WHERE Z_PK = 1") }
        try library("entity-number-null", entity: "Book", attribute: "title", keys: "title,shelf.name",
                    expectation: .opensOrRefuses) { try Self.sql($0, "UPDATE ZITEM SET Z_ENT = NULL WHERE Z_PK = 1") }
        try library("wrong-entity-to-many", expectation: .opens(count: authors),
                    refusals: [.queryKeys: "of entity Magazine, not Book"]) {
            try Self.sql($0, "UPDATE Z_1BOOKS SET Z_3BOOKS = 2 WHERE Z_1AUTHORS = 1")
        }
        try library("dangling-to-one", entity: "Book", attribute: "title", keys: "title,shelf.name",
                    expectation: .opens(count: 66),
                    refusals: [.queryKeys: "no row 9999"]) { try Self.sql($0, "UPDATE ZITEM SET ZSHELF = 9999 WHERE Z_PK = 1") }
        try library("dangling-to-many", expectation: .opens(count: authors), refusals: [.queryKeys: "9999"]) {
            try Self.sql($0, "INSERT INTO Z_1BOOKS VALUES (1, 9999)")
        }
        try library("text-in-integer-column", entity: "Book", attribute: "title", keys: "title,pageCount",
                    expectation: .opensOrRefuses) { try Self.sql($0, "UPDATE ZITEM SET ZPAGECOUNT = 'many'") }
        try library("text-in-date-column", expectation: .opensOrRefuses) { try Self.sql($0, "UPDATE ZAUTHOR SET ZBORN = 'yesterday'") }
        try library("blob-in-string-column", expectation: .opensOrRefuses) {
            try Self.sql($0, "UPDATE ZAUTHOR SET ZNAME = x'FFFE41' WHERE Z_PK = 2")
        }
        try library("text-in-version-column", expectation: .opens(count: authors)) {
            try Self.sql($0, "UPDATE ZAUTHOR SET Z_OPT = 'x'")
        }
        try library("null-primary-key-counter", expectation: .opens(count: authors)) {
            try Self.sql($0, "UPDATE Z_PRIMARYKEY SET Z_MAX = NULL")
        }
        try library("escapes-in-values", expectation: .opens(count: authors)) {
            try Self.sql($0, "UPDATE ZAUTHOR SET ZNAME = 'A' || char(27) || '[2J' || char(155) || '31m' || char(8238) || char(7) WHERE Z_PK = 3")
        }
        try library("primary-key-counter-at-maximum", expectation: .opens(count: authors),
                    refusals: [.insert: "Z_MAX"]) {
            try Self.sql($0, "UPDATE Z_PRIMARYKEY SET Z_MAX = 9223372036854775807")
        }
        try library("version-at-maximum", expectation: .opens(count: authors),
                    refusals: [.setYes: "Z_OPT"]) {
            try Self.sql($0, "UPDATE ZAUTHOR SET Z_OPT = 9223372036854775807")
        }
        let blobSize = long ? 256 << 20 : 16 << 20
        try library("huge-blob-in-string", expectation: .opensOrRefuses) {
            try Self.sql($0, "UPDATE ZAUTHOR SET ZNAME = zeroblob(\(blobSize)) WHERE Z_PK = 4")
        }
        try library("huge-text", expectation: .opens(count: authors)) {
            try Self.sql($0, "UPDATE ZAUTHOR SET ZNAME = printf('%.*c', \(blobSize), 'x') WHERE Z_PK = 5")
        }
    }

    // MARK: Metadata plists

    static func libraryMetadata() throws -> [UInt8] {
        let connection = try Connection(path: library.path, mode: .readOnly)
        guard case .blob(let bytes)? = try connection.scalar("SELECT Z_PLIST FROM Z_METADATA") else {
            throw CocoaError(.fileReadCorruptFile)
        }
        return bytes
    }

    static func libraryMetadataDictionary() throws -> [String: Any] {
        let plist = try PropertyListSerialization.propertyList(from: Data(try libraryMetadata()), format: nil)
        guard let dictionary = plist as? [String: Any] else { throw CocoaError(.fileReadCorruptFile) }
        return dictionary
    }

    static func binaryPlist(_ value: Any) throws -> [UInt8] {
        Array(try PropertyListSerialization.data(fromPropertyList: value, format: .binary, options: 0))
    }
}
