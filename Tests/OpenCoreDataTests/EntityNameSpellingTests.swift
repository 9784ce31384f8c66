import OpenCoreData
import Testing

/// `NSEntityDescription.name` is `String?`, as on Apple's platforms: code written there unwraps it (`entity.name!`,
/// `entity.name ?? ""`, `if let name = entity.name`), and this file compiles only if that spelling does.
struct EntityNameSpellingTests {
    /// A model built in code the way Apple's documentation shows: create, then set the name and properties.
    private func makeModel() -> (NSManagedObjectModel, NSEntityDescription) {
        let entity = NSEntityDescription()
        entity.name = "Note"
        entity.managedObjectClassName = "NSManagedObject"
        let title = NSAttributeDescription()
        title.name = "title"
        title.attributeType = .stringAttributeType
        entity.properties = [title]
        let model = NSManagedObjectModel()
        model.entities = [entity]
        return (model, entity)
    }

    @Test func aNewEntityHasNoNameUntilOneIsSet() {
        let entity = NSEntityDescription()
        #expect(entity.name == nil)
        entity.name = "Note"
        #expect(entity.name! == "Note")
        entity.name = nil
        #expect(entity.name == nil, "setting nil clears the name, as Apple's setter does")
        #expect((entity.name ?? "unnamed") == "unnamed")
    }

    @Test func codeThatUnwrapsTheNameWorksOnFetchedObjects() throws {
        let (model, entity) = makeModel()
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil, options: nil)
        let context = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        let note = NSEntityDescription.insertNewObject(forEntityName: entity.name!, into: context)
        note.setValue("first", forKey: "title")
        try context.save()

        let request = NSFetchRequest<NSManagedObject>(entityName: entity.name!)
        let fetched = try context.fetch(request)
        #expect(fetched.count == 1)
        guard let name = fetched[0].entity.name else {
            Issue.record("a fetched object's entity has a name")
            return
        }
        #expect(name == "Note")
        #expect(model.entitiesByName[entity.name ?? ""] === entity)
        #expect(NSEntityDescription.entity(forEntityName: "Note", in: context)?.name == "Note")
        #expect(fetched[0].objectID.entity.name! == "Note")
        #expect(model.entities.compactMap(\.name) == ["Note"])
    }

    @Test func renamingAnEntityBeforeUseIsSeenByTheModel() {
        let (model, entity) = makeModel()
        entity.name = "Memo"
        #expect(model.entitiesByName["Memo"] === entity, "the model's name table follows the new name")
        #expect(model.entitiesByName["Note"] == nil)
    }
}
