import Foundation
import OpenCoreData
import Testing

/// A derived attribute built in code as Apple's documentation shows: `NSDerivedAttributeDescription()`, then its
/// name, type and `derivationExpression`; an SQLite store keeps its value current.
struct DerivedAttributeInCodeTests {
    /// A `Folder` whose derived `itemCount` counts its `items`.
    private func makeModel() -> NSManagedObjectModel {
        let folder = NSEntityDescription()
        folder.name = "Folder"
        let item = NSEntityDescription()
        item.name = "Item"
        let items = NSRelationshipDescription()
        items.name = "items"
        items.destinationEntity = item
        items.maxCount = 0
        let owner = NSRelationshipDescription()
        owner.name = "folder"
        owner.destinationEntity = folder
        owner.maxCount = 1
        items.inverseRelationship = owner
        owner.inverseRelationship = items
        let itemCount = NSDerivedAttributeDescription()
        itemCount.name = "itemCount"
        itemCount.attributeType = .integer64AttributeType
        itemCount.derivationExpression = NSExpression(forKeyPath: "items.@count")
        folder.properties = [items, itemCount]
        item.properties = [owner]
        let model = NSManagedObjectModel()
        model.entities = [folder, item]
        return model
    }

    @Test func aNewDerivedAttributeHasNoExpressionUntilOneIsSet() {
        let derived = NSDerivedAttributeDescription()
        #expect(derived.name == "")
        #expect(derived.derivationExpression == nil)
        derived.derivationExpression = NSExpression(format: "now()")
        #expect(derived.derivationExpression?.predicateFormat == "now()")
        derived.derivationExpression = nil
        #expect(derived.derivationExpression == nil)
    }

    @Test func theExpressionReadsBackInItsCanonicalForm() throws {
        let derived = try #require(makeModel().entitiesByName["Folder"]?.attributesByName["itemCount"] as? NSDerivedAttributeDescription)
        #expect(derived.derivationExpression == NSExpression(forKeyPath: "items.@count"))
        #expect(derived.derivationExpression?.predicateFormat == "count:(items)")
        #expect(derived.isReadOnly, "a derived attribute is read-only, as Apple's")
    }

    @Test func anSQLiteStoreComputesTheDerivedValue() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("derived-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: makeModel())
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil,
                                           at: directory.appendingPathComponent("Folders.sqlite"), options: nil)
        let context = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        let folder = NSEntityDescription.insertNewObject(forEntityName: "Folder", into: context)
        for _ in 0..<3 {
            NSEntityDescription.insertNewObject(forEntityName: "Item", into: context).setValue(folder, forKey: "folder")
        }
        try context.save()

        let reader = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
        reader.persistentStoreCoordinator = coordinator
        let fetched = try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Folder"))
        #expect(fetched.count == 1)
        #expect(fetched.first?.value(forKey: "itemCount") as? Int == 3)
    }
}
