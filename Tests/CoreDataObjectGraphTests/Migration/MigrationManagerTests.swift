import CoreDataModel
import CoreDataObjectGraph
import CoreDataSQLiteFormat
import CoreDataTestSupport
import Foundation
import SQLiteDatabase
import XCTest

/// `NSMigrationManager` writing to a destination URL, its progress and cancellation, and the in-place
/// (`ALTER TABLE`) path the SQL migration takes when columns are only added at the end or renamed in place.
final class MigrationManagerTests: XCTestCase {
    private typealias Support = MigrationTestSupport

    private let v1 = """
        <entity name="Note">
            <attribute name="title" attributeType="String"/>
            <attribute name="body" optional="YES" attributeType="String"/>
            <attribute name="stars" optional="YES" attributeType="Integer 32"/>
        </entity>
        """
    /// `title` renamed `heading` (same position), an optional binary added (blobs come last), `stars` now required
    /// with a default.
    private let v2 = """
        <entity name="Note">
            <attribute name="heading" attributeType="String" elementID="title"/>
            <attribute name="body" optional="YES" attributeType="String"/>
            <attribute name="stars" attributeType="Integer 32" defaultValueString="1"/>
            <attribute name="thumbnail" optional="YES" attributeType="Binary"/>
        </entity>
        """

    private func makeNotes(_ count: Int) throws -> (URL, NSManagedObjectModel, NSManagedObjectModel) {
        let source = try Support.model(v1), destination = try Support.model(v2)
        let url = try Support.storeURL("Notes.sqlite")
        try Support.makeStore(at: url, model: source) { context in
            for index in 0..<count {
                let note = Support.insert("Note", ["title": "t\(index)", "body": "b\(index)"], into: context)
                if index % 2 == 0 { note.setValue(Int32(index), forKey: "stars") }
            }
        }
        return (url, source, destination)
    }

    func testManagerMigratesIntoANewStoreAndLeavesTheSourceAsItWas() throws {
        let (url, source, destination) = try makeNotes(10)
        let before = try Support.snapshot(url)
        let target = url.deletingLastPathComponent().appendingPathComponent("Notes-v2.sqlite")
        let manager = NSMigrationManager(sourceModel: source, destinationModel: destination)
        XCTAssertEqual(manager.migrationProgress, 0)
        try manager.migrateStore(from: url, sourceType: NSSQLiteStoreType, with: nil, toDestinationURL: target, destinationType: NSSQLiteStoreType)
        XCTAssertEqual(manager.migrationProgress, 1)
        XCTAssertEqual(manager.mappingModel?.entityMappings.map(\.mappingType), [.transformEntityMappingType])
        XCTAssertEqual(try Support.snapshot(url), before, "the source store is never changed")
        let context = try Support.open(target, model: destination, options: [:])
        try context.performAndWait {
            let notes = try Support.fetch("Note", in: context, sortedBy: "body")
            XCTAssertEqual(notes.count, 10)
            for note in notes {
                let index = Int((note.value(forKey: "body") as! String).dropFirst())!
                XCTAssertEqual(note.value(forKey: "heading") as? String, "t\(index)")
                XCTAssertEqual(Support.int(note.value(forKey: "stars")), index % 2 == 0 ? index : 1)
                XCTAssertNil(note.value(forKey: "thumbnail"))
            }
        }
        XCTAssertThrowsError(try manager.migrateStore(from: url, sourceType: NSSQLiteStoreType, with: nil, toDestinationURL: target,
                                                      destinationType: NSSQLiteStoreType)) { error in
            XCTAssertEqual((error as? CoreDataError)?.code, .migrationManagerDestinationStore)
        }
    }

    func testCancellingStopsTheMigrationAndLeavesNoDestination() throws {
        let (url, source, destination) = try makeNotes(3)
        let target = url.deletingLastPathComponent().appendingPathComponent("Notes-v2.sqlite")
        let manager = NSMigrationManager(sourceModel: source, destinationModel: destination)
        manager.cancelMigrationWithError(CoreDataError(.migrationCancelled, "the user cancelled"))
        XCTAssertThrowsError(try manager.migrateStore(from: url, sourceType: NSSQLiteStoreType, with: nil, toDestinationURL: target,
                                                      destinationType: NSSQLiteStoreType)) { error in
            XCTAssertEqual((error as? CoreDataError)?.code, .migrationCancelled, "\(error)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: target.path))
    }

    func testAddedAndRenamedColumnsMigrateInPlaceWithAlterTable() throws {
        let (url, source, destination) = try makeNotes(4)
        let mapping = try NSMappingModel.inferredMappingModel(forSourceModel: source, destinationModel: destination)
        let plan = try SQLiteStoreMigrator.migrate(storeAt: url.path, sourceModel: source, destinationModel: destination, mapping: mapping)
        XCTAssertEqual(plan.tables.map(\.method), [.inPlace])
        XCTAssertTrue(plan.isInPlace)
        XCTAssertEqual(plan.tables.first?.notes, ["rename ZTITLE → ZHEADING", "add ZTHUMBNAIL"])
        XCTAssertTrue(plan.statements.contains("ALTER TABLE ZNOTE RENAME COLUMN ZTITLE TO ZHEADING"))
        XCTAssertFalse(plan.statements.contains { $0.hasPrefix("INSERT INTO ZNOTE") }, "no table copy")
        let connection = try Connection(path: url.path, mode: .readOnly)
        XCTAssertEqual(try connection.query("SELECT ZHEADING, ZSTARS FROM ZNOTE ORDER BY Z_PK").map { "\($0[0].stringValue ?? "") \($0[1].int64Value ?? -1)" },
                       ["t0 0", "t1 1", "t2 2", "t3 1"])
        XCTAssertEqual(try connection.scalar("PRAGMA integrity_check")?.stringValue, "ok")
    }
}
