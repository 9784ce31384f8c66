import CoreDataModel
import CoreDataObjectGraph
import CoreDataTestSupport
import Foundation
import Predicates
import class Predicates.NSExpression
import XCTest

/// Mapping models that SQL cannot run (key-path value expressions, `FUNCTION($manager, …)` relationships, entity
/// migration policies) migrate object by object in Apple's three phases, the way Apple's guide and objc.io's Moody
/// migrations use them.
final class ObjectMigrationTests: XCTestCase {
    private typealias Support = MigrationTestSupport

    /// Version 1: countries belong to continents. Version 2: continents are gone, each country keeps its continent's
    /// code (Moody 4 → 5), and each country's cities follow it.
    private func models() throws -> (NSManagedObjectModel, NSManagedObjectModel) {
        let v1 = try Support.model("""
            <entity name="Continent" representedClassName="NSManagedObject">
                <attribute name="code" attributeType="Integer 16" usesScalarValueType="YES"/>
                <attribute name="name" attributeType="String"/>
                <relationship name="countries" toMany="YES" deletionRule="Nullify" destinationEntity="Country" inverseName="continent" inverseEntity="Country"/>
            </entity>
            <entity name="Country" representedClassName="NSManagedObject">
                <attribute name="name" attributeType="String"/>
                <relationship name="continent" maxCount="1" deletionRule="Nullify" destinationEntity="Continent" inverseName="countries" inverseEntity="Continent"/>
                <relationship name="cities" toMany="YES" deletionRule="Nullify" destinationEntity="City" inverseName="country" inverseEntity="City"/>
            </entity>
            <entity name="City" representedClassName="NSManagedObject">
                <attribute name="name" attributeType="String"/>
                <relationship name="country" maxCount="1" deletionRule="Nullify" destinationEntity="Country" inverseName="cities" inverseEntity="Country"/>
            </entity>
            """)
        let v2 = try Support.model("""
            <entity name="Country" representedClassName="NSManagedObject">
                <attribute name="name" attributeType="String"/>
                <attribute name="isoContinent" optional="YES" attributeType="Integer 16" usesScalarValueType="YES"/>
                <attribute name="label" optional="YES" attributeType="String"/>
                <relationship name="cities" toMany="YES" deletionRule="Nullify" destinationEntity="City" inverseName="country" inverseEntity="City"/>
            </entity>
            <entity name="City" representedClassName="NSManagedObject">
                <attribute name="name" attributeType="String"/>
                <relationship name="country" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Country" inverseName="cities" inverseEntity="Country"/>
            </entity>
            """)
        return (v1, v2)
    }

    private func makeSource(_ v1: NSManagedObjectModel) throws -> URL {
        let url = try Support.storeURL("Source.sqlite")
        try Support.makeStore(at: url, model: v1) { context in
            let europe = Support.insert("Continent", ["name": "Europe", "code": Int16(150)], into: context)
            let asia = Support.insert("Continent", ["name": "Asia", "code": Int16(142)], into: context)
            for (name, continent, cities) in [("France", europe, ["Paris", "Lyon"]), ("Japan", asia, ["Kyoto"]), ("Italy", europe, [])] {
                let country = Support.insert("Country", ["name": name, "continent": continent], into: context)
                for city in cities { Support.insert("City", ["name": city, "country": country], into: context) }
            }
        }
        return url
    }

    /// Apple's generated entity mapping: a `FETCH` source expression, attribute key paths, and relationships through
    /// `destinationInstancesForEntityMappingNamed:sourceInstances:`.
    private func mapping(countryPolicy: String? = nil) -> NSMappingModel {
        func fetch(_ entity: String) -> NSExpression {
            NSExpression(format: "FETCH(FUNCTION($manager, \"fetchRequestForSourceEntityNamed:predicateString:\", \"\(entity)\", \"TRUEPREDICATE\"), $manager.sourceContext, NO)")
        }
        let countries = NSEntityMapping(name: "CountryToCountry", mappingType: .customEntityMappingType, sourceEntityName: "Country", destinationEntityName: "Country")
        countries.sourceExpression = fetch("Country")
        countries.entityMigrationPolicyClassName = countryPolicy
        countries.attributeMappings = [
            NSPropertyMapping(name: "name", valueExpression: NSExpression(format: "$source.name")),
            NSPropertyMapping(name: "isoContinent", valueExpression: NSExpression(format: "$source.continent.code")),
        ]
        countries.relationshipMappings = [
            NSPropertyMapping(name: "cities", valueExpression:
                NSExpression(format: "FUNCTION($manager, \"destinationInstancesForEntityMappingNamed:sourceInstances:\", \"CityToCity\", $source.cities)")),
        ]
        let cities = NSEntityMapping(name: "CityToCity", mappingType: .copyEntityMappingType, sourceEntityName: "City", destinationEntityName: "City")
        cities.sourceExpression = fetch("City")
        cities.attributeMappings = [NSPropertyMapping(name: "name", valueExpression: NSExpression(format: "FUNCTION($source, \"valueForKeyPath:\", \"name\")"))]
        cities.relationshipMappings = [NSPropertyMapping(name: "country", valueExpression: NSExpression(format: "$source.country"))]
        return NSMappingModel(entityMappings: [countries, cities])
    }

    private func countries(at url: URL, model: NSManagedObjectModel) throws -> [String] {
        let context = try Support.open(url, model: model, options: [:])
        return try context.performAndWait {
            try Support.fetch("Country", in: context, sortedBy: "name").map { country in
                let cities = (country.value(forKey: "cities") as? Set<NSManagedObject> ?? [])
                    .map { ($0.value(forKey: "name") as? String) ?? "?" }.sorted()
                let code = Support.int(country.value(forKey: "isoContinent")).map(String.init) ?? "nil"
                let label = country.value(forKey: "label") as? String ?? "-"
                return "\(country.value(forKey: "name") as? String ?? "?") \(code) \(label) [\(cities.joined(separator: ","))]"
            }
        }
    }

    func testKeyPathExpressionsAndManagerFunctionsMigrateObjectByObject() throws {
        let (v1, v2) = try models()
        let source = try makeSource(v1)
        let before = try Support.snapshot(source)
        let destination = source.deletingLastPathComponent().appendingPathComponent("Destination.sqlite")
        let manager = NSMigrationManager(sourceModel: v1, destinationModel: v2)
        try manager.migrateStore(from: source, sourceType: NSSQLiteStoreType, with: mapping(), toDestinationURL: destination,
                                 destinationType: NSSQLiteStoreType)
        XCTAssertEqual(try countries(at: destination, model: v2), ["France 150 - [Lyon,Paris]", "Italy 150 - []", "Japan 142 - [Kyoto]"])
        XCTAssertEqual(manager.migrationProgress, 1)
        XCTAssertNil(manager.sourceContext, "the contexts belong to the running migration only")
        XCTAssertEqual(try Support.snapshot(source), before, "the source store is never changed")
        let context = try Support.open(destination, model: v2, options: [:])
        try context.performAndWait {
            let cities = try Support.fetch("City", in: context, sortedBy: "name")
            XCTAssertEqual(cities.map { ($0.value(forKey: "country") as? NSManagedObject)?.value(forKey: "name") as? String },
                           ["Japan", "France", "France"], "the inverse side (Kyoto, Lyon, Paris) is set too")
        }
    }

    func testAnEntityMigrationPolicyRunsItsHooksInApplesThreePhases() throws {
        let (v1, v2) = try models()
        let source = try makeSource(v1)
        let destination = source.deletingLastPathComponent().appendingPathComponent("Destination.sqlite")
        RecordingCountryPolicy.calls = []
        NSEntityMigrationPolicy.register(RecordingCountryPolicy.self, forClassName: "Tests.RecordingCountryPolicy")
        let mapping = mapping(countryPolicy: "Tests.RecordingCountryPolicy")
        mapping.entityMappings[0].attributeMappings?.append(
            NSPropertyMapping(name: "label", valueExpression: NSExpression(format: "FUNCTION($entityPolicy, \"shout:\", $source.name)")))
        try NSMigrationManager(sourceModel: v1, destinationModel: v2).migrateStore(
            from: source, sourceType: NSSQLiteStoreType, with: mapping, toDestinationURL: destination, destinationType: NSSQLiteStoreType)
        XCTAssertEqual(try countries(at: destination, model: v2),
                       ["France 150 FRANCE! [Lyon,Paris]", "Italy 150 ITALY! []", "Japan 142 JAPAN! [Kyoto]"])
        XCTAssertEqual(RecordingCountryPolicy.calls, [
            "begin", "create France", "create Japan", "create Italy", "endInstanceCreation",
            "relate France", "relate Japan", "relate Italy", "endRelationshipCreation", "validate", "end",
        ], "every instance is created before any relationship, and validation comes last")
    }

    /// Xcode writes the policy as a module-qualified Swift class name (`Migrations.Country5ToCountry6Policy` in
    /// Moody); such a class is found without registering it.
    func testAPolicyNamedByItsModuleQualifiedClassNameIsFound() throws {
        let (v1, v2) = try models()
        let source = try makeSource(v1)
        let destination = source.deletingLastPathComponent().appendingPathComponent("Destination.sqlite")
        let mapping = mapping(countryPolicy: "CoreDataObjectGraphTests.LabellingPolicy")
        try NSMigrationManager(sourceModel: v1, destinationModel: v2).migrateStore(
            from: source, sourceType: NSSQLiteStoreType, with: mapping, toDestinationURL: destination, destinationType: NSSQLiteStoreType)
        XCTAssertEqual(try countries(at: destination, model: v2),
                       ["France 150 found [Lyon,Paris]", "Italy 150 found []", "Japan 142 found [Kyoto]"])
    }

    func testAnUnknownPolicyClassIsAClearErrorAndLeavesNothingBehind() throws {
        let (v1, v2) = try models()
        let source = try makeSource(v1)
        let before = try Support.snapshot(source)
        let destination = source.deletingLastPathComponent().appendingPathComponent("Destination.sqlite")
        XCTAssertThrowsError(try NSMigrationManager(sourceModel: v1, destinationModel: v2).migrateStore(
            from: source, sourceType: NSSQLiteStoreType, with: mapping(countryPolicy: "Migrations.NoSuchPolicy"),
            toDestinationURL: destination, destinationType: NSSQLiteStoreType)) { error in
            XCTAssertTrue("\(error)".contains("Migrations.NoSuchPolicy"), "\(error)")
            XCTAssertTrue("\(error)".contains("CountryToCountry"), "\(error)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: destination.path))
        XCTAssertEqual(try Support.snapshot(source), before)
    }

    func testAValueOfTheWrongTypeIsAnErrorNamingTheMappingNotATrap() throws {
        let (v1, v2) = try models()
        let source = try makeSource(v1)
        let destination = source.deletingLastPathComponent().appendingPathComponent("Destination.sqlite")
        let mapping = mapping()
        mapping.entityMappings[0].attributeMappings?[1] = NSPropertyMapping(name: "isoContinent", valueExpression: NSExpression(format: "$source.name"))
        XCTAssertThrowsError(try NSMigrationManager(sourceModel: v1, destinationModel: v2).migrateStore(
            from: source, sourceType: NSSQLiteStoreType, with: mapping, toDestinationURL: destination, destinationType: NSSQLiteStoreType)) { error in
            XCTAssertTrue("\(error)".contains("CountryToCountry.isoContinent"), "\(error)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: destination.path))
    }

    func testCancellingFromAPolicyStopsTheMigrationWithNothingWritten() throws {
        let (v1, v2) = try models()
        let source = try makeSource(v1)
        let destination = source.deletingLastPathComponent().appendingPathComponent("Destination.sqlite")
        NSEntityMigrationPolicy.register(CancellingPolicy.self, forClassName: "Tests.CancellingPolicy")
        XCTAssertThrowsError(try NSMigrationManager(sourceModel: v1, destinationModel: v2).migrateStore(
            from: source, sourceType: NSSQLiteStoreType, with: mapping(countryPolicy: "Tests.CancellingPolicy"),
            toDestinationURL: destination, destinationType: NSSQLiteStoreType)) { error in
            XCTAssertEqual((error as? CoreDataError)?.code, .migrationCancelled, "\(error)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: destination.path))
    }
}

/// Records the order of Apple's hooks, and offers `shout:` to value expressions.
final class RecordingCountryPolicy: NSEntityMigrationPolicy {
    nonisolated(unsafe) static var calls: [String] = []

    override func begin(_ mapping: NSEntityMapping, with manager: NSMigrationManager) throws { Self.calls.append("begin") }
    override func createDestinationInstances(forSource sInstance: NSManagedObject, in mapping: NSEntityMapping, manager: NSMigrationManager) throws {
        Self.calls.append("create \(sInstance.value(forKey: "name") as? String ?? "?")")
        try super.createDestinationInstances(forSource: sInstance, in: mapping, manager: manager)
    }
    override func endInstanceCreation(forMapping mapping: NSEntityMapping, manager: NSMigrationManager) throws { Self.calls.append("endInstanceCreation") }
    override func createRelationships(forDestination dInstance: NSManagedObject, in mapping: NSEntityMapping, manager: NSMigrationManager) throws {
        Self.calls.append("relate \(dInstance.value(forKey: "name") as? String ?? "?")")
        try super.createRelationships(forDestination: dInstance, in: mapping, manager: manager)
    }
    override func endRelationshipCreation(forMapping mapping: NSEntityMapping, manager: NSMigrationManager) throws { Self.calls.append("endRelationshipCreation") }
    override func performCustomValidation(forMapping mapping: NSEntityMapping, manager: NSMigrationManager) throws { Self.calls.append("validate") }
    override func end(_ mapping: NSEntityMapping, manager: NSMigrationManager) throws { Self.calls.append("end") }
    override func evaluateFunction(_ selector: String, arguments: [Any?]) throws -> Any? {
        guard selector == "shout:", let text = arguments.first as? String else { return try super.evaluateFunction(selector, arguments: arguments) }
        return text.uppercased() + "!"
    }
}

/// Cancels the migration from its first hook, as an app's progress UI would.
final class CancellingPolicy: NSEntityMigrationPolicy {
    override func createDestinationInstances(forSource sInstance: NSManagedObject, in mapping: NSEntityMapping, manager: NSMigrationManager) throws {
        manager.cancelMigrationWithError(CocoaError(.userCancelled))
        try super.createDestinationInstances(forSource: sInstance, in: mapping, manager: manager)
    }
}

/// Found through `NSClassFromString` by its module-qualified name; labels each country it creates.
final class LabellingPolicy: NSEntityMigrationPolicy {
    override func createDestinationInstances(forSource sInstance: NSManagedObject, in mapping: NSEntityMapping, manager: NSMigrationManager) throws {
        try super.createDestinationInstances(forSource: sInstance, in: mapping, manager: manager)
        let created = manager.destinationInstances(forEntityMappingName: mapping.name, sourceInstances: [sInstance])
        XCTAssertEqual(created.count, 1)
        created.first?.setValue("found", forKey: "label")
    }
}
