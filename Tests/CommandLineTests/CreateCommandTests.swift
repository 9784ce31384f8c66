import CoreDataTestSupport
import Foundation
import SQLiteDatabase
import Testing

/// `coredata create STORE --model M` writes the schema Apple's Core Data wrote for the same model: for every fixture
/// model with a store Apple created from it (not migrated), the created file's statements equal the Apple store's,
/// compared statement by statement after normalising whitespace, with the same `Z_PRIMARYKEY` rows and the same
/// entity version hashes in the metadata.
@Suite(.enabled(if: Fixtures.isAvailable, "../shared/fixtures is absent: Apple-fixture tests are skipped"))
struct CreateCommandTests {
    /// Models beside the store Apple's Core Data created from them. CoreDataBooks (iOS 4) is left out: its store was
    /// migrated in place (`ALTER TABLE … ADD COLUMN`) and predates `Z_MODELCACHE`. The Recipes sample's XML is not
    /// exactly the model that wrote its store (its SOURCE.txt says which optionals differ), so its hashes differ
    /// while its schema does not.
    static let cases: [(model: String, store: String, sameHashes: Bool)] = [
        ("stores/apple-recipes-ios11/Recipes.xcdatamodeld", "stores/apple-recipes-ios11/Recipes.sqlite", false),
        ("stores/contentful-manytomany-ordered/Test.xcdatamodeld", "stores/contentful-manytomany-ordered/Test.sqlite", true),
        ("stores/coredataplus-simple-ios17/SampleModel3.xcdatamodeld", "stores/coredataplus-simple-ios17/SampleModel3_V1.sqlite", true),
        ("stores/coredataplus-inheritance-constraints/SampleModel.xcdatamodeld",
         "stores/coredataplus-inheritance-constraints/SampleModel_V1.sqlite", true),
    ]

    /// Every schema statement in creation order, whitespace collapsed, without Core Data's own history tables.
    private func statements(_ path: String) throws -> [String] {
        try Connection(path: path, mode: .readOnly)
            .query("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY rowid")
            .compactMap { $0[0].stringValue }
            .filter { !$0.contains("ACHANGE") && !$0.contains("ATRANSACTION") && !$0.contains("Z_TRANSACTION") }
            .map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
    }

    /// Entity name → the version hash recorded in the store's metadata, from `coredata schema --format json`.
    private func storedHashes(_ path: String) throws -> [String: String] {
        let result = try CommandRunner.run(["schema", path, "--format", "json"])
        #expect(result.status == 0, "\(result.standardError)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let entities = try #require(report["entities"] as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: entities.compactMap { entity in
            (entity["name"] as? String).flatMap { name in (entity["storeVersionHash"] as? String).map { (name, $0) } }
        })
    }

    @Test(arguments: cases.indices)
    func createdSchemaEqualsApples(index: Int) throws {
        let fixture = Self.cases[index]
        let apple = try Fixtures.copy(fixture.store).path
        let model = try Fixtures.copy(fixture.model).path
        let created = try TemporaryDirectory.make().appendingPathComponent("Created.sqlite").path
        let result = try CommandRunner.run(["create", created, "--model", model])
        #expect(result.status == 0, "\(result.standardError)")

        let ours = try statements(created), theirs = try statements(apple)
        #expect(ours.filter { !theirs.contains($0) } == [], "statements only we write")
        #expect(theirs.filter { !ours.contains($0) } == [], "statements only Apple wrote")
        #expect(ours == theirs, "in Apple's order")
        let keys = "SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY ORDER BY Z_ENT"
        #expect(try Connection(path: created, mode: .readOnly).query(keys) == Connection(path: apple, mode: .readOnly).query(keys))
        #expect(try Connection(path: created, mode: .readOnly).query("SELECT DISTINCT Z_MAX FROM Z_PRIMARYKEY") == [[.integer(0)]])
        let hashes = try storedHashes(created)
        #expect(!hashes.isEmpty)
        let appleHashes = try storedHashes(apple)
        #expect(Set(hashes.keys) == Set(appleHashes.keys))
        if fixture.sameHashes { #expect(hashes == appleHashes, "the metadata's entity version hashes") }
        #expect(try Connection(path: created, mode: .readOnly).integrityCheck() == ["ok"])
    }
}
