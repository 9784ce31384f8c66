import CoreDataMacros
import CoreDataModel
import CoreDataObjectGraph
import CoreDataTestSupport
import Foundation
import Testing

/// Apple's primitive accessor properties, declared as Core Data code declares them (`@NSManaged private var
/// primitiveUpdatedAt: Date`, here `@Managed`) and used where Apple's documentation uses them: in
/// `awakeFromInsert()`, to give a new object its initial values, and in a custom accessor.
@Suite(.serialized)
struct PrimitiveAccessorPropertyTests {
    final class Ticket: NSManagedObject {
        @Managed var updatedAt: Date
        @Managed var code: String?
        @Managed private var primitiveUpdatedAt: Date
        @Managed private var primitiveCode: String?

        /// A custom accessor in the documented shape: read the stored value between will/didAccessValue.
        var shoutedCode: String? {
            willAccessValue(forKey: "code")
            defer { didAccessValue(forKey: "code") }
            return primitiveCode?.uppercased()
        }

        override func awakeFromInsert() {
            super.awakeFromInsert()
            primitiveUpdatedAt = Date(timeIntervalSinceReferenceDate: 42)
            primitiveCode = "new"
        }
    }

    private func context() throws -> NSManagedObjectContext {
        let ticket = NSEntityDescription(name: "Ticket")
        ticket.setProperties([NSAttributeDescription(name: "updatedAt", type: .dateAttributeType),
                              NSAttributeDescription(name: "code", type: .stringAttributeType)])
        NSManagedObject.register(Ticket.self, forEntityName: "Ticket")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: NSManagedObjectModel(entities: [ticket]))
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, at: try TemporaryDirectory.make().appendingPathComponent("T.sqlite"), options: nil)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }

    @Test func awakeFromInsertSetsInitialValuesThroughThePrimitiveProperties() throws {
        let context = try context()
        try context.performAndWait {
            let ticket = Ticket(context: context)
            #expect(ticket.updatedAt == Date(timeIntervalSinceReferenceDate: 42))
            #expect(ticket.code == "new")
            #expect(ticket.shoutedCode == "NEW")
            try context.save()
            context.refreshAllObjects()
            #expect(ticket.value(forKey: "updatedAt") as? Date == Date(timeIntervalSinceReferenceDate: 42))
            #expect(ticket.shoutedCode == "NEW", "the custom accessor fires the fault before the primitive read")
        }
    }
}
