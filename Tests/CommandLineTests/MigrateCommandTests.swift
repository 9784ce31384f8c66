import CoreDataSQLiteFormat
import CoreDataTestSupport
import Foundation
import SQLiteDatabase
import Testing

/// `coredata migrate` and `coredata schema --model`, driven through the real executable on Apple's
/// SampleModel_V1 store and its three-version model.
@Suite("coredata migrate", .enabled(if: Fixtures.isAvailable, "../shared/fixtures is absent"))
struct MigrateCommandTests {
    let folder = "stores/coredataplus-inheritance-constraints"

    private func files(in directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }

    @Test func schemaNamesTheVersionTheStoreIsAt() throws {
        let store = try Fixtures.copy("\(folder)/SampleModel_V1.sqlite")
        let model = try Fixtures.copy("\(folder)/SampleModel.xcdatamodeld")
        let result = try CommandRunner.run(["schema", store.path, "--model", model.path])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("the store is at the current version SampleModel (version 1 of 3)"))
        let moody = try Fixtures.copy("models/objcio-moody-migrations/Moody.xcdatamodeld")
        let other = try CommandRunner.run(["schema", store.path, "--model", moody.path])
        #expect(other.standardOutput.contains("no version of the model matches the store; against the current version Moody 6: Car removed from the model"))
    }

    @Test func dryRunPrintsThePlanAndChangesNothing() throws {
        let store = try Fixtures.copy("\(folder)/SampleModel_V1.sqlite")
        let model = try Fixtures.copy("\(folder)/SampleModel.xcdatamodeld")
        let before = try Data(contentsOf: store)
        let result = try CommandRunner.run(["migrate", store.path, "--model", model.path, "--to", "SampleModel3", "--dry-run"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("version SampleModel → SampleModel3, 2 step(s)"))
        #expect(result.standardOutput.contains("step 1: SampleModel → SampleModel2, inferred mapping, SQL with table copies"))
        #expect(result.standardOutput.contains("entities changed: Car, ExpensiveSportCar renamed LuxuryCar, Person, SportCar"))
        #expect(result.standardOutput.contains("ZPERSON: in place (ALTER TABLE) (Z_ENT renumbered)"))
        #expect(result.standardOutput.contains("dry run: the store was not changed"))
        #expect(try Data(contentsOf: store) == before)
        #expect(try files(in: store.deletingLastPathComponent()).allSatisfy { !$0.contains("backup") })
    }

    @Test func migrateStepsThroughEveryVersionAndKeepsABackup() throws {
        let store = try Fixtures.copy("\(folder)/SampleModel_V1.sqlite")
        let model = try Fixtures.copy("\(folder)/SampleModel.xcdatamodeld")
        let result = try CommandRunner.run(["migrate", store.path, "--model", model.path, "--to", "SampleModel3"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("migrated to SampleModel3"))
        let backup = try #require(try files(in: store.deletingLastPathComponent()).first { $0.hasPrefix("SampleModel_V1.sqlite.backup-") })
        let backupFile = try SQLiteStoreFile(path: store.deletingLastPathComponent().appendingPathComponent(backup).path)
        #expect(backupFile.metadata.versionIdentifiers == ["1"], "the backup is the store before the migration")
        let migrated = try SQLiteStoreFile(path: store.path)
        #expect(migrated.metadata.versionIdentifiers == ["3"])
        #expect(try migrated.connection.scalar("PRAGMA integrity_check")?.stringValue == "ok")
        #expect(try migrated.connection.scalar("SELECT count(*) FROM ZCAR")?.int64Value == 125)
        let again = try CommandRunner.run(["schema", store.path, "--model", model.path])
        #expect(again.standardOutput.contains("the store is at version SampleModel3 (version 3 of 3), after the current version SampleModel"))
    }

    @Test func noMatchingVersionAndAWrongModelAreRefusedWithTheStoreUntouched() throws {
        let store = try Fixtures.copy("\(folder)/SampleModel_V1.sqlite")
        let before = try Data(contentsOf: store)
        let moody = try Fixtures.copy("models/objcio-moody-migrations/Moody.xcdatamodeld")
        let result = try CommandRunner.run(["migrate", store.path, "--model", moody.path, "--no-backup"])
        #expect(result.status == 1)
        #expect(result.standardError.contains("shares no entity with the model"), "\(result.standardError)")
        #expect(try Data(contentsOf: store) == before)
        // A store without a model cache whose hashes no version has.
        let connection = try Connection(path: store.path, mode: .readWrite)
        try connection.execute(sql: "DELETE FROM Z_MODELCACHE")
        let bare = try Data(contentsOf: store)
        let refused = try CommandRunner.run(["migrate", store.path, "--model", moody.path])
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("no version of the model matches the store's version hashes"), "\(refused.standardError)")
        #expect(try Data(contentsOf: store) == bare)
    }
}
