import CoreDataTestSupport
import Foundation
import SQLiteDatabase
import Testing

/// `coredata migrate --mapping`: objc.io's Moody store stepped through its versions with Apple's mapping models
/// (../shared/fixtures/models/objcio-moody-migrations) where they are given and inference elsewhere; mapping models
/// that do not fit are refused naming the file, with the store byte for byte as it was.
@Suite("coredata migrate --mapping", .enabled(if: Fixtures.isAvailable, "../shared/fixtures is absent"))
struct MigrateMappingCommandTests {
    let folder = "models/objcio-moody-migrations"

    /// A Moody version-1 store: continents 150 and 142, countries 250 and 276 (in 150) and 392 (in 142), six moods
    /// (mood i in country i % 3), written with `coredata create` and plain SQL.
    private func moodyStore() throws -> (store: URL, model: URL) {
        let model = try Fixtures.copy("\(folder)/Moody.xcdatamodeld")
        let store = model.deletingLastPathComponent().appendingPathComponent("Moody.sqlite")
        let created = try CommandRunner.run(["create", store.path, "--model", model.appendingPathComponent("Moody.xcdatamodel").path])
        #expect(created.status == 0, "\(created.standardError)")
        let connection = try Connection(path: store.path, mode: .readWrite)
        let entity = { (name: String) in try connection.query("SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = '\(name)'")[0][0].int64Value! }
        let (continent, country, mood) = (try entity("Continent"), try entity("Country"), try entity("Mood"))
        var sql = ""
        for (pk, code) in [(1, 150), (2, 142)] {
            sql += "INSERT INTO ZGEOGRAPHICREGION (Z_PK, Z_ENT, Z_OPT, ZNUMBEROFMOODS, ZNUMERICISO3166CODE, ZUNIQUENESSDUMMY, ZNUMBEROFCOUNTRIES, "
                + "ZUPDATEDAT) VALUES (\(pk), \(continent), 1, 0, \(code), 0, 0, 700000000);"
        }
        for (pk, code, inContinent) in [(3, 250, 1), (4, 276, 1), (5, 392, 2)] {
            sql += "INSERT INTO ZGEOGRAPHICREGION (Z_PK, Z_ENT, Z_OPT, ZNUMBEROFMOODS, ZNUMERICISO3166CODE, ZUNIQUENESSDUMMY, ZCONTINENT, "
                + "ZUPDATEDAT) VALUES (\(pk), \(country), 1, 2, \(code), 0, \(inContinent), 700000000);"
        }
        for index in 0..<6 {
            sql += "INSERT INTO ZMOOD (Z_PK, Z_ENT, Z_OPT, ZMARKEDFORREMOTEDELETION, ZCOUNTRY, ZDATE, ZLATITUDE, ZREMOTEIDENTIFIER) "
                + "VALUES (\(index + 1), \(mood), 1, 0, \(3 + index % 3), \(700000000 + index), \(Double(index) / 2), 'm\(index)');"
        }
        sql += "UPDATE Z_PRIMARYKEY SET Z_MAX = 5 WHERE Z_NAME IN ('GeographicRegion', 'Continent', 'Country');"
        sql += "UPDATE Z_PRIMARYKEY SET Z_MAX = 6 WHERE Z_NAME = 'Mood';"
        try connection.execute(sql: sql)
        return (store, model)
    }

    private func mapping(_ step: Int) throws -> URL {
        try Fixtures.copy("\(folder)/Moody \(step)-Moody \(step + 1).xcmappingmodel")
    }

    /// The store's files besides itself: no scratch folder, no backup unless asked.
    private func neighbours(of store: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: store.deletingLastPathComponent().path)
            .filter { $0.hasPrefix(".Moody.sqlite") || $0.hasPrefix("Moody.sqlite.") }.sorted()
    }

    @Test func mappingModelsRunTheirStepsAndInferenceTheOthers() throws {
        let (store, model) = try moodyStore()
        let (two, three, four) = (try mapping(2).path, try mapping(3).path, try mapping(4).path)
        let arguments = ["migrate", store.path, "--model", model.path, "--to", "Moody 5", "--mapping", two, "--mapping", three, "--mapping", four]
        let before = try Data(contentsOf: store)
        let dry = try CommandRunner.run(arguments + ["--dry-run"])
        #expect(dry.status == 0, "\(dry.standardError)")
        let out = dry.standardOutput
        #expect(out.contains("version Moody → Moody 5, 4 step(s)"), "\(out)")
        #expect(out.contains("step 1: Moody → Moody 2, inferred mapping, SQL"), "\(out)")
        #expect(out.contains("step 2: Moody 2 → Moody 3, mapping model \(two), object by object (3 entity mappings)"), "\(out)")
        #expect(out.contains("step 3: Moody 3 → Moody 4, mapping model \(three), object by object"), "\(out)")
        #expect(out.contains("step 4: Moody 4 → Moody 5, mapping model \(four), object by object (2 entity mappings)"), "\(out)")
        #expect(out.contains("dry run: the store was not changed"))
        #expect(try Data(contentsOf: store) == before)
        #expect(try neighbours(of: store).isEmpty, "a dry run leaves neither a backup nor its scratch files")

        let run = try CommandRunner.run(arguments)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains("migrated to Moody 5"), "\(run.standardOutput)")
        let left = try neighbours(of: store)
        #expect(left.count == 1 && left[0].hasPrefix("Moody.sqlite.backup-"), "only the backup is left: \(left)")
        let connection = try Connection(path: store.path, mode: .readOnly)
        #expect(try connection.scalar("PRAGMA integrity_check")?.stringValue == "ok")
        let countries = try connection.query("SELECT c.ZNUMERICISO3166CODE, c.ZISOCONTINENT, count(m.Z_PK) FROM ZCOUNTRY c "
                                             + "LEFT JOIN ZMOOD m ON m.ZCOUNTRY = c.Z_PK GROUP BY c.Z_PK ORDER BY 1")
        #expect(countries.map { $0.map(\.int64Value) } == [[250, 150, 2], [276, 150, 2], [392, 142, 2]],
                "4→5 kept each country's continent code in isoContinent, and every mood its country")
        let moods = try connection.query("SELECT ZREMOTEID FROM ZMOOD ORDER BY ZDATE").map { $0[0].stringValue }
        #expect(moods == (0..<6).map { "m\($0)" }, "the inferred 1→2 step renamed remoteIdentifier")
        let schema = try CommandRunner.run(["schema", store.path, "--model", model.path])
        #expect(schema.standardOutput.contains("the store is at version Moody 5"), "\(schema.standardOutput)")
    }

    @Test func aDirectoryOfMappingModelsServesTheStepsOnThePath() throws {
        let (store, model) = try moodyStore()
        let directory = store.deletingLastPathComponent().appendingPathComponent("mappings")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for step in 2...5 { try FileManager.default.moveItem(at: try mapping(step), to: directory.appendingPathComponent("Moody \(step)-Moody \(step + 1).xcmappingmodel")) }
        let dry = try CommandRunner.run(["migrate", store.path, "--model", model.path, "--to", "Moody 4", "--mapping", directory.path, "--dry-run"])
        #expect(dry.status == 0, "\(dry.standardError)")
        #expect(dry.standardOutput.contains("step 2: Moody 2 → Moody 3, mapping model \(directory.path)/Moody 2-Moody 3.xcmappingmodel"), "\(dry.standardOutput)")
        #expect(dry.standardOutput.contains("step 3: Moody 3 → Moody 4, mapping model"), "\(dry.standardOutput)")
    }

    @Test func mappingModelsThatDoNotFitAreRefusedNamingTheFileWithTheStoreUntouched() throws {
        let (store, model) = try moodyStore()
        let before = try Data(contentsOf: store)
        // A step that is not on the path to the chosen version.
        let beyond = try CommandRunner.run(["migrate", store.path, "--model", model.path, "--to", "Moody 3", "--mapping", try mapping(4).path])
        #expect(beyond.status == 1)
        #expect(beyond.standardError.contains("Moody 4-Moody 5.xcmappingmodel: maps Moody 4 → Moody 5, which is not a step"),
                "\(beyond.standardError)")
        // The 2→3 file relabelled as 5→6: version 5 has no Continent for its ContinentToContinent mapping.
        let relabelled = try mapping(2)
        let xml = relabelled.appendingPathComponent("xcmapping.xml")
        let text = try String(contentsOf: xml, encoding: .utf8)
            .replacingOccurrences(of: "Moody 3.xcdatamodel", with: "Moody 6.xcdatamodel")
            .replacingOccurrences(of: "Moody 2.xcdatamodel", with: "Moody 5.xcdatamodel")
        try Data(text.utf8).write(to: xml)
        let missing = try CommandRunner.run(["migrate", store.path, "--model", model.path, "--mapping", relabelled.path])
        #expect(missing.status == 1)
        #expect(missing.standardError.contains(xml.path) && missing.standardError.contains("Continent"), "\(missing.standardError)")
        // A version the model does not have.
        try Data(text.replacingOccurrences(of: "Moody 6.xcdatamodel", with: "Moody 9.xcdatamodel").utf8).write(to: xml)
        let unknown = try CommandRunner.run(["migrate", store.path, "--model", model.path, "--mapping", relabelled.path])
        #expect(unknown.standardError.contains("\(relabelled.path): maps Moody 5 → Moody 9, but \(model.path) has no version Moody 9"),
                "\(unknown.standardError)")
        // A compiled mapping model that is not one.
        let compiled = store.deletingLastPathComponent().appendingPathComponent("Broken.cdm")
        try Data("not an archive".utf8).write(to: compiled)
        let broken = try CommandRunner.run(["migrate", store.path, "--model", model.path, "--mapping", compiled.path])
        #expect(broken.status == 1)
        #expect(broken.standardError.contains("\(compiled.path): not a compiled mapping model"), "\(broken.standardError)")
        // The 5→6 file names the app's policy class, which this program cannot have: the migration fails at that
        // step, after the earlier ones ran on scratch files.
        let policy = try CommandRunner.run(["migrate", store.path, "--model", model.path, "--mapping", try mapping(2).path,
                                            "--mapping", try mapping(3).path, "--mapping", try mapping(4).path, "--mapping", try mapping(5).path,
                                            "--no-backup"])
        #expect(policy.status == 1)
        #expect(policy.standardError.contains("Migrations.Country5ToCountry6Policy"), "\(policy.standardError)")
        #expect(try Data(contentsOf: store) == before, "the store is byte for byte as it was")
        let left = try neighbours(of: store)
        #expect(left.isEmpty, "no scratch files are left: \(left)")
    }
}
