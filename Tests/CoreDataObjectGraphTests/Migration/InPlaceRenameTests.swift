import CoreDataModel
import CoreDataObjectGraph
import CoreDataSQLiteFormat
import CoreDataTestSupport
import Foundation
import SQLiteDatabase
import XCTest

/// A renamed attribute whose new name sorts elsewhere among the table's columns, and a new optional attribute that
/// sorts in the middle, are still changed in place (`ALTER TABLE … RENAME/ADD COLUMN`), not by copying the table:
/// columns are always named, so their physical order does not matter (the benchmark's in-place workload, which a
/// table copy made 234× the hand-written SQL).
final class InPlaceRenameTests: XCTestCase {
    private typealias Support = MigrationTestSupport

    func testARenameThatMovesTheColumnAndANewColumnInTheMiddleStayInPlace() throws {
        let v1 = try Support.model("""
            <entity name="Record" representedClassName="NSManagedObject">
                <attribute name="remoteID" attributeType="Integer 64" indexed="YES"/>
                <attribute name="name" attributeType="String"/>
                <attribute name="value" attributeType="Double"/>
                <attribute name="count" attributeType="Integer 32"/>
                <attribute name="created" attributeType="Date"/>
            </entity>
            """)
        let v2 = try Support.model("""
            <entity name="Record" representedClassName="NSManagedObject">
                <attribute name="remoteID" attributeType="Integer 64" indexed="YES"/>
                <attribute name="title" attributeType="String" elementID="name"/>
                <attribute name="tag" optional="YES" attributeType="String"/>
                <attribute name="value" attributeType="Double"/>
                <attribute name="count" attributeType="Integer 32"/>
                <attribute name="created" attributeType="Date"/>
            </entity>
            """)
        let url = try Support.storeURL()
        let date = Date(timeIntervalSinceReferenceDate: 700_000_000)
        try Support.makeStore(at: url, model: v1) { context in
            for index in 0..<50 {
                Support.insert("Record", ["remoteID": Int64(index), "name": "n\(index)", "value": Double(index) / 4, "count": Int32(index * 2),
                                          "created": date.addingTimeInterval(Double(index))], into: context)
            }
        }
        let mapping = try NSMappingModel.inferredMappingModel(forSourceModel: v1, destinationModel: v2)
        let plan = try SQLiteStoreMigrator.plan(storeAt: url.path, sourceModel: v1, destinationModel: v2, mapping: mapping)
        let record = try XCTUnwrap(plan.tables.first { $0.table == "ZRECORD" })
        XCTAssertEqual(record.method, .inPlace, "\(record)")
        XCTAssertTrue(plan.isInPlace)
        XCTAssertEqual(Set(record.notes), ["rename ZNAME → ZTITLE", "add ZTAG"], "\(record.notes)")

        let context = try Support.open(url, model: v2, options: [
            NSMigratePersistentStoresAutomaticallyOption: true, NSInferMappingModelAutomaticallyOption: true, OCDSourceModelsOption: [v1],
        ])
        try context.performAndWait {
            let records = try Support.fetch("Record", in: context, sortedBy: "remoteID")
            XCTAssertEqual(records.count, 50)
            XCTAssertEqual(records.map { $0.propertyValue(forKey: "title") as? String }, (0..<50).map { "n\($0)" })
            XCTAssertEqual(records.map { $0.propertyValue(forKey: "value") as? Double }, (0..<50).map { Double($0) / 4 })
            XCTAssertEqual(records.map { Support.int($0.propertyValue(forKey: "count")) }, (0..<50).map { $0 * 2 })
            XCTAssertTrue(records.allSatisfy { $0.propertyValue(forKey: "tag") == nil })
            // New objects write every column by name into the reordered table.
            Support.insert("Record", ["remoteID": Int64(99), "title": "new", "tag": "t", "value": 1.5, "count": Int32(3), "created": date],
                           into: context)
            try context.save()
        }
        let again = try Support.open(url, model: v2, options: [:])
        try again.performAndWait {
            let new = try XCTUnwrap(try Support.fetch("Record", in: again, sortedBy: "remoteID").last)
            XCTAssertEqual(new.propertyValue(forKey: "title") as? String, "new")
            XCTAssertEqual(new.propertyValue(forKey: "tag") as? String, "t")
            XCTAssertEqual(new.propertyValue(forKey: "value") as? Double, 1.5)
        }
        let check = try SQLiteStoreFile(path: url.path).connection.scalar("PRAGMA integrity_check")?.stringValue
        XCTAssertEqual(check, "ok")
    }
}
