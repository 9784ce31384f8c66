import Foundation
import SQLiteDatabase

/// Variants built from nothing (extreme schemas, stores that carry no model so the model is inferred), side files
/// beside the Library sample, and files that are not stores at all.
extension HostileStoreCorpus {
    mutating func addExtremeSchemas() throws {
        // 10,000 entities, each a root with its own table.
        let entityCount = 10_000
        try custom("ten-thousand-entities", entity: "E1", attribute: "name", keys: "name", expectation: .opens(count: 2)) { _, path in
            var script = "BEGIN;"
            for number in 1...entityCount {
                script += "CREATE TABLE ZE\(number) (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR);"
                script += "INSERT INTO Z_PRIMARYKEY VALUES (\(number), 'E\(number)', 0, \(number == 1 ? 2 : 0));"
            }
            script += "INSERT INTO ZE1 VALUES (1, 1, 1, 'one'), (2, 1, 1, 'two'); COMMIT;"
            try Self.inferredStore(at: path, script: script)
        }
        // One entity with 1,000 attributes.
        try custom("thousand-columns", entity: "Wide", attribute: "c1", keys: "c1,c999", expectation: .opens(count: 3)) { _, path in
            let columns = (1...1000).map { "ZC\($0) VARCHAR" }.joined(separator: ", ")
            try Self.inferredStore(at: path, script: """
                CREATE TABLE ZWIDE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, \(columns));
                INSERT INTO Z_PRIMARYKEY VALUES (1, 'Wide', 0, 3);
                INSERT INTO ZWIDE (Z_PK, Z_ENT, Z_OPT, ZC1, ZC999) VALUES (1, 1, 1, 'a', 'z'), (2, 1, 1, 'b', 'y'), (3, 1, 1, 'c', 'x');
                """)
        }
        // 500 levels of inheritance in one table; the leaf holds the rows.
        let depth = 500
        try custom("deep-inheritance", entity: "Level\(depth)", attribute: "name", keys: "name", expectation: .opens(count: 2)) { _, path in
            var script = "BEGIN; CREATE TABLE ZLEVEL1 (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR);"
            for level in 1...depth {
                script += "INSERT INTO Z_PRIMARYKEY VALUES (\(level), 'Level\(level)', \(level - 1), \(level == 1 ? 3 : 0));"
            }
            script += "INSERT INTO ZLEVEL1 VALUES (1, \(depth), 1, 'leaf'), (2, \(depth), 1, 'leaf too'), (3, 1, 1, 'root'); COMMIT;"
            try Self.inferredStore(at: path, script: script)
        }
        // Names holding escape and control characters, in a store whose model is inferred from them.
        let evil = "Ev\u{1B}[31mil"
        try custom("escapes-in-names", entity: evil, attribute: "na\u{1B}]0;x\u{7}me", keys: "na\u{1B}]0;x\u{7}me",
                   expectation: .opens(count: 1)) { _, path in
            try Self.inferredStore(at: path, script: """
                CREATE TABLE "Z\(evil.uppercased())" (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, "ZNA\u{1B}]0;X\u{7}ME" VARCHAR);
                INSERT INTO Z_PRIMARYKEY VALUES (1, '\(evil)', 0, 1);
                INSERT INTO "Z\(evil.uppercased())" VALUES (1, 1, 1, 'value');
                """)
        }
    }

    mutating func addSideFiles() throws {
        let authors = Self.libraryAuthors
        // A WAL store whose last transaction (one more author) is still only in the -wal.
        try custom("wal-with-committed-frames", storeName: "Library.sqlite", entity: "Author", attribute: "name",
                   keys: "name,books.isbn", expectation: .opens(count: authors + 1)) { _, path in
            try Self.copyWhileOpen(to: path, suffixes: ["-wal"]) { connection in
                try connection.execute(sql: "PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0;")
                try connection.execute(sql: "INSERT INTO ZAUTHOR (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (31, 1, 1, 'Only In The WAL'); UPDATE Z_PRIMARYKEY SET Z_MAX = 31 WHERE Z_ENT = 1")
            }
        }
        try library("stale-wal-garbage", expectation: .opens(count: authors)) { path in
            try Self.sql(path, "PRAGMA journal_mode = WAL")
            try Self.noise(8192, seed: 9).write(to: URL(fileURLWithPath: path + "-wal"))
        }
        try library("wal-beside-rollback-store", expectation: .opens(count: authors)) { path in
            try Self.noise(8192, seed: 10).write(to: URL(fileURLWithPath: path + "-wal"))
        }
        try library("shm-garbage", expectation: .opensOrRefuses) { path in
            try Self.sql(path, "PRAGMA journal_mode = WAL")
            try Self.noise(32768, seed: 11).write(to: URL(fileURLWithPath: path + "-shm"))
        }
        // A save interrupted after some pages reached the main file: the -journal is hot and must be rolled back.
        try custom("hot-journal", storeName: "Library.sqlite", entity: "Author", attribute: "name", keys: "name,books.isbn",
                   expectation: .opens(count: authors), recoversJournal: "recovered an interrupted save") { _, path in
            try Self.copyWhileOpen(to: path, suffixes: ["-journal"]) { connection in
                // A one-page cache makes SQLite write changed pages to the main file before the commit.
                try connection.execute(sql: "PRAGMA cache_size = 1; BEGIN; DELETE FROM ZAUTHOR; DELETE FROM Z_1BOOKS; UPDATE ZITEM SET ZTITLE = 'lost';")
            }
        }
        // SQLite takes any non-empty journal for hot; one with no valid header restores nothing and is only removed.
        try library("journal-garbage", expectation: .opens(count: authors),
                    recoversJournal: "held no valid rollback data; the store was not changed") { path in
            try Self.noise(4096, seed: 12).write(to: URL(fileURLWithPath: path + "-journal"))
        }
        try library("journal-empty", expectation: .opens(count: authors)) { path in
            try Data().write(to: URL(fileURLWithPath: path + "-journal"))
        }
    }

    mutating func addNonStores() throws {
        let refused: HostileStore.Expectation = .refused(mentioning: "Store.sqlite")
        func nonStore(_ name: String, _ expectation: HostileStore.Expectation? = nil, _ build: (URL, String) throws -> Void) throws {
            try custom(name, entity: "Author", attribute: "name", keys: "name", expectation: expectation ?? refused, build)
        }
        try nonStore("zero-byte-file") { _, path in try Data().write(to: URL(fileURLWithPath: path)) }
        try nonStore("directory") { _, path in try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false) }
        try nonStore("text-file") { _, path in try Data("name,born\nAda,1815\n".utf8).write(to: URL(fileURLWithPath: path)) }
        try nonStore("noise-file") { _, path in try Self.noise(65536, seed: 13).write(to: URL(fileURLWithPath: path)) }
        try nonStore("missing-file") { _, _ in }
        try nonStore("dangling-symlink") { folder, path in
            try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: folder.appendingPathComponent("gone.sqlite").path)
        }
        try nonStore("symlink-loop") { _, path in
            try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: path)
        }
        try nonStore("named-pipe") { _, path in
            guard mkfifo(path, 0o644) == 0 else { throw CocoaError(.fileWriteUnknown) }
        }
        try nonStore("plain-sqlite-database") { _, path in
            try Connection(path: path, mode: .create)
                .execute(sql: "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes (body) VALUES ('hello')")
        }
    }

    // MARK: Helpers

    /// Creates a store with Core Data's bookkeeping tables and metadata but no model cache, then runs `script`.
    static func inferredStore(at path: String, script: String) throws {
        let connection = try Connection(path: path, mode: .create)
        let plist: [String: Any] = [
            "NSStoreType": "SQLite", "NSPersistenceFrameworkVersion": 1344, "NSStoreModelVersionHashesVersion": 3,
            "NSStoreModelVersionHashes": [String: Any](), "NSStoreModelVersionIdentifiers": [""],
        ]
        try connection.execute(sql: """
            CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
            CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
            """)
        try connection.execute(sql: "INSERT INTO Z_METADATA VALUES (1, '6A1F1A5E-0000-4000-8000-000000000016', ?)",
                               arguments: [.blob(try binaryPlist(plist))])
        try connection.execute(sql: script)
    }

    /// Copies the Library sample to a scratch file, runs `body` on a connection to it, and while that connection is
    /// still open copies the file and its side files (`suffixes`) to `path`: the state a crash would leave.
    static func copyWhileOpen(to path: String, suffixes: [String], _ body: (Connection) throws -> Void) throws {
        let scratch = try TemporaryDirectory.make(prefix: "hostile-scratch")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let source = scratch.appendingPathComponent("Library.sqlite")
        try FileManager.default.copyItem(at: library, to: source)
        let connection = try Connection(path: source.path, mode: .readWrite)
        try body(connection)
        for suffix in [""] + suffixes {
            let side = source.path + suffix
            guard FileManager.default.fileExists(atPath: side) else { throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: side]) }
            try FileManager.default.copyItem(atPath: side, toPath: path + suffix)
        }
        withExtendedLifetime(connection) {}
    }
}
