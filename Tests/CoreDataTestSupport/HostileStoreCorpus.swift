import Foundation
#if canImport(Glibc)
import Glibc
#endif
import SQLiteDatabase

/// Generates the hostile-store corpus of issue 16, item 6 into a temporary folder: damaged files, wrong metadata,
/// missing tables, inconsistent rows, extreme schemas, side files, and things that are not stores at all. Every
/// variant starts from the committed Library sample (or is built from nothing) and the generation is deterministic,
/// so a failure names a variant that the next run rebuilds byte for byte.
///
/// The short corpus is what `make test` runs; `long` adds a truncation and a zeroed page at every page boundary and
/// a larger BLOB (`make test-hostile`).
public struct HostileStoreCorpus {
    public let root: URL
    public let long: Bool
    public private(set) var stores: [HostileStore] = []

    /// The Library sample: 30 authors, 100 items (books and magazines), 8 shelves; 15 pages of 4,096 bytes.
    static let library = Fixtures.projectRoot.appendingPathComponent("SampleStores/Library/Library.sqlite")
    static let libraryAuthors = 30

    public static func generate(long: Bool = false) throws -> HostileStoreCorpus {
        var corpus = HostileStoreCorpus(root: try TemporaryDirectory.make(prefix: "hostile-corpus"), long: long)
        try corpus.addFileDamage()
        try corpus.addMetadataDamage()
        try corpus.addSchemaDamage()
        try corpus.addRowDamage()
        try corpus.addExtremeSchemas()
        try corpus.addSideFiles()
        try corpus.addNonStores()
        return corpus
    }

    private init(root: URL, long: Bool) {
        self.root = root
        self.long = long
    }

    // MARK: Building variants

    /// A new variant folder holding a copy of the Library sample, changed by `change` (given the store's path).
    mutating func library(_ name: String, entity: String = "Author", attribute: String = "name",
                          keys: String = "name,books.isbn", expectation: HostileStore.Expectation,
                          knownBugs: [HostileCommand: String] = [:], refusals: [HostileCommand: String] = [:],
                          recoversJournal: String? = nil, _ change: (String) throws -> Void) throws {
        let folder = try newFolder(name)
        let store = folder.appendingPathComponent("Library.sqlite")
        try FileManager.default.copyItem(at: Self.library, to: store)
        try change(store.path)
        stores.append(HostileStore(name: name, folder: folder, storeName: "Library.sqlite", entity: entity,
                                   attribute: attribute, keys: keys, expectation: expectation, knownBugs: knownBugs,
                                   refusals: refusals, recoversJournal: recoversJournal))
    }

    /// A new variant folder whose content `build` makes from nothing (given the folder and the store's path).
    mutating func custom(_ name: String, storeName: String = "Store.sqlite", entity: String, attribute: String,
                         keys: String, expectation: HostileStore.Expectation, knownBugs: [HostileCommand: String] = [:],
                         recoversJournal: String? = nil, _ build: (URL, String) throws -> Void) throws {
        let folder = try newFolder(name)
        try build(folder, folder.appendingPathComponent(storeName).path)
        stores.append(HostileStore(name: name, folder: folder, storeName: storeName, entity: entity,
                                   attribute: attribute, keys: keys, expectation: expectation, knownBugs: knownBugs,
                                   recoversJournal: recoversJournal))
    }

    private func newFolder(_ name: String) throws -> URL {
        let folder = root.appendingPathComponent(String(format: "%03d-", stores.count) + name, isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Runs SQL on the store at `path` (read-write, as a user's `sqlite3` would).
    static func sql(_ path: String, _ script: String) throws {
        let connection = try Connection(path: path, mode: .readWrite)
        try connection.execute(sql: script)
    }

    static func sql(_ path: String, _ statement: String, _ arguments: [SQLiteValue]) throws {
        let connection = try Connection(path: path, mode: .readWrite)
        try connection.execute(sql: statement, arguments: arguments)
    }

    // MARK: Bytes

    /// Deterministic bytes (a linear congruential generator), for garbage that is the same on every run.
    static func noise(_ count: Int, seed: UInt64) -> Data {
        var state = seed
        return Data((0..<count).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 33)
        })
    }

    static func truncateFile(_ path: String, to length: Int) throws {
        guard Glibc.truncate(path, off_t(length)) == 0 else { throw CocoaError(.fileWriteUnknown) }
    }

    static func overwrite(_ path: String, at offset: Int, with bytes: Data) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try handle.seek(toOffset: UInt64(offset))
        try handle.write(contentsOf: bytes)
    }

    static func fileSize(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
    }
}
