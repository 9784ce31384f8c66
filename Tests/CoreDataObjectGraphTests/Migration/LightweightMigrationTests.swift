import CoreDataModel
import CoreDataObjectGraph
import CoreDataSQLiteFormat
import CoreDataTestSupport
import Foundation
import SQLiteDatabase
import XCTest

/// Lightweight migration on open: what Core Data infers, migrated in SQL, with the data checked afterwards.
final class LightweightMigrationTests: XCTestCase {
    private typealias Support = MigrationTestSupport

    private let peopleV1 = """
        <entity name="Person" representedClassName="Person">
            <attribute name="name" attributeType="String"/>
            <attribute name="age" optional="YES" attributeType="Integer 16"/>
            <attribute name="remoteIdentifier" optional="YES" attributeType="String"/>
            <attribute name="color" optional="YES" attributeType="String"/>
            <relationship name="cars" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Car" inverseName="owner" inverseEntity="Car"/>
        </entity>
        <entity name="Car">
            <attribute name="plate" attributeType="String"/>
            <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person" inverseName="cars" inverseEntity="Person"/>
        </entity>
        """

    private func fillPeople(_ context: NSManagedObjectContext) {
        for index in 0..<6 {
            let person = Support.insert("Person", ["name": "p\(index)", "remoteIdentifier": "r\(index)", "color": "c\(index)"], into: context)
            if index % 2 == 0 { person.setValue(Int16(20 + index), forKey: "age") }
            for car in 0..<index % 3 {
                Support.insert("Car", ["plate": "P\(index)-\(car)", "owner": person], into: context)
            }
        }
    }

    func testAddRemoveRenameAndRequiredWithDefaultMigrateOnOpen() throws {
        let v1 = try Support.model(peopleV1)
        let v2 = try Support.model("""
            <entity name="Person">
                <attribute name="name" attributeType="String"/>
                <attribute name="age" attributeType="Integer 16" defaultValueString="7"/>
                <attribute name="remoteID" optional="YES" attributeType="String" elementID="remoteIdentifier"/>
                <attribute name="rating" attributeType="Integer 16" defaultValueString="3"/>
                <attribute name="nickname" optional="YES" attributeType="String"/>
                <relationship name="cars" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Vehicle" inverseName="owner" inverseEntity="Vehicle"/>
            </entity>
            <entity name="Vehicle" elementID="Car">
                <attribute name="plate" attributeType="String"/>
                <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person" inverseName="cars" inverseEntity="Person"/>
            </entity>
            <entity name="Garage">
                <attribute name="city" optional="YES" attributeType="String"/>
            </entity>
            """)
        let url = try Support.storeURL()
        try Support.makeStore(at: url, model: v1, fill: fillPeople)
        let context = try Support.open(url, model: v2)
        try context.performAndWait {
            let people = try Support.fetch("Person", in: context, sortedBy: "name")
            XCTAssertEqual(people.map { $0.value(forKey: "name") as? String }, (0..<6).map { "p\($0)" })
            XCTAssertEqual(people.map { $0.value(forKey: "remoteID") as? String }, (0..<6).map { "r\($0)" }, "renamed through the renaming identifier")
            XCTAssertEqual(people.map { Support.int($0.value(forKey: "age")) ?? -1 }, [20, 7, 22, 7, 24, 7], "NULLs of a now required attribute take its default")
            XCTAssertEqual(people.map { Support.int($0.value(forKey: "rating")) ?? -1 }, Array(repeating: 3, count: 6), "a new attribute takes its default")
            XCTAssertTrue(people.allSatisfy { $0.value(forKey: "nickname") == nil })
            for person in people {
                let plates = person.mutableSetValue(forKey: "cars").allObjects.compactMap { $0.value(forKey: "plate") as? String }.sorted()
                let index = Int((person.value(forKey: "name") as! String).dropFirst())!
                XCTAssertEqual(plates, (0..<index % 3).map { "P\(index)-\($0)" }, "the renamed entity keeps its rows and relationships")
            }
            XCTAssertEqual(try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Garage")), 0)
            // The migrated store takes new objects of every entity.
            Support.insert("Garage", ["city": "Lyon"], into: context)
            Support.insert("Vehicle", ["plate": "NEW", "owner": people[0]], into: context)
            try context.save()
        }
        let file = try SQLiteStoreFile(path: url.path)
        XCTAssertEqual(file.metadata.versionHashes, v2.entityVersionHashesByName)
        XCTAssertEqual(file.metadata.versionChecksum, v2.versionChecksum)
        XCTAssertEqual(try file.connection.scalar("PRAGMA integrity_check")?.stringValue, "ok")
        XCTAssertEqual(try file.cachedModel()?.entityVersionHashesByName, v2.entityVersionHashesByName, "Z_MODELCACHE holds the new model")
        let primaryKeys = file.primaryKeys.map { "\($0.entityNumber) \($0.name) \($0.maximumPrimaryKey)" }
        XCTAssertEqual(primaryKeys, ["1 Garage 1", "2 Person 6", "3 Vehicle 7"], "Z_PRIMARYKEY follows the new model's numbering")
        // A fresh store of v2 has the same tables and columns.
        let fresh = try Support.storeURL()
        try SQLiteStoreCreator.createStore(at: fresh, model: v2)
        XCTAssertEqual(try columns(of: url), try columns(of: fresh))
    }

    /// Table → column names in declaration order, and every index's SQL.
    private func columns(of url: URL) throws -> [String] {
        let connection = try Connection(path: url.path, mode: .readOnly)
        var lines: [String] = []
        for row in try connection.query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") {
            let name = row[0].stringValue!
            let names = try connection.query("PRAGMA table_info(\(name))").map { $0[1].stringValue! }
            lines.append("\(name): \(names.joined(separator: ","))")
        }
        lines += try connection.query("SELECT sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name").map { $0[0].stringValue! }
        return lines
    }

    func testToOneBecomesToManyAndOrderedManyToManyKeepsEveryLink() throws {
        let v1 = try Support.model(peopleV1)
        let v2 = try Support.model("""
            <entity name="Person">
                <attribute name="name" attributeType="String"/>
                <attribute name="age" optional="YES" attributeType="Integer 16"/>
                <attribute name="remoteIdentifier" optional="YES" attributeType="String"/>
                <attribute name="color" optional="YES" attributeType="String"/>
                <relationship name="cars" optional="YES" toMany="YES" ordered="YES" deletionRule="Nullify" destinationEntity="Car" inverseName="owners" inverseEntity="Car"/>
            </entity>
            <entity name="Car">
                <attribute name="plate" attributeType="String"/>
                <relationship name="owners" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Person" inverseName="cars" inverseEntity="Person" elementID="owner"/>
            </entity>
            """)
        let url = try Support.storeURL()
        try Support.makeStore(at: url, model: v1, fill: fillPeople)
        let context = try Support.open(url, model: v2)
        try context.performAndWait {
            for car in try Support.fetch("Car", in: context, sortedBy: "plate") {
                let plate = car.value(forKey: "plate") as! String
                let owners = car.mutableSetValue(forKey: "owners").allObjects.map { $0.value(forKey: "name") as! String }
                XCTAssertEqual(owners, ["p" + String(plate.dropFirst().prefix { $0 != "-" })])
            }
            for person in try Support.fetch("Person", in: context, sortedBy: "name") {
                let index = Int((person.value(forKey: "name") as! String).dropFirst())!
                let plates = person.mutableOrderedSetValue(forKey: "cars").allObjects.map { $0.value(forKey: "plate") as! String }
                XCTAssertEqual(plates.sorted(), (0..<index % 3).map { "P\(index)-\($0)" })
            }
        }
        // And back: many-to-many to one-to-many (each car keeps one owner).
        let back = try Support.open(url, model: try Support.model(peopleV1.replacingOccurrences(of: "<entity name=\"Car\">", with: "<entity name=\"Car\" versionHashModifier=\"2\">")
            .replacingOccurrences(of: "name=\"owner\" optional", with: "name=\"owner\" elementID=\"owners\" optional")))
        try back.performAndWait {
            let cars = try Support.fetch("Car", in: back, sortedBy: "plate")
            XCTAssertEqual(cars.count, 6)
            for car in cars {
                let plate = car.value(forKey: "plate") as! String
                XCTAssertEqual((car.value(forKey: "owner") as? NSManagedObject)?.value(forKey: "name") as? String,
                               "p" + String(plate.dropFirst().prefix { $0 != "-" }))
            }
        }
    }

    func testAnEntityJoinsAnInheritanceTreeAndKeepsItsRows() throws {
        let v1 = try Support.model(peopleV1)
        let v2 = try Support.model("""
            <entity name="Party" isAbstract="YES">
                <attribute name="name" attributeType="String"/>
            </entity>
            <entity name="Person" parentEntity="Party">
                <attribute name="age" optional="YES" attributeType="Integer 16"/>
                <attribute name="remoteIdentifier" optional="YES" attributeType="String"/>
                <attribute name="color" optional="YES" attributeType="String"/>
                <relationship name="cars" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Car" inverseName="owner" inverseEntity="Car"/>
            </entity>
            <entity name="Company" parentEntity="Party">
                <attribute name="vat" optional="YES" attributeType="String"/>
            </entity>
            <entity name="Car">
                <attribute name="plate" attributeType="String"/>
                <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person" inverseName="cars" inverseEntity="Person"/>
            </entity>
            """)
        let url = try Support.storeURL()
        try Support.makeStore(at: url, model: v1, fill: fillPeople)
        let context = try Support.open(url, model: v2)
        try context.performAndWait {
            let parties = try Support.fetch("Party", in: context, sortedBy: "name")
            XCTAssertEqual(parties.map { $0.entity.entityName }, Array(repeating: "Person", count: 6))
            XCTAssertEqual(parties.map { $0.value(forKey: "color") as? String }, (0..<6).map { "c\($0)" })
            let cars = try Support.fetch("Car", in: context, sortedBy: "plate")
            XCTAssertEqual(cars.map { ($0.value(forKey: "owner") as? NSManagedObject)?.value(forKey: "name") as? String },
                           cars.map { "p" + String(($0.value(forKey: "plate") as! String).dropFirst().prefix { $0 != "-" }) })
            Support.insert("Company", ["name": "Acme", "vat": "FR1"], into: context)
            try context.save()
            XCTAssertEqual(try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Party")), 7)
        }
        let file = try SQLiteStoreFile(path: url.path)
        XCTAssertEqual(try file.connection.scalar("PRAGMA integrity_check")?.stringValue, "ok")
        XCTAssertFalse(try file.connection.tableExists("ZPERSON"), "Person's rows moved into its new root's table")
    }

    func testRequiredAttributeWithoutDefaultIsRefusedWhenRowsExistAndTheStoreIsUntouched() throws {
        let v1 = try Support.model(peopleV1)
        let v2 = try Support.model(peopleV1.replacingOccurrences(of: "<attribute name=\"name\" attributeType=\"String\"/>",
                                                                 with: "<attribute name=\"name\" attributeType=\"String\"/><attribute name=\"code\" attributeType=\"String\"/>"))
        let url = try Support.storeURL()
        try Support.makeStore(at: url, model: v1, fill: fillPeople)
        let before = try Support.snapshot(url)
        XCTAssertThrowsError(try Support.open(url, model: v2)) { error in
            XCTAssertEqual((error as? CoreDataError)?.code, .migration)
            XCTAssertTrue("\(error)".contains("Person.code is required and has no default value"), "\(error)")
            XCTAssertTrue("\(error)".contains("6 existing row(s)"), "\(error)")
        }
        XCTAssertEqual(try Support.snapshot(url), before, "the refused migration left the store byte for byte")
    }

    func testAttributeTypeChangeIsRefusedAsApplesInferenceRefusesIt() throws {
        let v1 = try Support.model(peopleV1)
        let v2 = try Support.model(peopleV1.replacingOccurrences(of: "name=\"age\" optional=\"YES\" attributeType=\"Integer 16\"",
                                                                 with: "name=\"age\" optional=\"YES\" attributeType=\"String\""))
        XCTAssertThrowsError(try NSMappingModel.inferredMappingModel(forSourceModel: v1, destinationModel: v2)) { error in
            let error = error as! MigrationMappingError
            XCTAssertEqual(error.entity, "Person")
            XCTAssertEqual(error.property, "age")
            XCTAssertTrue(error.reason.contains("Integer 16 to String"), error.reason)
        }
        let url = try Support.storeURL()
        try Support.makeStore(at: url, model: v1, fill: fillPeople)
        let before = try Support.snapshot(url)
        XCTAssertThrowsError(try Support.open(url, model: v2)) { error in
            XCTAssertEqual((error as? CoreDataError)?.code, .inferredMappingModel, "\(error)")
        }
        XCTAssertEqual(try Support.snapshot(url), before)
    }

    func testWithoutTheMigrationOptionsTheErrorSaysWhatDiffers() throws {
        let v1 = try Support.model(peopleV1)
        let v2 = try Support.model(peopleV1.replacingOccurrences(of: "<attribute name=\"color\" optional=\"YES\" attributeType=\"String\"/>", with: "")
            + "<entity name=\"Garage\"><attribute name=\"city\" optional=\"YES\" attributeType=\"String\"/></entity>")
        let url = try Support.storeURL()
        try Support.makeStore(at: url, model: v1, fill: fillPeople)
        let before = try Support.snapshot(url)
        XCTAssertThrowsError(try Support.open(url, model: v2, options: [:])) { error in
            XCTAssertEqual((error as? CoreDataError)?.code, .persistentStoreIncompatibleVersionHash)
            XCTAssertTrue("\(error)".contains("Garage added to the model"), "\(error)")
            XCTAssertTrue("\(error)".contains("Person changed (-color)"), "\(error)")
        }
        XCTAssertEqual(try Support.snapshot(url), before)
        let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)
        XCTAssertTrue(v1.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata))
        XCTAssertFalse(v2.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata))
    }

    func testAStoreRecordingPersistentHistoryIsRefusedUntouched() throws {
        let v1 = try Support.model(peopleV1)
        let v2 = try Support.model(peopleV1 + "<entity name=\"Garage\"><attribute name=\"city\" optional=\"YES\" attributeType=\"String\"/></entity>")
        let url = try Support.storeURL()
        try Support.makeStore(at: url, model: v1, fill: fillPeople)
        // The shape of Apple's history table is enough: its presence is what the migration must respect.
        let connection = try Connection(path: url.path, mode: .readWrite)
        try connection.execute(sql: "CREATE TABLE ACHANGE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZENTITY INTEGER)")
        _ = try connection.setJournalMode(.delete)
        let before = try Support.snapshot(url)
        XCTAssertThrowsError(try SQLiteStoreMigrator.migrate(storeAt: url.path, sourceModel: v1, destinationModel: v2,
                                                             mapping: NSMappingModel.inferredMappingModel(forSourceModel: v1, destinationModel: v2))) { error in
            XCTAssertTrue("\(error)".contains("records persistent history"), "\(error)")
        }
        XCTAssertEqual(try Support.snapshot(url), before)
    }

    func testDescriptionsMigrateAndInferByDefault() {
        let description = NSPersistentStoreDescription(url: URL(fileURLWithPath: "/tmp/x.sqlite"))
        XCTAssertTrue(description.shouldMigrateStoreAutomatically)
        XCTAssertTrue(description.shouldInferMappingModelAutomatically)
        description.shouldInferMappingModelAutomatically = false
        XCTAssertEqual(description.options[NSInferMappingModelAutomaticallyOption] as? Bool, false)
    }
}
