import CoreDataModel
import CoreDataObjectGraph
import CoreDataTestSupport
import Foundation
import Predicates
import class Predicates.NSExpression
import Testing

/// A mapping model's expressions are `NSExpression`s, as Apple's: `valueExpression = NSExpression(format: "$source.name")`,
/// a source expression `FETCH(…)` that runs, `$manager` answering key paths and `FUNCTION` calls (through the
/// overrides of a subclassed `NSMigrationManager`), and `FETCH` evaluated against a context.
struct MappingExpressionTests {
    private typealias Support = MigrationTestSupport

    /// Version 1: `Person(name)` owns `Car(plate)`. Version 2: `Person` gains `label` and `carCount`.
    private func models() throws -> (NSManagedObjectModel, NSManagedObjectModel) {
        let cars = """
            <entity name="Car" representedClassName="NSManagedObject">
                <attribute name="plate" attributeType="String"/>
                <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person" inverseName="cars" inverseEntity="Person"/>
            </entity>
            """
        let relationship = """
            <relationship name="cars" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Car" inverseName="owner" inverseEntity="Car"/>
            """
        let v1 = try Support.model("""
            <entity name="Person" representedClassName="NSManagedObject">
                <attribute name="name" attributeType="String"/>
                \(relationship)
            </entity>
            \(cars)
            """)
        let v2 = try Support.model("""
            <entity name="Person" representedClassName="NSManagedObject">
                <attribute name="name" attributeType="String"/>
                <attribute name="label" optional="YES" attributeType="String"/>
                <attribute name="carCount" optional="YES" attributeType="Integer 64" usesScalarValueType="NO"/>
                \(relationship)
            </entity>
            \(cars)
            """)
        return (v1, v2)
    }

    private func makeSource(_ v1: NSManagedObjectModel) throws -> URL {
        let url = try Support.storeURL("Source.sqlite")
        try Support.makeStore(at: url, model: v1) { context in
            let ada = Support.insert("Person", ["name": "Ada"], into: context)
            Support.insert("Person", ["name": "Brendan"], into: context)
            for plate in ["A-1", "A-2"] { Support.insert("Car", ["plate": plate, "owner": ada], into: context) }
            Support.insert("Car", ["plate": "Z-0"], into: context)
        }
        return url
    }

    private func property(_ name: String, _ expression: NSExpression) -> NSPropertyMapping {
        let mapping = NSPropertyMapping()
        mapping.name = name
        mapping.valueExpression = expression
        return mapping
    }

    private func fetch(_ entity: String, countOnly: Bool = false) -> NSExpression {
        NSExpression(format: "FETCH(FUNCTION($manager, \"fetchRequestForSourceEntityNamed:predicateString:\" , \"\(entity)\", \"TRUEPREDICATE\"), "
                         + "$manager.sourceContext, \(countOnly ? "YES" : "NO"))")
    }

    /// PersonToPerson (custom: object by object) with a label, the number of source cars (a count-only `FETCH` in a
    /// value expression) and the cars through `$manager`; CarToCar copying plates.
    private func mappingModel() -> NSMappingModel {
        let people = NSEntityMapping()
        people.name = "PersonToPerson"
        people.mappingType = .customEntityMappingType
        people.sourceEntityName = "Person"
        people.destinationEntityName = "Person"
        people.sourceExpression = fetch("Person")
        people.attributeMappings = [
            property("name", NSExpression(format: "$source.name")),
            property("label", NSExpression(format: "FUNCTION($source, \"valueForKeyPath:\", \"name\")")),
            property("carCount", fetch("Car", countOnly: true)),
        ]
        people.relationshipMappings = [property("cars", NSExpression(
            format: "FUNCTION($manager, \"destinationInstancesForEntityMappingNamed:sourceInstances:\", \"CarToCar\", $source.cars)"))]
        let cars = NSEntityMapping()
        cars.name = "CarToCar"
        cars.mappingType = .customEntityMappingType
        cars.sourceEntityName = "Car"
        cars.destinationEntityName = "Car"
        cars.sourceExpression = fetch("Car")
        cars.attributeMappings = [property("plate", NSExpression(format: "$source.plate"))]
        let mapping = NSMappingModel()
        mapping.entityMappings = [people, cars]
        return mapping
    }

    private func people(_ url: URL, _ v2: NSManagedObjectModel) throws -> [String] {
        let context = try Support.open(url, model: v2, options: [:])
        return try context.performAndWait {
            try Support.fetch("Person", in: context, sortedBy: "name").map { person in
                let plates = ((person.value(forKey: "cars") as? Set<NSManagedObject>) ?? []).compactMap { $0.value(forKey: "plate") as? String }
                return "\(person.value(forKey: "label") as? String ?? "-") \(Support.int(person.propertyValue(forKey: "carCount")) ?? -1) "
                    + plates.sorted().joined(separator: ",")
            }
        }
    }

    @Test func expressionsReadAsApplesExpressionTypes() {
        let mapping = mappingModel()
        let people = mapping.entityMappings[0]
        #expect(people.sourceExpression?.expressionType == NSFetchRequestExpressionType)
        #expect(NSFetchRequestExpressionType.rawValue == 50)
        let name = people.attributeMappings?[0].valueExpression
        #expect(name?.expressionType == .keyPath)
        #expect(name?.keyPath == "name")
        #expect(name?.operand.variable == "source")
        let cars = people.relationshipMappings?[0].valueExpression
        #expect(cars?.function == "destinationInstancesForEntityMappingNamed:sourceInstances:")
        #expect(cars?.operand.variable == "manager")
        #expect(people.sourceExpression?.predicateFormat
            == "FETCH(FUNCTION($manager, \"fetchRequestForSourceEntityNamed:predicateString:\", \"Person\", \"TRUEPREDICATE\"), $manager.sourceContext, NO)")
        // A plain `$source.<key>` is what SQL migration can copy; anything else is not.
        #expect(people.attributeMappings?[0].sourcePropertyName == "name")
        #expect(people.attributeMappings?[1].sourcePropertyName == nil)
        #expect(property("name", NSExpression(forKeyPath: "name")).sourcePropertyName == "name")
        #expect(property("name", NSExpression(format: "$source.owner.name")).sourcePropertyName == nil)
        // So a transform mapping of such copies runs as SQL, and this one (custom, with FUNCTION and FETCH values) does not.
        let copies = NSEntityMapping()
        copies.name = "PersonToPerson"
        copies.mappingType = .transformEntityMappingType
        copies.sourceEntityName = "Person"
        copies.destinationEntityName = "Person"
        copies.sourceExpression = fetch("Person")
        copies.attributeMappings = [property("name", NSExpression(format: "$source.name"))]
        #expect(NSMigrationManager.runsAsSQL(NSMappingModel(entityMappings: [copies])))
        #expect(!NSMigrationManager.runsAsSQL(mapping))
    }

    @Test func aMappingOfExpressionsMigratesObjectByObject() throws {
        let (v1, v2) = try models()
        let source = try makeSource(v1)
        let destination = source.deletingLastPathComponent().appendingPathComponent("Destination.sqlite")
        try NSMigrationManager(sourceModel: v1, destinationModel: v2).migrateStore(
            from: source, sourceType: NSSQLiteStoreType, with: mappingModel(), toDestinationURL: destination, destinationType: NSSQLiteStoreType)
        #expect(try people(destination, v2) == ["Ada 3 A-1,A-2", "Brendan 3 "])
    }

    /// A source expression built from its parts, as `NSFetchRequestExpression.expression(forFetch:context:countOnly:)` does,
    /// with a predicate that selects the cars to migrate.
    @Test func aSourceExpressionBuiltFromItsPartsSelectsTheSourceInstances() throws {
        let (v1, v2) = try models()
        let source = try makeSource(v1)
        let destination = source.deletingLastPathComponent().appendingPathComponent("Destination.sqlite")
        let request = NSExpression(forFunction: NSExpression(forVariable: "manager"), selectorName: "fetchRequestForSourceEntityNamed:predicateString:",
                                   arguments: [NSExpression(forConstantValue: "Car"), NSExpression(forConstantValue: "plate BEGINSWITH 'A'")])
        let fetch = NSFetchRequestExpression.expression(forFetch: request, context: NSExpression(format: "$manager.sourceContext"), countOnly: false)
        let parts = try #require(fetch as? NSFetchRequestExpression)
        #expect(!parts.isCountOnlyRequest)
        #expect(parts.requestExpression.function == "fetchRequestForSourceEntityNamed:predicateString:")
        #expect(parts.contextExpression.predicateFormat == "$manager.sourceContext")
        #expect(fetch.expressionType == NSFetchRequestExpressionType)
        let mapping = mappingModel()
        mapping.entityMappings[1].sourceExpression = fetch
        try NSMigrationManager(sourceModel: v1, destinationModel: v2).migrateStore(
            from: source, sourceType: NSSQLiteStoreType, with: mapping, toDestinationURL: destination, destinationType: NSSQLiteStoreType)
        #expect(try people(destination, v2) == ["Ada 3 A-1,A-2", "Brendan 3 "])
        let context = try Support.open(destination, model: v2, options: [:])
        let plates = try context.performAndWait {
            try Support.fetch("Car", in: context, sortedBy: "plate").compactMap { $0.value(forKey: "plate") as? String }
        }
        #expect(plates == ["A-1", "A-2"])
    }

    /// Key paths read from the source instance (`NSExpression(forKeyPath:)`) are plain copies too, and run as SQL.
    @Test func keyPathCopiesRunAsSQL() throws {
        let (v1, v2) = try models()
        let source = try makeSource(v1)
        let destination = source.deletingLastPathComponent().appendingPathComponent("Destination.sqlite")
        let persons = NSEntityMapping(name: "PersonToPerson", mappingType: .transformEntityMappingType, sourceEntityName: "Person",
                                     destinationEntityName: "Person")
        persons.attributeMappings = [property("name", NSExpression(forKeyPath: "name"))]
        persons.relationshipMappings = [property("cars", NSExpression(forKeyPath: "cars"))]
        let cars = NSEntityMapping(name: "CarToCar", mappingType: .transformEntityMappingType, sourceEntityName: "Car", destinationEntityName: "Car")
        cars.attributeMappings = [property("plate", NSExpression(forKeyPath: "plate"))]
        cars.relationshipMappings = [property("owner", NSExpression(forKeyPath: "owner"))]
        let mapping = NSMappingModel(entityMappings: [persons, cars])
        #expect(NSMigrationManager.runsAsSQL(mapping))
        try NSMigrationManager(sourceModel: v1, destinationModel: v2).migrateStore(
            from: source, sourceType: NSSQLiteStoreType, with: mapping, toDestinationURL: destination, destinationType: NSSQLiteStoreType)
        #expect(try people(destination, v2) == ["- -1 A-1,A-2", "- -1 "])
    }

    @Test func inferredMappingsCarryExpressions() throws {
        let (v1, v2) = try models()
        let mapping = try NSMappingModel.inferredMappingModel(forSourceModel: v1, destinationModel: v2)
        let people = try #require(mapping.entityMapping(forDestinationEntity: "Person"))
        #expect(people.sourceExpression?.expressionType == NSFetchRequestExpressionType)
        let name = try #require(people.propertyMappingsByName["name"]?.valueExpression)
        #expect(name.predicateFormat == "$source.name")
        #expect(name.keyPath == "name")
        #expect(people.propertyMappingsByName["cars"]?.valueExpression?.predicateFormat == "$source.cars")
    }

    /// A source expression may be any expression that gives a collection of source objects, as Apple's documentation
    /// says: here the cars of a `FETCH` whose plate starts with A, by a `SUBQUERY`.
    @Test func aSourceExpressionMayBeAnyCollectionOfSourceObjects() throws {
        let (v1, v2) = try models()
        let source = try makeSource(v1)
        let destination = source.deletingLastPathComponent().appendingPathComponent("Destination.sqlite")
        let mapping = mappingModel()
        mapping.entityMappings[1].sourceExpression = NSExpression(format: "SUBQUERY(\(fetch("Car").predicateFormat), $car, $car.plate BEGINSWITH 'A')")
        let manager = NSMigrationManager(sourceModel: v1, destinationModel: v2)
        manager.objectBatchSize = 1
        try manager.migrateStore(from: source, sourceType: NSSQLiteStoreType, with: mapping, toDestinationURL: destination,
                                 destinationType: NSSQLiteStoreType)
        #expect(try people(destination, v2) == ["Ada 3 A-1,A-2", "Brendan 3 "])
        let context = try Support.open(destination, model: v2, options: [:])
        let plates = try context.performAndWait {
            try Support.fetch("Car", in: context, sortedBy: "plate").compactMap { $0.value(forKey: "plate") as? String }
        }
        #expect(plates == ["A-1", "A-2"])
    }

    /// A source expression that gives no collection of source objects is refused by name, with nothing left behind.
    @Test func aSourceExpressionThatGivesNoSourceObjectsIsRefused() throws {
        let (v1, v2) = try models()
        let source = try makeSource(v1)
        let destination = source.deletingLastPathComponent().appendingPathComponent("Destination.sqlite")
        let mapping = mappingModel()
        mapping.entityMappings[1].sourceExpression = NSExpression(format: "$manager.sourceContext")
        let error = #expect(throws: CoreDataError.self) {
            try NSMigrationManager(sourceModel: v1, destinationModel: v2).migrateStore(
                from: source, sourceType: NSSQLiteStoreType, with: mapping, toDestinationURL: destination, destinationType: NSSQLiteStoreType)
        }
        #expect(String(describing: error).contains("CarToCar: source expression $manager.sourceContext gives"), "\(String(describing: error))")
        #expect(String(describing: error).contains("not a collection of source objects"), "\(String(describing: error))")
        #expect(!FileManager.default.fileExists(atPath: destination.path))
    }

    /// `FETCH(request, context, countOnly)` evaluates against a managed object context, as Apple's
    /// `NSFetchRequestExpression` does.
    @Test func fetchEvaluatesInAContext() throws {
        let (v1, _) = try models()
        let url = try makeSource(v1)
        let context = try Support.open(url, model: v1, options: [:])
        try context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Car")
            request.predicate = NSPredicate(format: "owner != nil")
            let count = NSExpression(format: "FETCH(%@, %@, YES)", request, context)
            #expect(count.expressionType == NSFetchRequestExpressionType)
            #expect(count.expressionValue(with: nil, context: nil) as? Int == 2)
            let objects = NSExpression(format: "FETCH(%@, %@, NO)", request, context).expressionValue(with: nil, context: nil) as? [Any]
            let plates = (objects ?? []).compactMap { ($0 as? NSManagedObject)?.value(forKey: "plate") as? String }
            #expect(plates.sorted() == ["A-1", "A-2"])
        }
    }
}
