import CoreDataModel
import CoreDataSQLiteFormat
import CoreDataTestSupport
import Foundation
import SQLiteDatabase
import Testing

@Suite("Apple stores", .enabled(if: Fixtures.isAvailable, "../shared/fixtures is absent: Apple-store tests skipped"))
struct SQLiteStoreFileTests {
    static let stores = Fixtures.allStores()

    @Test("the model cache reproduces Apple's hashes, digest and checksum", arguments: stores)
    func modelCacheHashesMatchMetadata(relativePath: String) throws {
        let store = try SQLiteStoreFile(path: try Fixtures.copy(relativePath).path)
        #expect(store.metadata.storeType == "SQLite")
        #expect(!store.metadata.uuid.isEmpty)
        guard let model = try store.cachedModel() else {
            #expect(!store.hasModelCache, "\(relativePath): a cache table without a model")
            return
        }
        let hashes = model.entityVersionHashesByName
        #expect(hashes == store.metadata.versionHashes)
        if let digest = store.metadata.versionHashesDigest { #expect(model.versionHashesDigest == digest) }
        if let checksum = store.metadata.versionChecksum { #expect(model.versionChecksum == checksum) }
        #expect(model.versionIdentifierStrings == store.metadata.versionIdentifiers)
    }

    @Test("row counts equal SELECT count(*) GROUP BY Z_ENT", arguments: stores)
    func rowCountsMatchSQL(relativePath: String) throws {
        let copy = try Fixtures.copy(relativePath)
        let store = try SQLiteStoreFile(path: copy.path)
        let model: NSManagedObjectModel
        if let cached = try store.cachedModel() {
            model = cached
        } else {
            model = try ModelInference(store: store).infer().model
        }
        let counts = try store.rowCountsByEntityNumber(layout: StoreLayout(model: model))
        // Independently: every table that has Z_ENT and is not a system table.
        let connection = try Connection(path: copy.path, mode: .readOnly)
        var expected: [Int: Int] = [:]
        for table in try connection.tables() where table.hasPrefix("Z") && !table.hasPrefix("Z_") {
            guard try connection.columns(in: table).contains(where: { $0.name == "Z_ENT" }) else { continue }
            for row in try connection.query("SELECT Z_ENT, count(*) FROM \(table) GROUP BY Z_ENT") {
                expected[Int(row[0].int64Value!), default: 0] += Int(row[1].int64Value!)
            }
        }
        #expect(counts == expected)
    }

    @Test func primaryKeysAreRead() throws {
        let store = try SQLiteStoreFile(path: try Fixtures.copy("stores/coredataplus-inheritance-constraints/SampleModel_V1.sqlite").path)
        #expect(store.primaryKeys.map(\.name) == ["Car", "SportCar", "ExpensiveSportCar", "Person"])
        #expect(store.primaryKeys.map(\.superEntityNumber) == [0, 1, 2, 0])
        #expect(store.primaryKeys.first?.maximumPrimaryKey == 125)
    }

    @Test func aStoreWithoutCacheIsInferred() throws {
        let store = try SQLiteStoreFile(path: try Fixtures.copy("stores/coredatabooks-ios4/CoreDataBooks.sqlite").path)
        #expect(!store.hasModelCache)
        #expect(try store.cachedModel() == nil)
        let result = try ModelInference(store: store).infer()
        let book = try #require(result.model.entitiesByName["Book"])
        #expect(Set(book.attributesByName.keys) == ["copyright", "author", "title", "contents"])
        #expect(book.attributesByName["copyright"]?.attributeType == .dateAttributeType)
        #expect(book.attributesByName["title"]?.attributeType == .stringAttributeType)
        #expect(result.namesOfUnknownCase.contains("Book.title"))
        #expect(result.notes.contains { $0.contains("ZCONTENTS") }, "the hand-added column is called out")
    }

    @Test func inferenceFindsToOnesJoinTablesAndInheritance() throws {
        // Strip the model cache from a copy so only the tables remain.
        let copy = try Fixtures.copy("stores/coredataplus-inheritance-constraints/SampleModel_V1.sqlite")
        try Connection(path: copy.path, mode: .readWrite).execute(sql: "DROP TABLE Z_MODELCACHE")
        let result = try ModelInference(store: SQLiteStoreFile(path: copy.path)).infer()
        let car = try #require(result.model.entitiesByName["Car"])
        // ZOWNER is an indexed key column, but nothing in the schema names Person: it is said, not guessed.
        #expect(car.relationshipsByName["owner"]?.destinationEntityName == "?")
        #expect(result.notes.contains { $0.contains("ZCAR.ZOWNER looks like a to-one relationship") })
        #expect(result.model.entitiesByName["ExpensiveSportCar"]?.superentity?.entityName == "SportCar")
        #expect(result.model.entitiesByName["ExpensiveSportCar"]?.ownProperties.map(\.name) == ["islimitededition"],
                "a column only subentity rows use belongs to that subentity")
        #expect(car.attributesByName["id"] == nil)
        #expect(result.model.entitiesByName["Person"]?.attributesByName["id"]?.attributeType == .UUIDAttributeType)

        let joined = try Fixtures.copy("stores/contentful-manytomany-ordered/Test.sqlite")
        try Connection(path: joined.path, mode: .readWrite).execute(sql: "DROP TABLE Z_MODELCACHE")
        let inferred = try ModelInference(store: SQLiteStoreFile(path: joined.path)).infer().model
        let createdEntries = try #require(inferred.entitiesByName["Author"]?.relationshipsByName["createdentries"])
        #expect(createdEntries.destinationEntityName == "Post" && createdEntries.isToMany && createdEntries.isOrdered)
        #expect(createdEntries.inverseRelationship?.name == "authors")
    }
}

/// Files that are not readable Core Data stores are refused with a message naming the file and the problem.
struct BadStoreTests {
    private func openError(_ path: String) -> StoreFormatError? {
        do {
            _ = try SQLiteStoreFile(path: path)
            return nil
        } catch {
            return error
        }
    }

    @Test func missingFile() throws {
        let path = try TemporaryDirectory.make().appendingPathComponent("absent.sqlite").path
        #expect(openError(path) == StoreFormatError(file: path, reason: "no such file"))
    }

    @Test func notSQLite() throws {
        let url = try TemporaryDirectory.make().appendingPathComponent("notes.sqlite")
        try Data("just some text, long enough to look like a header of something".utf8).write(to: url)
        let error = try #require(openError(url.path))
        #expect(error.file == url.path)
        #expect(error.reason.contains("not an SQLite database"))
    }

    @Test func sqliteButNotCoreData() throws {
        let url = try TemporaryDirectory.make().appendingPathComponent("plain.sqlite")
        try Connection(path: url.path, mode: .create).execute(sql: "CREATE TABLE t (x); INSERT INTO t VALUES (1)")
        let error = try #require(openError(url.path))
        #expect(error.reason.contains("not a Core Data store"))
    }

    @Test func emptyMetadata() throws {
        let url = try TemporaryDirectory.make().appendingPathComponent("empty.sqlite")
        try Connection(path: url.path, mode: .create).execute(sql: """
            CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
            CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
            """)
        #expect(try #require(openError(url.path)).reason.contains("Z_METADATA table is empty"))
        try Connection(path: url.path, mode: .readWrite).execute(
            sql: "INSERT INTO Z_METADATA VALUES (1, 'U', X'0102030405')")
        #expect(try #require(openError(url.path)).reason.contains("Z_METADATA plist is unreadable"))
    }

    @Test(.enabled(if: Fixtures.isAvailable, "../shared/fixtures is absent")) func truncatedStores() throws {
        let original = try Data(contentsOf: try Fixtures.copy("stores/apple-recipes-ios11/Recipes.sqlite"))
        for length in [0, 50, 100, 1024, 4096, original.count / 2, original.count - 1] {
            let url = try TemporaryDirectory.make().appendingPathComponent("truncated.sqlite")
            try original.prefix(length).write(to: url)
            // Either a clear error, or (when the lost pages hold nothing we read) a store that still opens.
            if let error = openError(url.path) {
                #expect(error.file == url.path)
                #expect(!error.reason.isEmpty)
            }
        }
    }

    @Test(.enabled(if: Fixtures.isAvailable, "../shared/fixtures is absent")) func corruptPages() throws {
        var bytes = [UInt8](try Data(contentsOf: try Fixtures.copy("stores/apple-recipes-ios11/Recipes.sqlite")))
        for index in stride(from: 4096, to: bytes.count, by: 7) { bytes[index] = 0xA5 }
        let url = try TemporaryDirectory.make().appendingPathComponent("corrupt.sqlite")
        try Data(bytes).write(to: url)
        if let error = openError(url.path) {
            #expect(error.file == url.path)
        } else {
            // The metadata pages survived; reading the model cache or the tables must still fail cleanly.
            let store = try SQLiteStoreFile(path: url.path)
            #expect(throws: StoreFormatError.self) {
                let model = try store.cachedModel()
                _ = try store.rowCountsByEntityNumber(layout: StoreLayout(model: model ?? NSManagedObjectModel()))
            }
        }
    }

    @Test func directoryInsteadOfFile() throws {
        let path = try TemporaryDirectory.make().path
        #expect(try #require(openError(path)).reason.contains("is a directory"))
    }
}
