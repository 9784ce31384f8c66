import CoreDataModel
import CoreDataObjectGraph
import CoreDataSQLiteFormat
import CoreDataTestSupport
import Foundation
import SQLiteDatabase
import XCTest

/// Migrations of Apple-written stores and Apple's multi-version models (../shared/fixtures).
final class FixtureMigrationTests: XCTestCase {
    private typealias Support = MigrationTestSupport
    private let inheritance = "stores/coredataplus-inheritance-constraints"

    override func setUpWithError() throws {
        try XCTSkipUnless(Fixtures.isAvailable, Fixtures.absenceMessage)
    }

    /// Apple migrated SampleModel_V1.sqlite to V2 (an entity renamed through its renaming identifier, two columns
    /// removed, a fetch index added). Ours, from the same V1 store, must hold the same rows and schema, carry V2's
    /// hashes as we compute them, and pass SQLite's integrity check.
    func testAppleStoreMigratesLikeApplesOwnLightweightMigration() throws {
        let versions = try ModelLoader.loadVersions(at: try Fixtures.copy("\(inheritance)/SampleModel.xcdatamodeld"))
        let v1 = try XCTUnwrap(versions.model(named: "SampleModel")), v2 = try XCTUnwrap(versions.model(named: "SampleModel2"))
        let ours = try Fixtures.copy("\(inheritance)/SampleModel_V1.sqlite")
        let apples = try Fixtures.copy("\(inheritance)/SampleModel_V2.sqlite")
        let uuid = try SQLiteStoreFile(path: ours.path).metadata.uuid

        let mapping = try NSMappingModel.inferredMappingModel(forSourceModel: v1, destinationModel: v2)
        XCTAssertEqual(mapping.entityMapping(forDestinationEntity: "LuxuryCar")?.sourceEntityName, "ExpensiveSportCar")
        let plan = try SQLiteStoreMigrator.migrate(storeAt: ours.path, sourceModel: v1, destinationModel: v2, mapping: mapping)
        XCTAssertEqual(plan.tables.map(\.method), [.copied, .copied], "both tables lost a column, so both are rebuilt, as Apple did")

        let migrated = try SQLiteStoreFile(path: ours.path)
        XCTAssertEqual(migrated.metadata.versionHashes, v2.entityVersionHashesByName, "the new hashes are our hashing of V2")
        XCTAssertEqual(migrated.metadata.versionHashes, try SQLiteStoreFile(path: apples.path).metadata.versionHashes,
                       "and they are the ones Apple wrote")
        XCTAssertEqual(migrated.metadata.uuid, uuid, "the store keeps its identity")
        XCTAssertEqual(try migrated.connection.scalar("PRAGMA integrity_check")?.stringValue, "ok")
        XCTAssertEqual(try migrated.cachedModel()?.entitiesByName["LuxuryCar"]?.renamingIdentifier, "ExpensiveSportCar")
        for table in ["ZCAR", "ZPERSON"] {
            XCTAssertEqual(try rows(of: table, in: ours), try rows(of: table, in: apples), "\(table) rows equal Apple's")
            XCTAssertEqual(try ddl(of: table, in: ours), try ddl(of: table, in: apples), "\(table) DDL equals Apple's")
        }
        XCTAssertEqual(migrated.primaryKeys.map(\.maximumPrimaryKey), [125, 0, 0, 20])
        // It opens with V2 through the object graph.
        let context = try Support.open(ours, model: v2, options: [:])
        try context.performAndWait {
            XCTAssertEqual(try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Car")), 125)
            XCTAssertGreaterThan(try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "LuxuryCar")), 0)
        }
    }

    private func rows(of table: String, in url: URL) throws -> [String] {
        let connection = try Connection(path: url.path, mode: .readOnly)
        return try connection.query("SELECT * FROM \(table) ORDER BY Z_PK").map { "\($0)" }
    }

    private func ddl(of table: String, in url: URL) throws -> [String] {
        let connection = try Connection(path: url.path, mode: .readOnly)
        return try connection.query("SELECT sql FROM sqlite_master WHERE tbl_name = ? AND sql IS NOT NULL ORDER BY name", arguments: [.text(table)])
            .map { $0[0].stringValue ?? "" }
    }

    /// Bad input leaves the Apple store byte for byte: a mapping naming an entity the model lacks, and a source
    /// model that is not the store's version.
    func testBadMappingsAndWrongVersionsLeaveTheAppleStoreUntouched() throws {
        let versions = try ModelLoader.loadVersions(at: try Fixtures.copy("\(inheritance)/SampleModel.xcdatamodeld"))
        let v1 = try XCTUnwrap(versions.model(named: "SampleModel")), v2 = try XCTUnwrap(versions.model(named: "SampleModel2"))
        let url = try Fixtures.copy("\(inheritance)/SampleModel_V1.sqlite")
        let before = try Support.snapshot(url)
        let mapping = try NSMappingModel.inferredMappingModel(forSourceModel: v1, destinationModel: v2)
        mapping.entityMappings.append(NSEntityMapping(name: "GhostToCar", mappingType: .transformEntityMappingType,
                                                      sourceEntityName: "Ghost", destinationEntityName: "Car"))
        XCTAssertThrowsError(try SQLiteStoreMigrator.migrate(storeAt: url.path, sourceModel: v1, destinationModel: v2, mapping: mapping)) { error in
            XCTAssertTrue("\(error)".contains("names source entity Ghost"), "\(error)")
        }
        XCTAssertThrowsError(try SQLiteStoreMigrator.migrate(storeAt: url.path, sourceModel: v2, destinationModel: v1,
                                                             mapping: try NSMappingModel.inferredMappingModel(forSourceModel: v2, destinationModel: v1))) { error in
            XCTAssertTrue("\(error)".contains("is not at the source model's version"), "\(error)")
        }
        XCTAssertEqual(try Support.snapshot(url), before)
    }

    /// Every step of objc.io's six Moody versions that Core Data can infer, with data written at version 1 and
    /// checked at version 6. Steps 2→3, 4→5 and 5→6 ship mapping models that fill new relationships and a code;
    /// inference migrates them structurally (those values stay empty), which the assertions spell out.
    func testMoodyDataCrossesEveryVersionStepByInference() throws {
        let versions = try ModelLoader.loadVersions(at: try Fixtures.copy("models/objcio-moody-migrations/Moody.xcdatamodeld"))
        XCTAssertEqual(versions.versions.map(\.name), ["Moody", "Moody 2", "Moody 3", "Moody 4", "Moody 5", "Moody 6"])
        let url = try Support.storeURL("Moody.sqlite")
        let start = Date(timeIntervalSinceReferenceDate: 700_000_000)
        try Support.makeStore(at: url, model: versions.versions[0].model) { context in
            var countries: [NSManagedObject] = []
            let europe = Support.insert("Continent", ["numericISO3166Code": Int16(150), "updatedAt": start], into: context)
            for code in [250, 276, 380] {
                countries.append(Support.insert("Country", ["numericISO3166Code": Int16(code), "updatedAt": start, "continent": europe], into: context))
            }
            for index in 0..<9 {
                Support.insert("Mood", ["date": start.addingTimeInterval(Double(index)), "remoteIdentifier": "m\(index)",
                                        "creatorID": "c\(index % 2)", "latitude": Double(index) / 2, "colors": Data([UInt8(index)]),
                                        "country": countries[index % 3]], into: context)
            }
        }
        for step in 1..<versions.versions.count {
            let (from, to) = (versions.versions[step - 1], versions.versions[step])
            let mapping = try NSMappingModel.inferredMappingModel(forSourceModel: from.model, destinationModel: to.model)
            try SQLiteStoreMigrator.migrate(storeAt: url.path, sourceModel: from.model, destinationModel: to.model, mapping: mapping)
            let file = try SQLiteStoreFile(path: url.path)
            XCTAssertEqual(file.metadata.versionHashes, to.model.entityVersionHashesByName, "\(from.name) → \(to.name)")
            XCTAssertEqual(try file.connection.scalar("PRAGMA integrity_check")?.stringValue, "ok", "\(from.name) → \(to.name)")
        }
        let context = try Support.open(url, model: versions.currentModel, options: [:])
        try context.performAndWait {
            let moods = try Support.fetch("Mood", in: context, sortedBy: "date")
            XCTAssertEqual(moods.map { $0.value(forKey: "remoteID") as? String }, (0..<9).map { "m\($0)" }, "renamed at 1→2")
            XCTAssertEqual(moods.map { Support.int($0.value(forKey: "rating")) }, Array(repeating: 0, count: 9), "added at 1→2 with default 0")
            XCTAssertEqual(moods.map { $0.value(forKey: "creatorID") as? String }, (0..<9).map { "c\($0 % 2)" })
            XCTAssertEqual(moods.map { $0.value(forKey: "latitude") as? Double }, (0..<9).map { Double($0) / 2 })
            XCTAssertEqual(moods.map { $0.value(forKey: "colors") as? Data }, (0..<9).map { Data([UInt8($0)]) })
            XCTAssertEqual(moods.map { ($0.value(forKey: "country") as? NSManagedObject).flatMap { Support.int($0.value(forKey: "numericISO3166Code")) } },
                           (0..<9).map { [250, 276, 380][$0 % 3] }, "countries survive the split of GeographicRegion (3→4)")
            let countries = try Support.fetch("Country", in: context, sortedBy: "numericISO3166Code")
            XCTAssertEqual(countries.map { Support.int($0.value(forKey: "numericISO3166Code")) }, [250, 276, 380])
            XCTAssertTrue(countries.allSatisfy { $0.value(forKey: "continent") == nil },
                          "inference does not recreate continents from isoContinent (objc.io's 5→6 policy does)")
            XCTAssertEqual(try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Continent")), 0,
                           "Continent was removed at 4→5; inference brings back an empty entity at 5→6")
        }
    }
}
