import CoreDataModel
import CoreDataObjectGraph
import CoreDataTestSupport
import Foundation
import Predicates
import Testing

import class Predicates.NSExpression
import class Predicates.NSSortDescriptor

/// Dictionary results carry each row's object ID as Apple's do: "objectID" among `propertiesToFetch`, or an
/// `NSExpressionDescription` of `NSExpression.expressionForEvaluatedObject()` typed `.objectIDAttributeType`.
struct DictionaryObjectIDTests {
    /// Vehicle (name) with the subentity Car.
    static func model() -> NSManagedObjectModel {
        let vehicle = NSEntityDescription()
        vehicle.name = "Vehicle"
        let name = NSAttributeDescription()
        name.name = "name"
        name.attributeType = .stringAttributeType
        vehicle.properties = [name]
        let car = NSEntityDescription()
        car.name = "Car"
        vehicle.subentities = [car]
        let model = NSManagedObjectModel()
        model.entities = [vehicle, car]
        return model
    }

    @Test(arguments: [NSSQLiteStoreType, NSInMemoryStoreType])
    func rowsCarryTheirObjectIDs(storeType: String) throws {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: Self.model())
        let url = storeType == NSSQLiteStoreType ? try TemporaryDirectory.make().appendingPathComponent("V.sqlite") : nil
        try coordinator.addPersistentStore(ofType: storeType, configurationName: nil, at: url)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            let bike = NSEntityDescription.insertNewObject(forEntityName: "Vehicle", into: context)
            bike.setValue("bike", forKey: "name")
            let car = NSEntityDescription.insertNewObject(forEntityName: "Car", into: context)
            car.setValue("car", forKey: "name")
            try context.save()

            let byName = NSFetchRequest<NSDictionary>(entityName: "Vehicle")
            byName.resultType = .dictionaryResultType
            byName.propertiesToFetch = ["name", "objectID"]
            byName.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
            let rows = try context.fetch(byName)
            #expect(rows.map { $0["objectID"] as? NSManagedObjectID } == [bike.objectID, car.objectID],
                    "each row's ID, of its own entity (a Car row names Car)")
            #expect((rows.last?["objectID"] as? NSManagedObjectID)?.entity.name == "Car")

            let described = NSExpressionDescription()
            described.name = "id"
            described.expression = NSExpression.expressionForEvaluatedObject()
            described.expressionResultType = .objectIDAttributeType
            let request = NSFetchRequest<NSDictionary>(entityName: "Car")
            request.resultType = .dictionaryResultType
            request.propertiesToFetch = [described, "name"]
            let carRows = try context.fetch(request)
            #expect(carRows.count == 1)
            #expect(carRows.first?["id"] as? NSManagedObjectID == car.objectID)
            #expect(carRows.first?["name"] as? String == "car")
        }
    }
}
