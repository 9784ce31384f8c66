import CoreDataModel
import CoreDataObjectGraph
import CoreDataTestSupport
import Foundation
import Testing

/// A change to a transient attribute is a change of the object, as Apple documents `hasChanges` ("has unsaved
/// changes") and `updatedObjects` ("objects … that have uncommitted changes"), though not a persistent one
/// (`hasPersistentChangedValues`, `changedValues()` report persistent properties only). A save writes nothing for it,
/// and a child context's save hands it to the parent's object as a change there.
struct TransientChangeTrackingTests {
    private func stack() throws -> (NSPersistentStoreCoordinator, NSManagedObjectContext) {
        let car = NSEntityDescription(name: "Car")
        let speed = NSAttributeDescription(name: "speed", type: .integer64AttributeType)
        speed.isTransient = true
        speed.defaultValue = 0
        car.setProperties([NSAttributeDescription(name: "plate", type: .stringAttributeType), speed])
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: NSManagedObjectModel(entities: [car]))
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, at: try TemporaryDirectory.make().appendingPathComponent("C.sqlite"), options: nil)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return (coordinator, context)
    }

    @Test func settingATransientAttributeMakesTheObjectUpdatedButNotPersistentlyChanged() throws {
        let (_, context) = try stack()
        try context.performAndWait {
            let car = NSEntityDescription.insertNewObject(forEntityName: "Car", into: context)
            car.setValue("AB-123", forKey: "plate")
            try context.save()
            #expect(!context.hasChanges)

            car.setValue(50, forKey: "speed")
            #expect(car.hasChanges)
            #expect(car.isUpdated)
            #expect(!car.hasPersistentChangedValues)
            #expect(car.changedValues().isEmpty)
            #expect(context.hasChanges)
            #expect(context.updatedObjects == [car])

            try context.save()
            #expect(!car.hasChanges)
            #expect(!context.hasChanges)
            #expect(context.updatedObjects.isEmpty)
            #expect(car.value(forKey: "speed") as? Int == 50, "a save keeps the transient value")
        }
    }

    @Test func aChildsTransientChangeIsAChangeOfTheParentsObject() throws {
        let (_, context) = try stack()
        let id = try context.performAndWait {
            let car = NSEntityDescription.insertNewObject(forEntityName: "Car", into: context)
            car.setValue("CD-456", forKey: "plate")
            try context.save()
            return car.objectID
        }
        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = context
        try child.performAndWait {
            child.object(with: id).setValue(30, forKey: "speed")
            #expect(child.updatedObjects.count == 1)
            try child.save()
        }
        context.performAndWait {
            let car = context.object(with: id)
            #expect(context.hasChanges)
            #expect(context.updatedObjects == [car])
            #expect(!car.hasPersistentChangedValues)
            #expect(car.value(forKey: "speed") as? Int == 30)
        }
    }
}
