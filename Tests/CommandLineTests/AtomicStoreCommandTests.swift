import CoreDataTestSupport
import Foundation
import Testing

/// `coredata migrate` and `coredata predicate --sql` on XML and binary stores, through the real executable: Apple's
/// SampleModel_V1 store converted to each type, then migrated through the versions of its model.
@Suite("coredata migrate and predicate --sql on XML and binary stores", .enabled(if: Fixtures.isAvailable, "../shared/fixtures is absent"))
struct AtomicStoreCommandTests {
    let folder = "stores/coredataplus-inheritance-constraints"

    func run(_ arguments: [String]) throws -> CommandRunner.Result { try CommandRunner.run(arguments) }

    /// The fixture store converted to `type` beside a copy of its model.
    func converted(to type: String) throws -> (store: String, model: String, sqlite: String) {
        let sqlite = try Fixtures.copy("\(folder)/SampleModel_V1.sqlite")
        let model = try Fixtures.copy("\(folder)/SampleModel.xcdatamodeld")
        let store = sqlite.deletingLastPathComponent().appendingPathComponent("SampleModel.\(type)").path
        let result = try run(["convert", sqlite.path, store, "--to", type])
        #expect(result.status == 0, "\(result.standardError)")
        return (store, model.path, sqlite.path)
    }

    func files(beside path: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path).sorted()
    }

    @Test(arguments: ["xml", "binary"])
    func migrateRunsEveryStepObjectByObjectKeepsABackupAndDryRunChangesNothing(type: String) throws {
        let (store, model, sqlite) = try converted(to: type)
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        let cars = try run(["count", sqlite, "Car"]).standardOutput
        let luxury = try run(["count", sqlite, "ExpensiveSportCar"]).standardOutput
        #expect(cars != "0\n" && luxury != "0\n")

        let dry = try run(["migrate", store, "--model", model, "--to", "SampleModel3", "--dry-run"])
        #expect(dry.status == 0, "\(dry.standardError)")
        #expect(dry.standardOutput.contains("version SampleModel → SampleModel3, 2 step(s)"), "\(dry.standardOutput)")
        #expect(dry.standardOutput.contains("step 1: SampleModel → SampleModel2, inferred mapping, object by object"), "\(dry.standardOutput)")
        #expect(dry.standardOutput.contains("ExpensiveSportCar renamed LuxuryCar"), "\(dry.standardOutput)")
        #expect(dry.standardOutput.contains("dry run: the store was not changed"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
        #expect(try files(beside: store).allSatisfy { !$0.contains("backup") && !$0.contains("migrating") })

        let migrated = try run(["migrate", store, "--model", model, "--to", "SampleModel3"])
        #expect(migrated.status == 0, "\(migrated.standardError)")
        #expect(migrated.standardOutput.contains("migrated to SampleModel3"))
        let backup = try #require(try files(beside: store).first { $0.hasPrefix("SampleModel.\(type).backup-") })
        #expect(try Data(contentsOf: URL(fileURLWithPath: store).deletingLastPathComponent().appendingPathComponent(backup)) == before)
        #expect(try files(beside: store).allSatisfy { !$0.contains("migrating") })
        // The store is at version 3 now, with every car (the renamed entity's too).
        let schema = try run(["schema", store, "--model", model])
        #expect(schema.standardOutput.contains("version hashes: match the store's metadata")
                && schema.standardOutput.contains("version identifiers: \"3\""), "\(schema.standardOutput)\(schema.standardError)")
        #expect(try run(["count", store, "Car", "--model", model]).standardOutput == cars)
        let renamed = try run(["count", store, "LuxuryCar", "--model", model])
        #expect(renamed.status == 0 && renamed.standardOutput == luxury, "\(renamed.standardOutput)\(renamed.standardError)")
        let again = try run(["migrate", store, "--model", model, "--to", "SampleModel3"])
        #expect(again.standardOutput.contains("already at the current version SampleModel3"), "\(again.standardOutput)\(again.standardError)")
    }

    @Test func aMigrationThatFailsLeavesTheXMLStoreUntouched() throws {
        let (store, _, _) = try converted(to: "xml")
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        let moody = try Fixtures.copy("models/objcio-moody-migrations/Moody.xcdatamodeld")
        let refused = try run(["migrate", store, "--model", moody.path])
        #expect(refused.status == 1, "\(refused.standardOutput)\(refused.standardError)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
        #expect(try files(beside: store).allSatisfy { !$0.contains("backup") && !$0.contains("migrating") })
    }

    @Test(arguments: ["xml", "binary"])
    func predicateSQLOnAnAtomicStoreSaysItIsEvaluatedInMemory(type: String) throws {
        let (store, model, sqlite) = try converted(to: type)
        let matching = try run(["count", sqlite, "Car", "maker == 'FIAT'"]).standardOutput.trimmingCharacters(in: .newlines)
        let total = try run(["count", sqlite, "Car"]).standardOutput.trimmingCharacters(in: .newlines)
        let result = try run(["predicate", "maker == 'FIAT'", "--sql", "--store", store, "--entity", "Car", "--model", model])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput == """
            Car WHERE maker == "FIAT"
            no SQL: \(store) is \(type == "xml" ? "an" : "a") \(type) store, which Core Data reads whole into memory; a fetch \
            evaluates the predicate on each Car object (subentities included)
            matches \(matching) of \(total) Car objects

            """, "\(result.standardOutput)")
        let unknown = try run(["predicate", "makr == 'FIAT'", "--sql", "--store", store, "--entity", "Car", "--model", model])
        #expect(unknown.status == 1 && unknown.standardError.contains("no property named 'makr'"), "\(unknown.standardError)")
    }
}
