import CoreDataModel
import CoreDataObjectGraph
import CoreDataTestSupport
import Foundation
import Testing

/// `NSCopying` where Apple's classes adopt it: an object ID's copy is the ID itself (IDs are immutable), and a
/// store description's copy is an independent description.
struct CopyingTests {
    @Test func anObjectIDCopyIsTheSameID() throws {
        let entity = NSEntityDescription()
        entity.name = "Item"
        let model = NSManagedObjectModel()
        model.entities = [entity]
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil, options: nil)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            let item = NSEntityDescription.insertNewObject(forEntityName: "Item", into: context)
            let temporary = item.objectID
            let temporaryCopy = try #require(temporary.copy() as? NSManagedObjectID)
            #expect(temporaryCopy === temporary)
            try context.save()
            let permanent = item.objectID
            let copy = try #require(permanent.copy() as? NSManagedObjectID)
            #expect(copy === permanent)
            #expect(copy == permanent && copy.hashValue == permanent.hashValue)
            #expect(try context.existingObject(with: copy) === item)
            // Copies key dictionaries as the original does.
            let byID: [NSManagedObjectID: String] = [permanent: "item"]
            #expect(byID[copy] == "item")
        }
    }

    @Test func aStoreDescriptionCopyIsIndependent() throws {
        let url = URL(fileURLWithPath: "/tmp/Original.sqlite")
        let description = NSPersistentStoreDescription(url: url)
        description.configuration = "Default"
        description.isReadOnly = true
        description.timeout = 12
        description.shouldAddStoreAsynchronously = true
        description.shouldInferMappingModelAutomatically = false
        description.setValue("WAL" as NSString, forPragmaNamed: "journal_mode")
        description.setOption(true as NSNumber, forKey: "OCDTestOption")

        let copy = try #require(description.copy() as? NSPersistentStoreDescription)
        #expect(copy !== description)
        #expect(copy.type == NSSQLiteStoreType && copy.url == url && copy.configuration == "Default")
        #expect(copy.isReadOnly && copy.timeout == 12 && copy.shouldAddStoreAsynchronously)
        #expect(copy.shouldMigrateStoreAutomatically && !copy.shouldInferMappingModelAutomatically)
        #expect(copy.sqlitePragmas["journal_mode"] as? String == "WAL")
        #expect(copy.options["OCDTestOption"] != nil)

        // Changing the copy leaves the original as it was, and the other way round.
        copy.url = URL(fileURLWithPath: "/tmp/Copy.sqlite")
        copy.type = NSInMemoryStoreType
        copy.isReadOnly = false
        copy.setValue("DELETE" as NSString, forPragmaNamed: "journal_mode")
        copy.setOption(nil, forKey: "OCDTestOption")
        #expect(description.url == url && description.type == NSSQLiteStoreType && description.isReadOnly)
        #expect(description.sqlitePragmas["journal_mode"] as? String == "WAL")
        #expect(description.options["OCDTestOption"] != nil)
        description.configuration = "Other"
        #expect(copy.configuration == "Default")
    }
}
