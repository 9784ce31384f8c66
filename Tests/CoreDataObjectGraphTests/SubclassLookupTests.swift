import CoreDataMacros
import CoreDataModel
import CoreDataObjectGraph
import CoreDataTestSupport
import Foundation
import Testing

/// Classes that nothing in the program names before their objects are made: only the model's class names lead to them.
final class LookupByQualifiedName: NSManagedObject {
    @Managed var title: String?
}

final class LookupByBareName: NSManagedObject {
    @Managed var title: String?
}

final class LookupListed: NSManagedObject {
    @Managed var title: String?
}

/// An entity's objects are instances of the class its `managedObjectClassName` names, as on Apple's platforms, with no
/// `register(_:forEntityName:)`: a module-qualified name is looked up directly, a bare one (what Xcode writes) in the
/// modules whose subclasses the program has named.
struct SubclassLookupTests {
    private func context(classNames: [String: String]) throws -> NSManagedObjectContext {
        let model = NSManagedObjectModel()
        model.entities = classNames.sorted(by: { $0.key < $1.key }).map { entityName, className in
            let entity = NSEntityDescription()
            entity.name = entityName
            entity.managedObjectClassName = className
            let title = NSAttributeDescription()
            title.name = "title"
            title.attributeType = .stringAttributeType
            title.isOptional = true
            entity.properties = [title]
            return entity
        }
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, at: try TemporaryDirectory.make().appendingPathComponent("L.sqlite"))
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }

    @Test func aModuleQualifiedClassNameFindsTheClass() throws {
        let context = try context(classNames: ["Qualified": "CoreDataObjectGraphTests.LookupByQualifiedName"])
        try context.performAndWait {
            let object = NSEntityDescription.insertNewObject(forEntityName: "Qualified", into: context)
            let typed = try #require(object as? LookupByQualifiedName)
            typed.title = "found"
            try context.save()
            context.reset()
            let fetched = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Qualified"))
            #expect((fetched.first as? LookupByQualifiedName)?.title == "found")
        }
    }

    @Test func aBareClassNameIsLookedUpInTheModulesOfTheSubclassesInUse() throws {
        // Naming any subclass of this module (here through its typed request) makes the module's classes reachable.
        _ = LookupListed.fetchRequest()
        let context = try context(classNames: ["Bare": "LookupByBareName", "Plain": "NSManagedObject", "Nameless": "NoSuchClass"])
        context.performAndWait {
            #expect(NSEntityDescription.insertNewObject(forEntityName: "Bare", into: context) is LookupByBareName)
            #expect(type(of: NSEntityDescription.insertNewObject(forEntityName: "Plain", into: context)) == NSManagedObject.self)
            #expect(type(of: NSEntityDescription.insertNewObject(forEntityName: "Nameless", into: context)) == NSManagedObject.self,
                    "a class name nothing answers to gives plain objects, as Apple's does (it logs)")
        }
    }

    @Test func oneRegistrationPerModelNamesItsClasses() throws {
        NSManagedObject.register([LookupListed.self])
        let context = try context(classNames: ["Listed": "LookupListed"])
        context.performAndWait {
            #expect(NSEntityDescription.insertNewObject(forEntityName: "Listed", into: context) is LookupListed)
        }
    }
}
