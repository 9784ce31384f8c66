import CoreDataModel
import CoreDataObjectGraph
import CoreDataTestSupport
import Foundation
import Predicates
import Testing

/// Apple's spellings used verbatim: a model built in code as Apple's documentation builds one, models loaded with
/// `init(contentsOf:)` and merged, fetch request templates, and the coordinator's `performAndWait`.
struct AppleSpellingTests {
    /// The model of Apple's "Creating a Core Data model in code" pattern.
    static func modelInCode() -> NSManagedObjectModel {
        let person = NSEntityDescription()
        person.name = "Person"
        let name = NSAttributeDescription()
        name.name = "name"
        name.attributeType = .stringAttributeType
        name.isOptional = false
        let pet = NSEntityDescription()
        pet.name = "Pet"
        let petName = NSAttributeDescription()
        petName.name = "name"
        petName.attributeType = .stringAttributeType
        let pets = NSRelationshipDescription()
        pets.name = "pets"
        pets.destinationEntity = pet
        pets.maxCount = 0
        pets.deleteRule = .cascadeDeleteRule
        let owner = NSRelationshipDescription()
        owner.name = "owner"
        owner.destinationEntity = person
        owner.maxCount = 1
        owner.isOptional = true
        pets.inverseRelationship = owner
        owner.inverseRelationship = pets
        person.properties = [name, pets]
        pet.properties = [petName, owner]
        let model = NSManagedObjectModel()
        model.entities = [person, pet]
        return model
    }

    @Test func aModelBuiltInCodeSavesAndFetchesWithItsRelationships() throws {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: Self.modelInCode())
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, at: try TemporaryDirectory.make().appendingPathComponent("P.sqlite"), options: nil)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            let ada = NSEntityDescription.insertNewObject(forEntityName: "Person", into: context)
            ada.setValue("Ada", forKey: "name")
            let cat = NSEntityDescription.insertNewObject(forEntityName: "Pet", into: context)
            cat.setValue("Tom", forKey: "name")
            cat.setValue(ada, forKey: "owner")
            #expect((ada.value(forKey: "pets") as? Set<NSManagedObject>) == [cat], "the inverse follows")
            try context.save()
            context.delete(ada)
            try context.save()
            #expect(try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Pet")) == 0, "the cascade rule applies")
        }
        #expect(coordinator.performAndWait { coordinator.persistentStores.count } == 1)
    }

    @Test func modelsLoadFromFilesMergeAndGiveTheirTemplates() throws {
        let directory = try TemporaryDirectory.make()
        let source = directory.appendingPathComponent("Shop.xcdatamodel", isDirectory: true)
        try FileManager.default.createDirectory(at: source, withIntermediateDirectories: true)
        try Data("""
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="Item" representedClassName="Item">
                    <attribute name="price" attributeType="Integer 32" usesScalarValueType="YES"/>
                </entity>
                <fetchRequest name="Cheap" entity="Item" predicateString="price &lt; $LIMIT"/>
            </model>
            """.utf8).write(to: source.appendingPathComponent("contents"))
        let model = try #require(NSManagedObjectModel(contentsOf: source))
        #expect(model.entitiesByName.keys.sorted() == ["Item"])
        #expect(NSManagedObjectModel(contentsOf: directory.appendingPathComponent("Missing.mom")) == nil)
        let request = try #require(model.fetchRequestFromTemplate(withName: "Cheap", substitutionVariables: ["LIMIT": 10]))
        #expect(request.entityName == "Item")
        #expect(request.predicate?.predicateFormat == "price < 10")
        #expect(model.fetchRequestTemplate(forName: "Nope") == nil)
        let merged = try #require(NSManagedObjectModel(byMerging: [model, Self.modelInCode()]))
        #expect(merged.entitiesByName.keys.sorted() == ["Item", "Person", "Pet"])
        #expect(NSManagedObjectModel(byMerging: [model, try #require(NSManagedObjectModel(contentsOf: source))]) == nil,
                "two models declaring one entity do not merge")
    }
}
