import CoreDataTestSupport
import Foundation
@testable import SQLiteDatabase
import Testing

/// A save interrupted by a crash or a full disk leaves a hot rollback journal: opening (even read-only) must roll it
/// back and say so, or refuse with a message naming the journal when the location cannot be written.
@Suite("Hot rollback journals")
struct HotJournalTests {
    /// A rollback-journal database of 50 rows, copied in the middle of a transaction that rewrote every row and
    /// outgrew the page cache: the copy's main file holds half-written pages and its `-journal` the originals, as
    /// after a crash. Returns the copy's path.
    static func makeInterruptedCopy() throws -> String {
        let path = try temporaryDatabasePath("store.sqlite")
        let writer = try Connection(path: path, mode: .create)
        #expect(try writer.setJournalMode(.delete) == .delete)
        try writer.execute(sql: """
            CREATE TABLE t(x, payload);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 50)
            INSERT INTO t SELECT i, randomblob(100) FROM n;
            """)
        try writer.execute(sql: "PRAGMA cache_size = 5")
        try writer.beginTransaction()
        try writer.execute(sql: """
            UPDATE t SET x = x + 1000;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000)
            INSERT INTO t SELECT -i, randomblob(1000) FROM n;
            """)
        let copy = try TemporaryDirectory.make(prefix: "hot-journal").appendingPathComponent("store.sqlite").path
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        try FileManager.default.copyItem(atPath: path + "-journal", toPath: copy + "-journal")
        try writer.rollback()
        return copy
    }

    @Test func aReadOnlyOpenRollsBackAHotJournalAndSaysSo() throws {
        let copy = try Self.makeInterruptedCopy()
        #expect(Connection.hasJournalContent(path: copy))
        let reader = try Connection(path: copy, mode: .readOnly)
        #expect(reader.recoveredJournal == copy + "-journal")
        #expect(reader.isReadOnly)
        #expect(try reader.integer("SELECT count(*) FROM t") == 50)
        #expect(try reader.integer("SELECT max(x) FROM t") == 50, "the interrupted update is undone")
        #expect(try reader.integrityCheck() == ["ok"])
        #expect(!FileManager.default.fileExists(atPath: copy + "-journal"))
        // The next open has nothing left to recover.
        #expect(try Connection(path: copy, mode: .readOnly).recoveredJournal == nil)
    }

    @Test func aJournalWithNoValidRollbackDataIsRemovedWithoutChangingTheFile() throws {
        let copy = try Self.makeInterruptedCopy()
        try Connection(path: copy, mode: .readWrite).execute(sql: "SELECT 1")  // applies the real journal
        let before = try Data(contentsOf: URL(fileURLWithPath: copy))
        var noise = [UInt8](repeating: 0, count: 4096)
        for index in noise.indices { noise[index] = UInt8(truncatingIfNeeded: index &* 131 &+ 7) }
        try Data(noise).write(to: URL(fileURLWithPath: copy + "-journal"))
        let reader = try Connection(path: copy, mode: .readOnly)
        #expect(reader.journalRecovery == JournalRecovery(journal: copy + "-journal", restoredPages: false))
        #expect(try Data(contentsOf: URL(fileURLWithPath: copy)) == before)
        #expect(try reader.integer("SELECT count(*) FROM t") == 50)
    }

    @Test func aRealRollbackSaysItRestoredPages() throws {
        let copy = try Self.makeInterruptedCopy()
        #expect(try Connection(path: copy, mode: .readOnly).journalRecovery?.restoredPages == true)
    }

    @Test func aReadWriteOpenSaysItRecovered() throws {
        let copy = try Self.makeInterruptedCopy()
        let connection = try Connection(path: copy, mode: .readWrite)
        #expect(connection.recoveredJournal == copy + "-journal")
        #expect(try connection.integer("SELECT count(*) FROM t") == 50)
    }

    @Test func aHotJournalThatCannotBeAppliedHereIsNamed() throws {
        let copy = try Self.makeInterruptedCopy()
        let before = try Data(contentsOf: URL(fileURLWithPath: copy))
        let error = #expect(throws: SQLiteError.self) {
            try Connection(path: copy, mode: .readOnly, busyTimeout: .zero, sideFilesCreatable: false)
        }
        #expect(error?.extendedCode == .readOnlyRollback)
        #expect(error?.message.contains("store.sqlite-journal") == true)
        #expect(error?.message.contains("never copy or delete one without the other") == true)
        #expect(error?.path == copy)
        #expect(try Data(contentsOf: URL(fileURLWithPath: copy)) == before, "nothing was changed")
        #expect(Connection.hasJournalContent(path: copy))
    }

    @Test func aJournalOfAWriterStillRunningIsLeftAlone() throws {
        let path = try temporaryDatabasePath("live.sqlite")
        let writer = try Connection(path: path, mode: .create)
        _ = try writer.setJournalMode(.delete)
        try writer.execute(sql: "CREATE TABLE t(x); INSERT INTO t VALUES (1); PRAGMA cache_size = 5")
        try writer.beginTransaction(.immediate)
        // Outgrowing the cache makes SQLite sync the journal and write pages to the main file before the commit.
        try writer.execute(sql: """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000)
            INSERT INTO t SELECT randomblob(1000) FROM n;
            """)
        #expect(Connection.hasJournalContent(path: path))
        // The writer holds its (exclusive) lock: the journal is not hot, so it is neither applied nor reported; a
        // reader waits for the writer, as with any lock.
        let error = #expect(throws: SQLiteError.self) { try Connection(path: path, mode: .readOnly) }
        #expect(error?.code == .busy)
        #expect(Connection.hasJournalContent(path: path))
        try writer.commit()
        let reader = try Connection(path: path, mode: .readOnly)
        #expect(reader.recoveredJournal == nil)
        #expect(try reader.integer("SELECT count(*) FROM t") == 2001)
    }

    @Test func storageErrorsGetTheirOwnWords() {
        let full = SQLiteError(resultCode: SQLITE_FULL_CODE, message: "database or disk is full")
        #expect(full.storageProblem == "the disk is full (SQLITE_FULL)")
        var tooLarge = SQLiteError(resultCode: SQLITE_IOERR_WRITE_CODE, message: "disk I/O error")
        tooLarge.systemErrorNumber = EFBIG
        #expect(tooLarge.storageProblem?.contains("EFBIG") == true)
        var io = SQLiteError(resultCode: SQLITE_IOERR_FSYNC_CODE, message: "disk I/O error")
        io.systemErrorNumber = EIO
        #expect(io.storageProblem?.contains("syncing to disk") == true)
        #expect(SQLiteError(.constraint, message: "x").storageProblem == nil)
    }
}

private let SQLITE_FULL_CODE: Int32 = 13
private let SQLITE_IOERR_WRITE_CODE: Int32 = 10 | (3 << 8)
private let SQLITE_IOERR_FSYNC_CODE: Int32 = 10 | (4 << 8)
