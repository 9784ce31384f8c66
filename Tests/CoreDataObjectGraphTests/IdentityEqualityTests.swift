import CoreDataModel
import CoreDataObjectGraph
import Foundation
import Testing

/// Contexts and coordinators compare as Apple's `NSObject`s do: by identity, hashable, usable with `XCTAssertEqual`
/// and as set members or dictionary keys.
struct IdentityEqualityTests {
    static func model() -> NSManagedObjectModel {
        let item = NSEntityDescription()
        item.name = "Item"
        let name = NSAttributeDescription()
        name.name = "name"
        name.attributeType = .stringAttributeType
        item.properties = [name]
        let model = NSManagedObjectModel()
        model.entities = [item]
        return model
    }

    @Test func aChildContextsParentEqualsTheContextItWasGiven() {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: Self.model())
        let main = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
        main.persistentStoreCoordinator = coordinator
        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = main
        let other = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
        other.persistentStoreCoordinator = coordinator
        #expect(child.parent == main)
        #expect(child.parent != other)
        #expect(main != other, "two contexts on one coordinator are still two contexts")
        #expect(Set([main, other, main]).count == 2)
        var names: [NSManagedObjectContext: String] = [:]
        names[main] = "main"
        names[other] = "other"
        #expect(names[main] == "main" && names[other] == "other")
    }

    @Test func contextsSharingACoordinatorSeeTheSameCoordinator() {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: Self.model())
        let main = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
        main.persistentStoreCoordinator = coordinator
        let background = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        background.persistentStoreCoordinator = coordinator
        let second = NSPersistentStoreCoordinator(managedObjectModel: Self.model())
        #expect(main.persistentStoreCoordinator == background.persistentStoreCoordinator)
        #expect(main.persistentStoreCoordinator != second)
        #expect(Set([coordinator, second, coordinator]).count == 2)
    }
}

/// Models compare by the schema they describe, so an entity's model equals a second load of the same model file.
struct ModelEqualityTests {
    @Test func twoLoadsOfOneSchemaAreEqualAndADifferentSchemaIsNot() {
        let first = IdentityEqualityTests.model()
        let second = IdentityEqualityTests.model()
        #expect(first == second)
        #expect(first.entities[0].managedObjectModel == second)
        let other = IdentityEqualityTests.model()
        let extra = NSAttributeDescription()
        extra.name = "price"
        extra.attributeType = .doubleAttributeType
        other.entities[0].properties.append(extra)
        #expect(first != other, "another attribute is another schema")
        #expect(Set([first, second]).count == 1)
    }
}
