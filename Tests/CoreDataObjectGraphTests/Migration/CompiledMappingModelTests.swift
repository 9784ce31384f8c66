import CoreDataModel
import CoreDataObjectGraph
import CoreDataTestSupport
import Foundation
import Predicates
import PropertyListCoding
import XCTest

/// Compiled mapping models (`.cdm`): keyed archives of `NSMappingModel` laid out as the migration reference §4.7
/// documents (Core Data's `NSEntityMapping`/`NSPropertyMapping` coding keys, expressions archived as `NSExpression`
/// objects, the source expression as an `NSFetchRequestExpression`). No Apple-written `.cdm` is among the fixtures,
/// so the archives here are built to that layout; they read back to the expressions Xcode shows, migrate a store,
/// and one compiled against other entity versions is refused naming the file.
final class CompiledMappingModelTests: XCTestCase {
    private typealias Support = MigrationTestSupport

    private func models() throws -> (NSManagedObjectModel, NSManagedObjectModel) {
        let v1 = try Support.model(MigrationTestSupport.peopleAndCars)
        let v2 = try Support.model("""
            <entity name="Person" representedClassName="NSManagedObject">
                <attribute name="label" attributeType="String"/>
                <relationship name="cars" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Car" inverseName="owner" inverseEntity="Car"/>
            </entity>
            <entity name="Car" representedClassName="NSManagedObject">
                <attribute name="plate" attributeType="String"/>
                <attribute name="ownerName" optional="YES" attributeType="String"/>
                <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person" inverseName="cars" inverseEntity="Person"/>
            </entity>
            """)
        return (v1, v2)
    }

    /// Archives `NSExpression` trees as Foundation's classes encode them.
    private struct Expressions {
        var builder = KeyedArchiveBuilder()

        mutating func expression(_ className: String, type: Int64, _ fields: [String: PropertyListValue]) -> ArchivedObjectReference {
            var all = fields
            all["NSExpressionType"] = .integer(type)
            return builder.addObject(className: className, classHierarchy: [className, "NSExpression", "NSObject"], fields: all)
        }

        mutating func variable(_ name: String) -> ArchivedObjectReference {
            expression("NSVariableExpression", type: 2, ["NSVariable": builder.addString(name).uid])
        }

        mutating func string(_ text: String) -> ArchivedObjectReference {
            expression("NSConstantValueExpression", type: 0, ["NSConstantValue": builder.addString(text).uid])
        }

        mutating func function(_ operand: ArchivedObjectReference, _ selector: String, _ arguments: [ArchivedObjectReference]) -> ArchivedObjectReference {
            expression("NSFunctionExpression", type: 4, ["NSOperand": operand.uid, "NSSelectorName": builder.addString(selector).uid,
                                                         "NSArguments": builder.addArray(arguments).uid])
        }

        /// `$variable.key`, as `valueForKeyPath:` on the variable with a key path specifier.
        mutating func keyPath(_ variable: String, _ key: String) -> ArchivedObjectReference {
            let specifier = expression("NSKeyPathSpecifierExpression", type: 10, ["NSKeyPath": builder.addString(key).uid])
            return function(self.variable(variable), "valueForKeyPath:", [specifier])
        }

        mutating func fetch(_ entity: String) -> ArchivedObjectReference {
            let request = function(variable("manager"), "fetchRequestForSourceEntityNamed:predicateString:", [string(entity), string("TRUEPREDICATE")])
            return expression("NSFetchRequestExpression", type: 50, ["NSFRExpression": request.uid, "NSMOCExpression": keyPath("manager", "sourceContext").uid,
                                                                   "NSCountOnlyFlag": .bool(false)])
        }

        mutating func destinations(_ mapping: String, _ key: String) -> ArchivedObjectReference {
            function(variable("manager"), "destinationInstancesForEntityMappingNamed:sourceInstances:", [string(mapping), keyPath("source", key)])
        }
    }

    /// A `.cdm` of PersonToPerson (label = `$source.name`, cars through CarToCar) and CarToCar (plate, ownerName =
    /// `$source.owner.name`, owner through PersonToPerson), compiled against `source` and `destination`.
    private func compiledFile(source: NSManagedObjectModel, destination: NSManagedObjectModel) throws -> URL {
        var archive = Expressions()
        func property(_ name: String, _ expression: ArchivedObjectReference) -> ArchivedObjectReference {
            archive.builder.addObject(className: "NSPropertyMapping", fields: ["NSDestinationPropertyName": archive.builder.addString(name).uid,
                                                                               "NSValueExpression": expression.uid])
        }
        func entity(_ name: String, _ entity: String, attributes: [ArchivedObjectReference], relationships: [ArchivedObjectReference]) throws
            -> ArchivedObjectReference
        {
            let fields: [String: PropertyListValue] = [
                "NSMappingName": archive.builder.addString(name).uid, "NSMappingType": .integer(5),
                "NSSourceEntityName": archive.builder.addString(entity).uid, "NSDestinationEntityName": archive.builder.addString(entity).uid,
                "NSSourceEntityVersionHash": try archive.builder.addPlainValue(.data(source.entitiesByName[entity]!.versionHash)).uid,
                "NSDestinationEntityVersionHash": try archive.builder.addPlainValue(.data(destination.entitiesByName[entity]!.versionHash)).uid,
                "NSSourceExpression": archive.fetch(entity).uid,
                "NSAttributeMappings": archive.builder.addArray(attributes).uid, "NSRelationshipMappings": archive.builder.addArray(relationships).uid,
            ]
            return archive.builder.addObject(className: "NSEntityMapping", fields: fields)
        }
        let people = try entity("PersonToPerson", "Person", attributes: [property("label", archive.keyPath("source", "name"))],
                                relationships: [property("cars", archive.destinations("CarToCar", "cars"))])
        let ownerName = archive.function(archive.variable("source"), "valueForKeyPath:", [
            archive.expression("NSKeyPathSpecifierExpression", type: 10, ["NSKeyPath": archive.builder.addString("owner.name").uid]),
        ])
        let cars = try entity("CarToCar", "Car", attributes: [property("plate", archive.keyPath("source", "plate")), property("ownerName", ownerName)],
                              relationships: [property("owner", archive.destinations("PersonToPerson", "owner"))])
        let root = archive.builder.addObject(className: "NSMappingModel", fields: ["NSEntityMappings": archive.builder.addArray([people, cars]).uid])
        archive.builder.setTopObject(root)
        let url = try TemporaryDirectory.make(prefix: "cdm").appendingPathComponent("Model1ToModel2.cdm")
        try archive.builder.binaryData().write(to: url)
        return url
    }

    func testACompiledMappingModelReadsAsItsArchiveSaysAndMigratesAStore() throws {
        let (v1, v2) = try models()
        let mapping = try NSMappingModel(contentsOf: try compiledFile(source: v1, destination: v2), sourceModel: v1, destinationModel: v2)
        XCTAssertEqual(mapping.entityMappings.map(\.name), ["PersonToPerson", "CarToCar"])
        let cars = try XCTUnwrap(mapping.entityMappingsByName["CarToCar"])
        XCTAssertEqual(cars.mappingType, .transformEntityMappingType)
        XCTAssertEqual(cars.sourceExpression?.predicateFormat, "FETCH(FUNCTION($manager, \"fetchRequestForSourceEntityNamed:predicateString:\", \"Car\", "
                           + "\"TRUEPREDICATE\"), $manager.sourceContext, NO)")
        XCTAssertEqual(cars.propertyMappingsByName["ownerName"]?.valueExpression?.predicateFormat, "$source.owner.name")
        XCTAssertEqual(cars.propertyMappingsByName["owner"]?.valueExpression?.predicateFormat,
                       "FUNCTION($manager, \"destinationInstancesForEntityMappingNamed:sourceInstances:\", \"PersonToPerson\", $source.owner)")
        XCTAssertEqual(cars.sourceEntityVersionHash, v1.entitiesByName["Car"]?.versionHash)

        let source = try Support.storeURL("Source.sqlite")
        try Support.makeStore(at: source, model: v1) { context in
            for index in 0..<5 {
                let person = Support.insert("Person", ["name": "p\(index)"], into: context)
                for car in 0..<index { Support.insert("Car", ["plate": "c\(index)-\(car)", "owner": person], into: context) }
            }
        }
        let destination = source.deletingLastPathComponent().appendingPathComponent("Destination.sqlite")
        try NSMigrationManager(sourceModel: v1, destinationModel: v2).migrateStore(
            from: source, sourceType: NSSQLiteStoreType, with: mapping, toDestinationURL: destination, destinationType: NSSQLiteStoreType)
        let context = try Support.open(destination, model: v2, options: [:])
        try context.performAndWait {
            let migrated = try Support.fetch("Car", in: context, sortedBy: "plate").map { car in
                "\(car.value(forKey: "plate") as? String ?? "?") \(car.value(forKey: "ownerName") as? String ?? "nil") "
                    + "\((car.value(forKey: "owner") as? NSManagedObject)?.value(forKey: "label") as? String ?? "none")"
            }
            XCTAssertEqual(migrated.count, 10)
            XCTAssertEqual(migrated.first, "c1-0 p1 p1")
            XCTAssertEqual(migrated.last, "c4-3 p4 p4")
        }
    }

    func testACompiledMappingModelForOtherVersionsOrNotAMappingIsRefusedNamingTheFile() throws {
        let (v1, v2) = try models()
        // Compiled against v2 → v2: its Person source hash is not v1's.
        let other = try compiledFile(source: v2, destination: v2)
        XCTAssertThrowsError(try NSMappingModel(contentsOf: other, sourceModel: v1, destinationModel: v2)) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains(other.path) && text.contains("compiled for another version of source entity Person"), text)
        }
        let garbage = other.deletingLastPathComponent().appendingPathComponent("Garbage.cdm")
        try Data("not an archive".utf8).write(to: garbage)
        XCTAssertThrowsError(try NSMappingModel(contentsOf: garbage, sourceModel: v1, destinationModel: v2)) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains(garbage.path) && text.contains("not a compiled mapping model"), text)
        }
        // A keyed archive of something else.
        var builder = KeyedArchiveBuilder()
        builder.setTopObject(builder.addObject(className: "NSManagedObjectModel", fields: [:]))
        let model = other.deletingLastPathComponent().appendingPathComponent("Model.cdm")
        try builder.binaryData().write(to: model)
        XCTAssertThrowsError(try NSMappingModel(contentsOf: model, sourceModel: v1, destinationModel: v2)) { error in
            XCTAssertTrue("\(error)".contains("the archive's root is an NSManagedObjectModel, not an NSMappingModel"), "\(error)")
        }
    }
}
