import CoreDataTestSupport
import Foundation
import SQLiteDatabase
import Testing

/// Commands on a store whose last save was interrupted (a hot rollback journal beside it): they recover it and
/// say so, or, where the location cannot be written, name the journal that must travel with the file.
struct InterruptedSaveCommandTests {
    static let library = Fixtures.projectRoot.appendingPathComponent("SampleStores/Library/Library.sqlite").path
    private static let isRoot = getuid() == 0
    private static let canDropPrivileges = !isRoot || FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")

    /// A copy of the Library sample taken in the middle of a save that rewrote every object and outgrew the page
    /// cache: the main file holds part of the save and `Library.sqlite-journal` the pages that undo it.
    static func interruptedCopy() throws -> String {
        let work = try TemporaryDirectory.make().appendingPathComponent("Library.sqlite").path
        try FileManager.default.copyItem(atPath: library, toPath: work)
        let writer = try Connection(path: work, mode: .readWrite)
        #expect(try writer.setJournalMode(.delete) == .delete)
        try writer.execute(sql: "PRAGMA cache_size = 5")
        try writer.beginTransaction()
        try writer.execute(sql: """
            UPDATE ZITEM SET Z_OPT = Z_OPT + 100;
            CREATE TABLE ZJUNK(x);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000)
            INSERT INTO ZJUNK SELECT randomblob(1000) FROM n;
            """)
        let copy = try TemporaryDirectory.make().appendingPathComponent("Library.sqlite").path
        try FileManager.default.copyItem(atPath: work, toPath: copy)
        try FileManager.default.copyItem(atPath: work + "-journal", toPath: copy + "-journal")
        try writer.rollback()
        return copy
    }

    @Test func everyCommandRecoversTheInterruptedSaveAndSaysSo() throws {
        let books = try CommandRunner.run(["count", Self.library, "Book"])
        #expect(books.status == 0)
        let commands: [[String]] = [
            ["count", "Book"], ["query", "Book", "--keys", "title", "--limit", "1"], ["schema"],
            ["set", "Book", "TRUEPREDICATE", "title=Renamed", "--yes"],
        ]
        for command in commands {
            let copy = try Self.interruptedCopy()
            let result = try CommandRunner.run([command[0], copy] + command.dropFirst())
            #expect(result.status == 0, "\(command): \(result.standardError)")
            #expect(result.standardError.contains("recovered an interrupted save from Library.sqlite-journal"),
                    "\(command): \(result.standardError)")
            #expect(!FileManager.default.fileExists(atPath: copy + "-journal"))
            let connection = try Connection(path: copy, mode: .readOnly)
            #expect(try connection.integrityCheck() == ["ok"])
            #expect(try connection.tableExists("ZJUNK") == false, "the interrupted save is undone")
            if command[0] == "count" { #expect(result.standardOutput == books.standardOutput) }
        }
    }

    @Test(.enabled(if: canDropPrivileges, "neither unprivileged nor able to drop privileges with setpriv"))
    func aReadOnlyLocationNamesTheJournal() throws {
        let copy = try Self.interruptedCopy()
        let directory = (copy as NSString).deletingLastPathComponent
        // Readable by anyone, writable by no one but root (and the command runs as nobody).
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: copy)
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: copy + "-journal")
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: directory)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory) }
        let launcher = Self.isRoot ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : []
        let result = try CommandRunner.run(["count", copy, "Book"], launcher: launcher)
        #expect(result.status == 1)
        #expect(result.standardError.contains("an interrupted save left Library.sqlite-journal"), "\(result.standardError)")
        #expect(result.standardError.contains("Copy Library.sqlite together with Library.sqlite-journal"))
        #expect(!result.standardError.contains("attempt to write a readonly database"))
        #expect(FileManager.default.fileExists(atPath: copy + "-journal"), "nothing was changed")
    }

    @Test func aStaleWALIsNamedAndTheIntactMainFileSaidSo() throws {
        // A -wal of another database (the Recipes sample, changed in WAL mode) beside a copy of the Library sample.
        let other = try TemporaryDirectory.make().appendingPathComponent("Recipes.sqlite").path
        try FileManager.default.copyItem(
            atPath: Fixtures.projectRoot.appendingPathComponent("SampleStores/Recipes/Recipes.sqlite").path, toPath: other)
        let writer = try Connection(path: other, mode: .readWrite)
        #expect(try writer.setJournalMode(.wal) == .wal)
        try writer.execute(sql: "PRAGMA wal_autocheckpoint = 0; CREATE TABLE ZEXTRA(x); INSERT INTO ZEXTRA VALUES (1)")
        let copy = try TemporaryDirectory.make().appendingPathComponent("Library.sqlite").path
        try FileManager.default.copyItem(atPath: Self.library, toPath: copy)
        try FileManager.default.copyItem(atPath: other + "-wal", toPath: copy + "-wal")
        withExtendedLifetime(writer) {}
        let result = try CommandRunner.run(["count", copy, "Book"])
        #expect(result.status == 1)
        #expect(result.standardError.contains("Library.sqlite-wal"), "\(result.standardError)")
        #expect(result.standardError.contains("the main file alone is intact"), "\(result.standardError)")
        #expect(!result.standardError.contains("is corrupt or truncated"))
        // Moved aside as the message says, the store opens.
        try FileManager.default.removeItem(atPath: copy + "-wal")
        try? FileManager.default.removeItem(atPath: copy + "-shm")
        #expect(try CommandRunner.run(["count", copy, "Book"]).status == 0)
    }
}
