import CoreDataModel
import CoreDataObjectGraph
import CoreDataTestSupport
import Foundation
import XCTest

/// Staged migration on CoreDataPlus's SampleModel3 versions (../shared/fixtures): v1 → v2 adds `Pet`, v2 → v3 drops
/// `User.petName`, so a custom stage moves each pet name into a `Pet` before the attribute goes.
final class StagedMigrationTests: XCTestCase {
    private typealias Support = MigrationTestSupport

    func testCustomStageMovesDataBeforeTheLightweightStepDropsIt() throws {
        try XCTSkipUnless(Fixtures.isAvailable, Fixtures.absenceMessage)
        let versions = try ModelLoader.loadVersions(at: try Fixtures.copy("stores/coredataplus-simple-ios17/SampleModel3.xcdatamodeld"))
        XCTAssertEqual(versions.versions.map(\.name), ["SampleModel3", "SampleModel3_v2", "SampleModel3_v3"])
        let (v1, v2, v3) = (versions.versions[0].model, versions.versions[1].model, versions.versions[2].model)
        let url = try Support.storeURL()
        try Support.makeStore(at: url, model: v1) { context in
            for index in 0..<5 {
                Support.insert("User", ["name": "user \(index)", "petName": index == 3 ? nil : "pet \(index)"].compactMapValues { $0 }, into: context)
            }
        }
        var calls: [String] = []
        let custom = NSCustomMigrationStage(migratingFrom: NSManagedObjectModelReference(model: v2, versionChecksum: v2.versionChecksum),
                                            to: NSManagedObjectModelReference(model: v3, versionChecksum: v3.versionChecksum))
        custom.willMigrateHandler = { manager, _ in
            calls.append("will")
            let context = try XCTUnwrap(manager.container).newBackgroundContext()
            try context.performAndWait {
                for user in try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "User")) {
                    guard let name = user.value(forKey: "petName") as? String else { continue }
                    Support.insert("Pet", ["name": name, "owner": user], into: context)
                }
                try context.save()
            }
        }
        custom.didMigrateHandler = { manager, _ in
            calls.append("did")
            XCTAssertEqual(manager.container?.managedObjectModel.versionChecksum, v3.versionChecksum)
        }
        let manager = NSStagedMigrationManager([NSLightweightMigrationStage([v1.versionChecksum]), custom])
        let context = try Support.open(url, model: v3, options: [
            NSMigratePersistentStoresAutomaticallyOption: true, NSInferMappingModelAutomaticallyOption: true,
            NSPersistentStoreStagedMigrationManagerOptionKey: manager,
        ])
        XCTAssertEqual(calls, ["will", "did"])
        XCTAssertNil(manager.container, "the handlers' container is closed afterwards")
        try context.performAndWait {
            let users = try Support.fetch("User", in: context, sortedBy: "name")
            XCTAssertEqual(users.map { ($0.value(forKey: "pet") as? NSManagedObject)?.value(forKey: "name") as? String },
                           ["pet 0", "pet 1", "pet 2", nil, "pet 4"])
        }
    }

    func testAStoreAtAVersionNoStageNamesIsRefusedUntouched() throws {
        let v1 = try Support.model("<entity name=\"A\"><attribute name=\"x\" optional=\"YES\" attributeType=\"String\"/></entity>")
        let v2 = try Support.model("<entity name=\"A\"><attribute name=\"x\" optional=\"YES\" attributeType=\"String\"/><attribute name=\"y\" optional=\"YES\" attributeType=\"String\"/></entity>")
        let url = try Support.storeURL()
        try Support.makeStore(at: url, model: v1) { Support.insert("A", ["x": "kept"], into: $0) }
        let before = try Support.snapshot(url)
        let manager = NSStagedMigrationManager([NSLightweightMigrationStage([v2.versionChecksum])])
        XCTAssertThrowsError(try Support.open(url, model: v2, options: [
            NSMigratePersistentStoresAutomaticallyOption: true, NSInferMappingModelAutomaticallyOption: true,
            NSPersistentStoreStagedMigrationManagerOptionKey: manager,
        ])) { error in
            XCTAssertEqual((error as? CoreDataError)?.code, .managedObjectModelReferenceNotFound, "\(error)")
        }
        XCTAssertEqual(try Support.snapshot(url), before)
    }
}
