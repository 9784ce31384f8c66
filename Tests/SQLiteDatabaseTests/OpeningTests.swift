import CoreDataTestSupport
import Foundation
@testable import SQLiteDatabase
import Testing

@Suite("Opening files: modes, foreign and damaged files, locks")
struct OpeningTests {
    @Test func createThenReopenInEveryMode() throws {
        let path = try temporaryDatabasePath("we?ird #name%20 ü.sqlite")
        do {
            let created = try Connection(path: path, mode: .create)
            try created.execute(sql: "CREATE TABLE t(x); INSERT INTO t VALUES (1)")
            #expect(created.lastInsertRowID == 1)
            #expect(created.changes == 1)
            #expect(created.path == path)
            #expect(!created.isReadOnly)
        }
        #expect(FileManager.default.fileExists(atPath: path), "the URI must name exactly the given file")
        let writer = try Connection(path: path, mode: .readWrite)
        try writer.execute(sql: "INSERT INTO t VALUES (2), (3)")
        #expect(writer.changes == 2)
        #expect(writer.totalChanges == 2)
        let reader = try Connection(path: path, mode: .readOnly)
        #expect(reader.isReadOnly)
        #expect(try reader.integer("SELECT count(*) FROM t") == 3)
        let error = #expect(throws: SQLiteError.self) { try reader.execute(sql: "INSERT INTO t VALUES (4)") }
        #expect(error?.code == .readOnly)
    }

    @Test(arguments: [Connection.OpenMode.readOnly, .readWrite])
    func aMissingFileIsCantOpenWithThePath(mode: Connection.OpenMode) throws {
        let path = try temporaryDatabasePath("absent.sqlite")
        let error = #expect(throws: SQLiteError.self) { try Connection(path: path, mode: mode) }
        #expect(error?.code == .cantOpen)
        #expect(error?.path == path)
        #expect(!FileManager.default.fileExists(atPath: path), "opening must not create the file")
    }

    @Test(arguments: [Connection.OpenMode.readOnly, .readWrite])
    func aForeignFileIsNotADatabase(mode: Connection.OpenMode) throws {
        let path = try temporaryDatabasePath("notes.sqlite")
        try writeFile(Array(String(repeating: "These are not the pages you are looking for.\n", count: 200).utf8), to: path)
        let error = #expect(throws: SQLiteError.self) { try Connection(path: path, mode: mode) }
        #expect(error?.code == .notADatabase)
        #expect(error?.path == path)
    }

    @Test func anEmptyFileIsNotADatabaseWhenReadingOnly() throws {
        let path = try temporaryDatabasePath("empty.sqlite")
        try writeFile([], to: path)
        let error = #expect(throws: SQLiteError.self) { try Connection(path: path, mode: .readOnly) }
        #expect(error?.code == .notADatabase)
        #expect(error?.path == path)
        // Read-write keeps SQLite's rule: an empty file is a new, empty database.
        let writer = try Connection(path: path, mode: .readWrite)
        #expect(try writer.tables().isEmpty)
    }

    @Test func aFileCutInsideTheHeaderIsNotADatabase() throws {
        let path = try temporaryDatabasePath()
        do {
            let connection = try Connection(path: path, mode: .create)
            try connection.execute(sql: "CREATE TABLE t(x)")
        }
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        try writeFile(Array(bytes.prefix(60)), to: path)
        let error = #expect(throws: SQLiteError.self) { try Connection(path: path, mode: .readOnly) }
        #expect(error?.code == .notADatabase || error?.code == .corrupt)
        #expect(error?.path == path)
    }

    @Test func aTruncatedDatabaseFailsWithCorruptNeverACrash() throws {
        let path = try temporaryDatabasePath()
        do {
            let connection = try Connection(path: path, mode: .create)
            try connection.execute(
                sql: """
                    CREATE TABLE t(id INTEGER PRIMARY KEY, payload TEXT);
                    CREATE INDEX t_payload ON t(payload);
                    WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 3000)
                    INSERT INTO t(payload) SELECT printf('%0200d', x) FROM c;
                    """)
        }
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        try writeFile(Array(bytes.prefix(bytes.count / 3)), to: path)
        do {
            let connection = try Connection(path: path, mode: .readOnly)
            _ = try connection.query("SELECT count(*), sum(length(payload)) FROM t")
            Issue.record("reading a truncated table succeeded")
        } catch {
            #expect(error.code == .corrupt || error.code == .notADatabase, "\(error)")
            #expect(error.path == path)
        }
    }

    @Test func aLockedDatabaseWaitsForTheBusyTimeoutThenFailsWithBusy() throws {
        let path = try temporaryDatabasePath()
        let holder = try Connection(path: path, mode: .create)
        try holder.execute(sql: "CREATE TABLE t(x); INSERT INTO t VALUES (1)")
        let waiter = try Connection(path: path, mode: .readWrite)
        waiter.busyTimeout = .milliseconds(50)
        #expect(waiter.busyTimeout == .milliseconds(50))
        try holder.beginTransaction(.exclusive)
        try holder.execute(sql: "INSERT INTO t VALUES (2)")
        let readError = #expect(throws: SQLiteError.self) { try waiter.query("SELECT count(*) FROM t") }
        #expect(readError?.code == .busy)
        #expect(readError?.sql == "SELECT count(*) FROM t")
        // Opening checks the schema, so a connection opened while the lock is held fails at once.
        let openError = #expect(throws: SQLiteError.self) { try Connection(path: path, mode: .readOnly) }
        #expect(openError?.code == .busy)
        #expect(openError?.path == path)
        try holder.commit()
        #expect(try waiter.integer("SELECT count(*) FROM t") == 2)
    }

    @Test func inMemoryDatabasesArePrivate() throws {
        let first = try Connection.inMemory()
        let second = try Connection.inMemory()
        try first.execute(sql: "CREATE TABLE t(x)")
        #expect(try second.tables().isEmpty)
        #expect(first.path == ":memory:")
    }

    @Test func uriEncodingKeepsSlashesAndEscapesTheRest() {
        #expect(Connection.uri(forPath: "/tmp/a b/c?d#e%f") == "file:///tmp/a%20b/c%3Fd%23e%25f")
        #expect(Connection.uri(forPath: "relative/x.sqlite") == "file:relative/x.sqlite")
    }
}
