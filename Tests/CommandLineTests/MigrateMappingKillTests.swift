import CoreDataSQLiteFormat
import CoreDataTestSupport
import Foundation
import SQLiteDatabase
import Testing

/// `coredata migrate STORE --model M --mapping …` killed with SIGKILL at seeded random moments, as a child process:
/// Moody's store goes from version 1 to 5, one inferred step (SQL on a scratch copy) and three of Apple's mapping
/// models (object by object into new files), with and without the backup. After every kill the store is either the
/// original byte for byte or completely migrated (the same rows as an uninterrupted run), `PRAGMA integrity_check`
/// is ok, a backup that was written is the original's data, and running the command again finishes the migration.
/// OCD_KILLS sets the number of kills (default 6; `make stress` runs OCD_KILLS / 10, 100 by default); the figures are
/// printed for RELIABILITY.md.
@Suite("coredata migrate --mapping, killed", .enabled(if: Fixtures.isAvailable, "\(Fixtures.absenceMessage)"))
struct MigrateMappingKillTests {
    static let kills = ProcessInfo.processInfo.environment["OCD_KILLS"].flatMap(Int.init).map { max(6, $0 / 10) } ?? 6
    let folder = "models/objcio-moody-migrations"
    /// Moods in the store: the run is mostly file work (copies, fsyncs, the replacing rename), which kills land in.
    let moods = 120

    /// A Moody version-1 store (two continents, three countries, `moods` moods), checkpointed so that the main file
    /// alone is the store.
    private func moodyStore(in directory: URL, model: URL) throws -> URL {
        let store = directory.appendingPathComponent("Moody.sqlite")
        let created = try CommandRunner.run(["create", store.path, "--model", model.appendingPathComponent("Moody.xcdatamodel").path])
        #expect(created.status == 0, "\(created.standardError)")
        let connection = try Connection(path: store.path, mode: .readWrite)
        let entity = { (name: String) in try connection.query("SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = '\(name)'")[0][0].int64Value! }
        let (continent, country, mood) = (try entity("Continent"), try entity("Country"), try entity("Mood"))
        var sql = "BEGIN;"
        for (pk, code) in [(1, 150), (2, 142)] {
            sql += "INSERT INTO ZGEOGRAPHICREGION (Z_PK, Z_ENT, Z_OPT, ZNUMBEROFMOODS, ZNUMERICISO3166CODE, ZUNIQUENESSDUMMY, ZNUMBEROFCOUNTRIES, "
                + "ZUPDATEDAT) VALUES (\(pk), \(continent), 1, 0, \(code), 0, 0, 700000000);"
        }
        for (pk, code, inContinent) in [(3, 250, 1), (4, 276, 1), (5, 392, 2)] {
            sql += "INSERT INTO ZGEOGRAPHICREGION (Z_PK, Z_ENT, Z_OPT, ZNUMBEROFMOODS, ZNUMERICISO3166CODE, ZUNIQUENESSDUMMY, ZCONTINENT, "
                + "ZUPDATEDAT) VALUES (\(pk), \(country), 1, \(moods / 3), \(code), 0, \(inContinent), 700000000);"
        }
        for index in 0..<moods {
            sql += "INSERT INTO ZMOOD (Z_PK, Z_ENT, Z_OPT, ZMARKEDFORREMOTEDELETION, ZCOUNTRY, ZDATE, ZLATITUDE, ZREMOTEIDENTIFIER) "
                + "VALUES (\(index + 1), \(mood), 1, 0, \(3 + index % 3), \(700000000 + index), \(Double(index) / 2), 'm\(index)');"
        }
        sql += "UPDATE Z_PRIMARYKEY SET Z_MAX = 5 WHERE Z_NAME IN ('GeographicRegion', 'Continent', 'Country');"
        sql += "UPDATE Z_PRIMARYKEY SET Z_MAX = \(moods) WHERE Z_NAME = 'Mood';"
        sql += "COMMIT; PRAGMA wal_checkpoint(TRUNCATE);"
        try connection.execute(sql: sql)
        return store
    }

    /// Every row of every table but the metadata and model cache, as text, sorted; and the entity version hashes.
    private func dump(_ store: URL) throws -> (rows: [String], hashes: [String: Data]) {
        let connection = try Connection(path: store.path, mode: .readOnly)
        var rows: [String] = []
        let tables = try connection.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT IN ('Z_METADATA', 'Z_MODELCACHE') ORDER BY name")
        for table in tables.compactMap({ $0[0].stringValue }) {
            rows += try connection.query("SELECT * FROM \(table)").map { row in
                table + " " + row.map(\.description).joined(separator: "|")
            }
        }
        return (rows.sorted(), try SQLiteStoreFile(path: store.path).metadata.versionHashes)
    }

    private func integrity(_ store: URL) throws -> String? {
        try Connection(path: store.path, mode: .readOnly).scalar("PRAGMA integrity_check")?.stringValue
    }

    /// Backups the command wrote beside the store (not its temporary files).
    private func backups(of store: URL) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(atPath: store.deletingLastPathComponent().path)
            .filter { $0.hasPrefix("Moody.sqlite.backup-") && !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") }
            .map { store.deletingLastPathComponent().appendingPathComponent($0) }
    }

    @Test func killedMappingMigrationsLeaveTheOriginalOrTheMigratedStore() throws {
        let model = try Fixtures.copy("\(folder)/Moody.xcdatamodeld")
        let mappings = try (2...4).map { try Fixtures.copy("\(folder)/Moody \($0)-Moody \($0 + 1).xcmappingmodel").path }
        let work = try TemporaryDirectory.make(prefix: "migrate-mapping-kill")
        defer { try? FileManager.default.removeItem(at: work) }
        let template = try moodyStore(in: work, model: model)
        let original = try Data(contentsOf: template)
        let before = try dump(template)
        func arguments(_ store: URL, backup: Bool) -> [String] {
            ["migrate", store.path, "--model", model.path, "--to", "Moody 5"] + mappings.flatMap { ["--mapping", $0] } + (backup ? [] : ["--no-backup"])
        }
        func freshCopy(_ name: String) throws -> URL {
            let directory = work.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let store = directory.appendingPathComponent("Moody.sqlite")
            try FileManager.default.copyItem(at: template, to: store)
            return store
        }

        // The uninterrupted run: what a finished migration leaves, and how long one takes.
        let reference = try freshCopy("reference")
        let started = ContinuousClock.now
        let run = try CommandRunner.run(arguments(reference, backup: true))
        let duration = ContinuousClock.now - started
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains("migrated to Moody 5"), "\(run.standardOutput)")
        let after = try dump(reference)
        #expect(after.hashes != before.hashes)
        #expect(after.rows.filter { $0.hasPrefix("ZMOOD ") }.count == moods)
        // The first run also pays for cold caches: two more, timed alone, give the warm length the kills must fall in.
        var shortest = duration
        for warm in 0..<2 {
            let store = try freshCopy("warm-\(warm)")
            let start = ContinuousClock.now
            #expect(try CommandRunner.run(arguments(store, backup: true)).status == 0)
            shortest = min(shortest, ContinuousClock.now - start)
        }
        let milliseconds = Int(shortest.components.seconds * 1_000 + shortest.components.attoseconds / 1_000_000_000_000_000)

        var random = SeededRandom(seed: ProcessInfo.processInfo.environment["OCD_SEED"].flatMap(UInt64.init) ?? 22)
        var killed = 0, untouched = 0, migrated = 0, resumed = 0, backupsChecked = 0
        // A run that finishes before its kill makes the next delays shorter, and the campaign goes on (up to three
        // times as many runs) until most runs were killed: process timings drift under a parallel test suite.
        var scale = 1.1, attempt = 0
        while attempt < Self.kills || (killed <= Self.kills / 2 && attempt < Self.kills * 3) {
            defer { attempt += 1 }
            let store = try freshCopy("run-\(attempt)")
            let backup = attempt % 2 == 0
            // Anywhere from the start to a little past the uninterrupted run's length.
            let delay = Int(random.next(below: UInt64(Double(milliseconds) * scale) + 1))
            let label = "kill \(attempt) after \(delay) ms of \(milliseconds) (\(backup ? "with" : "without") backup)"
            let outcome = try CommandRunner.run(arguments(store, backup: backup), timeout: .milliseconds(delay))
            if outcome.timedOut {
                killed += 1
            } else {
                scale *= 0.7
                #expect(outcome.status == 0, "\(label): \(outcome.standardError)")
            }
            #expect(FileManager.default.fileExists(atPath: store.path), "\(label): the store is gone")
            if try Data(contentsOf: store) == original {
                untouched += 1
            } else {
                #expect(try dump(store) == after, "\(label): the store is neither the original nor fully migrated")
                migrated += 1
            }
            #expect(try integrity(store) == "ok", "\(label)")
            for copy in try backups(of: store) {
                #expect(backup, "\(label): a backup without being asked for one")
                #expect(try integrity(copy) == "ok", "\(label): \(copy.lastPathComponent)")
                #expect(try dump(copy) == before, "\(label): the backup holds the original's data")
                backupsChecked += 1
            }
            // A kill may leave the command's scratch folder and the temporary file of a copy that was to be renamed
            // over the store or its backup (`NSSQLiteStore.copyStore`), all hidden and named after the store; nothing
            // else.
            let left = try FileManager.default.contentsOfDirectory(atPath: store.deletingLastPathComponent().path).filter { name in
                !["Moody.sqlite", "Moody.sqlite-wal", "Moody.sqlite-shm"].contains(name) && !name.hasPrefix("Moody.sqlite.backup-")
                    && !name.hasPrefix(".Moody.sqlite.migrating-")
                    && !(name.hasPrefix(".Moody.sqlite.") && name.contains(".replacing-"))
            }
            #expect(left.isEmpty, "\(label): unexpected files beside the store: \(left)")
            // Every third store left at the old version is migrated again, to the end, by the same command.
            if try Data(contentsOf: store) == original, attempt % 3 == 0 {
                let again = try CommandRunner.run(arguments(store, backup: false))
                #expect(again.status == 0, "\(label), run again: \(again.standardError)")
                #expect(try dump(store) == after, "\(label), run again")
                resumed += 1
            }
        }
        #expect(killed > Self.kills / 2, "most runs died before they finished")
        print("migrate --mapping kills: \(attempt) runs of `coredata migrate` (\(milliseconds) ms uninterrupted), \(killed) killed, "
              + "\(untouched) left the original byte for byte, \(migrated) fully migrated, \(backupsChecked) backups checked, "
              + "\(resumed) migrated again after the kill")
    }
}
