import CoreDataMacros
import CoreDataModel
import CoreDataObjectGraph
import CoreDataTestSupport
import Foundation
import Testing

/// Subclass initializers as Apple's documentation and common Core Data code write them: `init(entity:insertInto:)` is
/// the designated initializer, a subclass adds its own designated initializer that calls it and overrides it (even
/// privately), and the context creates fetched objects through that override. `init(context:)` is required, so
/// generic code creates objects from a metatype (`Model.Type(context:)`).
@Suite(.serialized)
struct SubclassInitializerTests {
    final class Ledger: NSManagedObject {
        @Managed("title") var title: String
        /// Not a managed property: the override must run for fetched objects too, as on Apple's platforms.
        var createdBy = "nobody"

        init(context: NSManagedObjectContext, title: String) {
            let entity = NSEntityDescription.entity(forEntityName: "Ledger", in: context)!
            super.init(entity: entity, insertInto: context)
            self.title = title
        }

        private override init(entity: NSEntityDescription, insertInto context: NSManagedObjectContext?) {
            super.init(entity: entity, insertInto: context)
            createdBy = "override"
        }
    }

    private func context() throws -> NSManagedObjectContext {
        let ledger = NSEntityDescription(name: "Ledger")
        ledger.setProperties([NSAttributeDescription(name: "title", type: .stringAttributeType)])
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: NSManagedObjectModel(entities: [ledger]))
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, at: try TemporaryDirectory.make().appendingPathComponent("L.sqlite"), options: nil)
        NSManagedObject.register(Ledger.self, forEntityName: "Ledger")
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }

    @Test func aSubclassDesignatedInitializerCallsTheDesignatedSuperInitializer() throws {
        let context = try context()
        try context.performAndWait {
            let ledger = Ledger(context: context, title: "Rent")
            #expect(ledger.title == "Rent")
            #expect(ledger.isInserted && ledger.managedObjectContext === context)
            #expect(ledger.createdBy == "nobody", "super.init(entity:insertInto:) is NSManagedObject's own, not the override")
            try context.save()

            let other = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            other.persistentStoreCoordinator = context.persistentStoreCoordinator
            try other.performAndWait {
                let fetched = try other.fetch(NSFetchRequest<Ledger>(entityName: "Ledger"))
                #expect(fetched.count == 1)
                #expect(fetched.first?.title == "Rent")
                #expect(fetched.first?.createdBy == "override", "fetched objects are created through init(entity:insertInto:)")
                #expect(fetched.first?.managedObjectContext === other)
                let byID = other.object(with: ledger.objectID) as? Ledger
                #expect(byID === fetched.first, "one object per ID")
            }
        }
    }

    @Test func insertNewObjectAndInitContextRunTheOverrideToo() throws {
        let context = try context()
        context.performAndWait {
            let inserted = NSEntityDescription.insertNewObject(forEntityName: "Ledger", into: context) as? Ledger
            #expect(inserted?.createdBy == "override", "created through the override")
            #expect(inserted?.isInserted == true)
            let made = Ledger(context: context)
            #expect(made.createdBy == "override")
            #expect(made.isInserted)
        }
    }

    /// Generic code creates objects from a metatype, which Swift allows for required initializers only.
    static func make<Object: NSManagedObject>(_ type: Object.Type, in context: NSManagedObjectContext) -> Object {
        type.init(context: context)
    }

    @Test func initContextIsRequiredSoAMetatypeCreatesObjects() throws {
        let context = try context()
        try context.performAndWait {
            let ledger = Self.make(Ledger.self, in: context)
            ledger.title = "Power"
            #expect(ledger.isInserted)
            try context.save()
            #expect(try context.count(for: NSFetchRequest<Ledger>(entityName: "Ledger")) == 1)
        }
    }
}
