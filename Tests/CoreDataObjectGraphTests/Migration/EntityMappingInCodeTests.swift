import CoreDataModel
import CoreDataObjectGraph
import CoreDataTestSupport
import Foundation
import Predicates
import class Predicates.NSExpression
import Testing

/// A mapping model built in code the way Apple's documentation builds one: `NSEntityMapping()` and
/// `NSPropertyMapping()` filled in property by property, between two models built in code too, driving a real
/// migration of an SQLite store whose migrated rows are then read back.
struct EntityMappingInCodeTests {
    private typealias Support = MigrationTestSupport

    private func attribute(_ name: String, optional: Bool = false) -> NSAttributeDescription {
        let attribute = NSAttributeDescription()
        attribute.name = name
        attribute.attributeType = .stringAttributeType
        attribute.isOptional = optional
        return attribute
    }

    /// `owners`/`cars` between `ownerEntity` and `Car`, with inverses.
    private func link(_ ownerEntity: NSEntityDescription, _ car: NSEntityDescription) -> (NSRelationshipDescription, NSRelationshipDescription) {
        let cars = NSRelationshipDescription()
        cars.name = "cars"
        cars.destinationEntity = car
        cars.maxCount = 0
        cars.isOptional = true
        cars.deleteRule = .nullifyDeleteRule
        let owner = NSRelationshipDescription()
        owner.name = "owner"
        owner.destinationEntity = ownerEntity
        owner.maxCount = 1
        owner.isOptional = true
        owner.deleteRule = .nullifyDeleteRule
        cars.inverseRelationship = owner
        owner.inverseRelationship = cars
        return (cars, owner)
    }

    /// Version 1: `Person(name)` owns `Car(plate)`. Version 2: `Person` is now `Owner(fullName)`, and a car keeps
    /// its owner's name in `ownerName`.
    private func models() -> (NSManagedObjectModel, NSManagedObjectModel) {
        let person = NSEntityDescription()
        person.name = "Person"
        let car1 = NSEntityDescription()
        car1.name = "Car"
        let (cars1, owner1) = link(person, car1)
        person.properties = [attribute("name"), cars1]
        car1.properties = [attribute("plate"), owner1]
        let v1 = NSManagedObjectModel()
        v1.entities = [person, car1]

        let owner = NSEntityDescription()
        owner.name = "Owner"
        let car2 = NSEntityDescription()
        car2.name = "Car"
        let (cars2, owner2) = link(owner, car2)
        owner.properties = [attribute("fullName"), cars2]
        car2.properties = [attribute("plate"), attribute("ownerName", optional: true), owner2]
        let v2 = NSManagedObjectModel()
        v2.entities = [owner, car2]
        return (v1, v2)
    }

    private func makeSource(_ v1: NSManagedObjectModel) throws -> URL {
        let url = try Support.storeURL("Source.sqlite")
        try Support.makeStore(at: url, model: v1) { context in
            for (name, plates) in [("Ada", ["A-1", "A-2"]), ("Brendan", ["B-1"]), ("Cleo", [])] {
                let person = Support.insert("Person", ["name": name], into: context)
                for plate in plates { Support.insert("Car", ["plate": plate, "owner": person], into: context) }
            }
            Support.insert("Car", ["plate": "Z-0"], into: context)
        }
        return url
    }

    private func property(_ name: String, _ format: String?) -> NSPropertyMapping {
        let mapping = NSPropertyMapping()
        mapping.name = name
        mapping.valueExpression = format.map { NSExpression(format: $0) }
        return mapping
    }

    private func fetchExpression(_ entity: String) -> NSExpression {
        NSExpression(format: "FETCH(FUNCTION($manager, \"fetchRequestForSourceEntityNamed:predicateString:\" , \"\(entity)\", \"TRUEPREDICATE\"), $manager.sourceContext, NO)")
    }

    /// PersonToOwner and CarToCar as Apple's documentation fills them in; `ownerName` is a key path through the
    /// source's owner when `keyPaths`, else left to its default (a mapping of plain `$source.<key>` copies).
    private func mappingModel(_ v1: NSManagedObjectModel, _ v2: NSManagedObjectModel, type: NSEntityMappingType, keyPaths: Bool) -> NSMappingModel {
        let people = NSEntityMapping()
        people.name = "PersonToOwner"
        people.mappingType = type
        people.sourceEntityName = "Person"
        people.sourceEntityVersionHash = v1.entitiesByName["Person"]?.versionHash
        people.destinationEntityName = "Owner"
        people.destinationEntityVersionHash = v2.entitiesByName["Owner"]?.versionHash
        people.sourceExpression = fetchExpression("Person")
        people.attributeMappings = [property("fullName", "$source.name")]
        people.relationshipMappings = [property("cars", keyPaths
            ? "FUNCTION($manager, \"destinationInstancesForEntityMappingNamed:sourceInstances:\", \"CarToCar\", $source.cars)"
            : "$source.cars")]
        people.userInfo = ["note": "renamed in version 2"]

        let cars = NSEntityMapping()
        cars.name = "CarToCar"
        cars.mappingType = type
        cars.sourceEntityName = "Car"
        cars.destinationEntityName = "Car"
        cars.sourceExpression = fetchExpression("Car")
        cars.attributeMappings = [property("plate", "$source.plate"), property("ownerName", keyPaths ? "$source.owner.name" : nil)]
        cars.relationshipMappings = [property("owner", keyPaths
            ? "FUNCTION($manager, \"destinationInstancesForEntityMappingNamed:sourceInstances:\", \"PersonToOwner\", $source.owner)"
            : "$source.owner")]

        let mapping = NSMappingModel()
        mapping.entityMappings = [people, cars]
        return mapping
    }

    /// The migrated store's cars as "plate ownerName owner.fullName", sorted by plate.
    private func migratedCars(_ url: URL, _ v2: NSManagedObjectModel) throws -> [String] {
        let context = try Support.open(url, model: v2, options: [:])
        return try context.performAndWait {
            try Support.fetch("Car", in: context, sortedBy: "plate").map { car in
                let owner = car.value(forKey: "owner") as? NSManagedObject
                return "\(car.value(forKey: "plate") as? String ?? "?") \(car.value(forKey: "ownerName") as? String ?? "-") "
                    + "\(owner?.value(forKey: "fullName") as? String ?? "none")"
            }
        }
    }

    private func owners(_ url: URL, _ v2: NSManagedObjectModel) throws -> [String] {
        let context = try Support.open(url, model: v2, options: [:])
        return try context.performAndWait {
            try Support.fetch("Owner", in: context, sortedBy: "fullName").map { owner in
                "\(owner.value(forKey: "fullName") as? String ?? "?") \((owner.value(forKey: "cars") as? Set<NSManagedObject>)?.count ?? -1)"
            }
        }
    }

    @Test func aMappingOfPlainCopiesBuiltInCodeRenamesAnEntityInAnSQLiteStore() throws {
        let (v1, v2) = models()
        let source = try makeSource(v1)
        let destination = source.deletingLastPathComponent().appendingPathComponent("Destination.sqlite")
        let manager = NSMigrationManager(sourceModel: v1, destinationModel: v2)
        try manager.migrateStore(from: source, sourceType: NSSQLiteStoreType, options: nil,
                                 with: mappingModel(v1, v2, type: .transformEntityMappingType, keyPaths: false),
                                 toDestinationURL: destination, destinationType: NSSQLiteStoreType, destinationOptions: nil)
        #expect(manager.migrationProgress == 1)
        #expect(try migratedCars(destination, v2) == ["A-1 - Ada", "A-2 - Ada", "B-1 - Brendan", "Z-0 - none"])
        #expect(try owners(destination, v2) == ["Ada 2", "Brendan 1", "Cleo 0"])
    }

    /// A custom mapping that names no policy runs Apple's default policy object by object; it is not sent to the SQL
    /// migration, which cannot run custom mappings.
    @Test func customMappingsWithoutAPolicyRunTheDefaultPolicy() throws {
        let (v1, v2) = models()
        let source = try makeSource(v1)
        let destination = source.deletingLastPathComponent().appendingPathComponent("Destination.sqlite")
        let mapping = mappingModel(v1, v2, type: .customEntityMappingType, keyPaths: false)
        try NSMigrationManager(sourceModel: v1, destinationModel: v2).migrateStore(
            from: source, sourceType: NSSQLiteStoreType, with: mapping, toDestinationURL: destination, destinationType: NSSQLiteStoreType)
        #expect(try migratedCars(destination, v2) == ["A-1 - Ada", "A-2 - Ada", "B-1 - Brendan", "Z-0 - none"])
        #expect(try owners(destination, v2) == ["Ada 2", "Brendan 1", "Cleo 0"])
    }

    @Test func keyPathsAndDestinationInstancesRunObjectByObject() throws {
        let (v1, v2) = models()
        let source = try makeSource(v1)
        let destination = source.deletingLastPathComponent().appendingPathComponent("Destination.sqlite")
        try NSMigrationManager(sourceModel: v1, destinationModel: v2).migrateStore(
            from: source, sourceType: NSSQLiteStoreType, with: mappingModel(v1, v2, type: .transformEntityMappingType, keyPaths: true),
            toDestinationURL: destination, destinationType: NSSQLiteStoreType)
        #expect(try migratedCars(destination, v2) == ["A-1 Ada Ada", "A-2 Ada Ada", "B-1 Brendan Brendan", "Z-0 - none"])
        #expect(try owners(destination, v2) == ["Ada 2", "Brendan 1", "Cleo 0"])
    }

    /// Mappings left unnamed share the name "": the object-by-object migration, which finds instances by mapping
    /// name, refuses them naming the problem, and leaves no destination behind.
    @Test func twoMappingsOfOneNameAreRefused() throws {
        let (v1, v2) = models()
        let source = try makeSource(v1)
        let destination = source.deletingLastPathComponent().appendingPathComponent("Destination.sqlite")
        let mapping = mappingModel(v1, v2, type: .transformEntityMappingType, keyPaths: true)
        for entityMapping in mapping.entityMappings { entityMapping.name = "" }
        #expect(mapping.entityMappings.allSatisfy { $0.name.isEmpty })
        let error = #expect(throws: CoreDataError.self) {
            try NSMigrationManager(sourceModel: v1, destinationModel: v2).migrateStore(
                from: source, sourceType: NSSQLiteStoreType, with: mapping, toDestinationURL: destination, destinationType: NSSQLiteStoreType)
        }
        #expect(String(describing: error).contains("two entity mappings named \"\""), "\(String(describing: error))")
        #expect(!FileManager.default.fileExists(atPath: destination.path))
    }

    @Test func aNewEntityMappingIsEmptyAndUndefined() {
        let mapping = NSEntityMapping()
        #expect(mapping.name == "")
        #expect(mapping.mappingType == .undefinedEntityMappingType)
        #expect(mapping.sourceEntityName == nil && mapping.destinationEntityName == nil)
        #expect(mapping.attributeMappings == nil && mapping.relationshipMappings == nil)
        #expect(mapping.sourceExpression == nil && mapping.entityMigrationPolicyClassName == nil && mapping.userInfo == nil)
        let property = NSPropertyMapping()
        #expect(property.name == nil && property.valueExpression == nil && property.userInfo == nil)
    }
}
