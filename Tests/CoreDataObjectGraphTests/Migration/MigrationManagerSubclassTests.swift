import CoreDataModel
import CoreDataObjectGraph
import CoreDataTestSupport
import Foundation
import Predicates
import Testing

/// A manager subclass, as Apple's `NSMigrationManager` allows: the value expressions' `FUNCTION($manager, …)` calls
/// reach its override.
private final class CountingMigrationManager: NSMigrationManager, @unchecked Sendable {
    var lookups: [String] = []

    override func destinationInstances(forEntityMappingName mappingName: String, sourceInstances: [NSManagedObject]?) -> [NSManagedObject] {
        lookups.append(mappingName)
        return super.destinationInstances(forEntityMappingName: mappingName, sourceInstances: sourceInstances)
    }
}

/// `NSMigrationManager` is open, as Apple's: a subclass's overrides run in a migration.
struct MigrationManagerSubclassTests {
    @Test func aSubclassAnswersTheMappingsFunctionCalls() throws {
        let v1 = try MigrationTestSupport.model(MigrationTestSupport.peopleAndCars)
        let url = try MigrationTestSupport.storeURL("Source.sqlite")
        try MigrationTestSupport.makeStore(at: url, model: v1) { context in
            let ada = MigrationTestSupport.insert("Person", ["name": "Ada"], into: context)
            MigrationTestSupport.insert("Car", ["plate": "A-1", "owner": ada], into: context)
        }
        let people = NSEntityMapping()
        people.name = "PersonToPerson"
        people.mappingType = .customEntityMappingType
        people.sourceEntityName = "Person"
        people.destinationEntityName = "Person"
        let name = NSPropertyMapping()
        name.name = "name"
        name.valueExpression = NSExpression(format: "$source.name")
        people.attributeMappings = [name]
        let cars = NSPropertyMapping()
        cars.name = "cars"
        cars.valueExpression = NSExpression(
            format: "FUNCTION($manager, \"destinationInstancesForEntityMappingNamed:sourceInstances:\", \"CarToCar\", $source.cars)")
        people.relationshipMappings = [cars]
        let carMapping = NSEntityMapping()
        carMapping.name = "CarToCar"
        carMapping.mappingType = .customEntityMappingType
        carMapping.sourceEntityName = "Car"
        carMapping.destinationEntityName = "Car"
        let plate = NSPropertyMapping()
        plate.name = "plate"
        plate.valueExpression = NSExpression(format: "$source.plate")
        carMapping.attributeMappings = [plate]
        let mapping = NSMappingModel()
        mapping.entityMappings = [people, carMapping]

        let manager = CountingMigrationManager(sourceModel: v1, destinationModel: v1)
        let destination = url.deletingLastPathComponent().appendingPathComponent("Destination.sqlite")
        try manager.migrateStore(from: url, sourceType: NSSQLiteStoreType, with: mapping, toDestinationURL: destination,
                                 destinationType: NSSQLiteStoreType)
        #expect(manager.lookups == ["CarToCar"])
        let context = try MigrationTestSupport.open(destination, model: v1, options: [:])
        let owners = try context.performAndWait {
            try MigrationTestSupport.fetch("Car", in: context, sortedBy: "plate").map {
                ($0.value(forKey: "owner") as? NSManagedObject)?.value(forKey: "name") as? String
            }
        }
        #expect(owners == ["Ada"])
    }
}
