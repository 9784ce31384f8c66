import CoreDataTestSupport
import Foundation
@testable import SQLiteDatabase
import Testing

/// Read-only access to WAL stores, including copies in read-only directories (where SQLite cannot create `-shm`).
@Suite("Read-only WAL stores")
struct ReadOnlyWALTests {
    /// A WAL database whose three rows are only in its `-wal` file: the writer stays open, so nothing is
    /// checkpointed. The caller keeps the writer alive while copying.
    private static func makeUncheckpointedStore() throws -> (writer: Connection, path: String) {
        let path = try temporaryDatabasePath("store.sqlite")
        let writer = try Connection(path: path, mode: .create)
        #expect(try writer.setJournalMode(.wal) == .wal)
        try writer.execute(
            sql: "PRAGMA wal_autocheckpoint = 0; CREATE TABLE t(x); INSERT INTO t VALUES (1), (2), (3)")
        return (writer, path)
    }

    /// Copies `path` and the given side files into a fresh directory, returning the copy's path.
    private static func copy(_ path: String, sideFiles: [String]) throws -> String {
        let directory = try TemporaryDirectory.make(prefix: "readonly-copy").path
        let copy = directory + "/store.sqlite"
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        for suffix in sideFiles { try FileManager.default.copyItem(atPath: path + suffix, toPath: copy + suffix) }
        return copy
    }

    /// Makes the copy's files and directory read-only; returns a closure that restores them for cleanup.
    private static func makeReadOnly(_ copy: String, sideFiles: [String]) throws -> () -> Void {
        let directory = (copy as NSString).deletingLastPathComponent
        for file in [copy] + sideFiles.map({ copy + $0 }) { try setPermissions(0o444, of: file) }
        try setPermissions(0o555, of: directory)
        return { try? setPermissions(0o755, of: directory) }
    }

    @Test func aCopiedStoreIsReadTogetherWithItsWAL() throws {
        let (writer, path) = try Self.makeUncheckpointedStore()
        let copy = try Self.copy(path, sideFiles: ["-wal"])
        let restore = try Self.makeReadOnly(copy, sideFiles: ["-wal"])
        defer { restore() }
        let directory = (copy as NSString).deletingLastPathComponent
        if canStillCreateFiles(in: directory) {
            // Running as root: permissions do not stop SQLite from creating the -shm, so it reads in place.
            let reader = try Connection(path: copy, mode: .readOnly)
            #expect(reader.isReadOnly)
            #expect(!reader.isImmutable)
            #expect(try reader.integer("SELECT count(*) FROM t") == 3)
        } else {
            // A real read-only directory: the -wal cannot be read without a -shm, so opening must say so.
            let error = #expect(throws: SQLiteError.self) { try Connection(path: copy, mode: .readOnly) }
            #expect(error?.code == .cantOpen)
            #expect(error?.message.contains("-shm") == true)
            #expect(error?.path == copy)
        }
        withExtendedLifetime(writer) {}
    }

    @Test func aCopiedTrioIsReadableEvenInAReadOnlyDirectory() throws {
        let (writer, path) = try Self.makeUncheckpointedStore()
        let copy = try Self.copy(path, sideFiles: ["-wal", "-shm"])
        let restore = try Self.makeReadOnly(copy, sideFiles: ["-wal", "-shm"])
        defer { restore() }
        let reader = try Connection(path: copy, mode: .readOnly)
        #expect(try reader.integer("SELECT count(*) FROM t") == 3)
        #expect(!reader.isImmutable)
        withExtendedLifetime(writer) {}
    }

    @Test func aCheckpointedWALStoreInAReadOnlyDirectoryIsReadable() throws {
        let path: String
        do {
            let (writer, storePath) = try Self.makeUncheckpointedStore()
            path = storePath
            withExtendedLifetime(writer) {}
        }
        let copy = try Self.copy(path, sideFiles: [])
        let restore = try Self.makeReadOnly(copy, sideFiles: [])
        defer { restore() }
        let reader = try Connection(path: copy, mode: .readOnly)
        #expect(try reader.integer("SELECT count(*) FROM t") == 3)
        // Root can still create the -shm, so SQLite reads normally; anyone else gets the immutable fallback.
        let directory = (copy as NSString).deletingLastPathComponent
        #expect(reader.isImmutable == !canStillCreateFiles(in: directory))
    }

    // The following tests force the "side files cannot be created" branch, which root cannot reach through
    // permissions.

    @Test func aNonEmptyWALWithoutShmIsRefusedWithAdviceToCopyTheTrio() throws {
        let (writer, path) = try Self.makeUncheckpointedStore()
        let copy = try Self.copy(path, sideFiles: ["-wal"])
        let error = #expect(throws: SQLiteError.self) {
            try Connection(path: copy, mode: .readOnly, busyTimeout: .zero, sideFilesCreatable: false)
        }
        #expect(error?.code == .cantOpen)
        #expect(error?.message.contains("Copy the database together with its -wal and -shm files") == true)
        #expect(error?.path == copy)
        withExtendedLifetime(writer) {}
    }

    @Test func aCheckpointedWALStoreOpensImmutable() throws {
        let path: String
        do {
            let (writer, storePath) = try Self.makeUncheckpointedStore()
            path = storePath
            // Closing the last connection checkpoints the WAL into the main file and deletes the -wal.
            withExtendedLifetime(writer) {}
        }
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        let copy = try Self.copy(path, sideFiles: [])
        let reader = try Connection(path: copy, mode: .readOnly, busyTimeout: .zero, sideFilesCreatable: false)
        #expect(reader.isImmutable)
        #expect(reader.isReadOnly)
        #expect(try reader.integer("SELECT count(*) FROM t") == 3)
        #expect(!FileManager.default.fileExists(atPath: copy + "-shm"), "an immutable connection creates no -shm")
    }

    @Test func anExistingShmIsUsedEvenWhereNothingCanBeCreated() throws {
        let (writer, path) = try Self.makeUncheckpointedStore()
        let copy = try Self.copy(path, sideFiles: ["-wal", "-shm"])
        let reader = try Connection(path: copy, mode: .readOnly, busyTimeout: .zero, sideFilesCreatable: false)
        #expect(!reader.isImmutable)
        #expect(try reader.integer("SELECT count(*) FROM t") == 3)
        withExtendedLifetime(writer) {}
    }

    @Test func theRulesDecideFromTheFilesOnDisk() throws {
        func decide(wal: Bool, creatable: Bool, shm: Bool, walBytes: Int64) throws -> ReadOnlyAccess {
            try Connection.readOnlyAccess(
                for: DatabaseFileState(
                    isWAL: wal, canCreateSideFiles: creatable, sharedMemoryFileExists: shm, walByteCount: walBytes),
                path: "/x.sqlite")
        }
        #expect(try decide(wal: false, creatable: false, shm: false, walBytes: 0) == .shared)
        #expect(try decide(wal: true, creatable: true, shm: false, walBytes: 4096) == .shared)
        #expect(try decide(wal: true, creatable: false, shm: true, walBytes: 4096) == .shared)
        #expect(try decide(wal: true, creatable: false, shm: false, walBytes: 0) == .immutable)
        #expect(throws: SQLiteError.self) { try decide(wal: true, creatable: false, shm: false, walBytes: 4096) }
    }
}
