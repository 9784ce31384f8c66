import Foundation
import OpenCoreData
import Testing

/// The model descriptions' signatures that Apple declares differently from a plain Swift translation, used as code
/// written for Apple's platforms uses them. This file compiles only if the spellings do; the expectations check that
/// the values are Apple's.
struct AppleModelSignatureTests {
    /// `Person` (`name`, `email`) and `Pet` with a to-one `owner`, built in code as Apple's documentation builds models.
    private func makeModel() -> NSManagedObjectModel {
        let person = NSEntityDescription()
        person.name = "Person"
        let name = NSAttributeDescription()
        name.name = "name"
        name.attributeType = .stringAttributeType
        let email = NSAttributeDescription()
        email.name = "email"
        email.attributeType = .stringAttributeType
        person.properties = [name, email]
        let pet = NSEntityDescription()
        pet.name = "Pet"
        let owner = NSRelationshipDescription()
        owner.name = "owner"
        owner.destinationEntity = person
        owner.maxCount = 1
        pet.properties = [owner]
        let model = NSManagedObjectModel()
        model.entities = [person, pet]
        return model
    }

    /// Apple declares `entity` and `managedObjectModel` non-optional (`unowned(unsafe)`): code reads through them
    /// without unwrapping. Code that unwraps them (`?.`, `if let`) compiles too, and the references stay weak.
    @Test func backReferencesReadWithoutUnwrapping() throws {
        let model = makeModel()
        let pet = try #require(model.entitiesByName["Pet"])
        let owner = try #require(pet.relationshipsByName["owner"])
        let entityName: String? = owner.entity.name
        #expect(entityName == "Pet")
        #expect(owner.entity.managedObjectModel.entitiesByName.keys.sorted() == ["Person", "Pet"])
        #expect(pet.managedObjectModel === model)
        #expect(owner.entity?.name == "Pet", "the unwrapping spelling still compiles")
        if let entity = owner.entity { #expect(entity === pet) } else { Issue.record("owner has no entity") }

        let loose = NSAttributeDescription()
        #expect(loose.entity == nil, "a property not in an entity has none")
        #expect(NSEntityDescription().managedObjectModel == nil, "an entity not in a model has none")

        weak var goneModel: NSManagedObjectModel?
        var kept: NSEntityDescription?
        do {
            let other = makeModel()
            kept = other.entitiesByName["Person"]
            goneModel = other
        }
        #expect(goneModel == nil, "an entity keeps its model weakly")
        #expect(kept?.managedObjectModel == nil)
    }

    /// Apple's `entities(forConfigurationName:)` returns an optional: all entities for nil and for Core Data's
    /// default configuration name, a declared configuration's members, nil for a name the model does not declare.
    /// iOS 15's Swift spelling of an attribute's type, as code that builds its model in code writes it: the same
    /// values as `attributeType`, and an object of that model stores and reads them.
    @Test func theSwiftAttributeTypeIsTheAttributeType() throws {
        let count = NSAttributeDescription()
        count.name = "count"
        count.type = .integer64
        #expect(count.attributeType == .integer64AttributeType)
        count.attributeType = .integer16AttributeType
        #expect(count.type == .integer16)
        count.type = .integer64
        let created = NSAttributeDescription()
        created.name = "created"
        created.type = .date
        let entity = NSEntityDescription()
        entity.name = "Counter"
        entity.properties = [count, created]
        let model = NSManagedObjectModel()
        model.entities = [entity]
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil, options: nil)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            let counter = NSEntityDescription.insertNewObject(forEntityName: "Counter", into: context)
            counter.setValue(Int64(1) << 40, forKey: "count")
            counter.setValue(Date(timeIntervalSinceReferenceDate: 0), forKey: "created")
            try context.save()
            context.reset()
            let fetched = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Counter"))
            #expect((fetched.first?.value(forKey: "count") as? NSNumber)?.int64Value == Int64(1) << 40)
        }
    }

    @Test func configurationLookupAnswersNilForAnUnknownName() throws {
        let model = makeModel()
        let person = try #require(model.entitiesByName["Person"])
        model.setEntities([person], forConfigurationName: "People")
        guard let people = model.entities(forConfigurationName: "People") else {
            Issue.record("a declared configuration has entities")
            return
        }
        #expect(people.map(\.name) == ["Person"])
        #expect(model.entities(forConfigurationName: nil)?.count == 2)
        #expect(model.entities(forConfigurationName: "PF_DEFAULT_CONFIGURATION_NAME")?.count == 2)
        #expect(model.entities(forConfigurationName: "Pets") == nil)
        #expect(model.entities(forConfigurationName: "Default") == nil, "Xcode's Default is not a declared configuration")
        model.setEntities(model.entities, forConfigurationName: "Default")
        #expect(model.entities(forConfigurationName: "Default")?.count == 2)
    }

    /// Apple's `managedObjectClassName` reads `NSManagedObject` for an entity whose model names no class, and objects
    /// of such an entity are plain `NSManagedObject`s.
    @Test func anEntityWithoutAClassNamesNSManagedObject() throws {
        let model = makeModel()
        let person = try #require(model.entitiesByName["Person"])
        let className: String = person.managedObjectClassName
        #expect(className == "NSManagedObject")
        person.managedObjectClassName = "MyApp.Person"
        #expect(person.managedObjectClassName == "MyApp.Person")
        person.managedObjectClassName = nil
        #expect(person.managedObjectClassName == "NSManagedObject", "setting nil goes back to the default")

        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil, options: nil)
        let context = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        let object = NSEntityDescription.insertNewObject(forEntityName: "Person", into: context)
        #expect(type(of: object) == NSManagedObject.self)
        #expect(object.entity.managedObjectClassName == "NSManagedObject")
    }

    /// Apple's `versionIdentifiers` is a `Set<AnyHashable>`: set and read as one, and recorded in a new store's
    /// metadata as text.
    @Test func versionIdentifiersAreASetOfHashables() throws {
        let model = makeModel()
        #expect(model.versionIdentifiers.isEmpty)
        model.versionIdentifiers = ["2.0", "beta"]
        #expect(model.versionIdentifiers.contains("2.0"))
        #expect(model.versionIdentifiers == Set<AnyHashable>(["beta", "2.0"]))
        model.versionIdentifiers.insert(3)
        #expect(model.versionIdentifiers.contains(3), "any hashable value, as Apple's set holds")

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("AppleModelSignatureTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("Versions.sqlite")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: nil)
        let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url, options: nil)
        #expect(metadata["NSStoreModelVersionIdentifiers"] as? [String] == ["2.0", "3", "beta"],
                "stores record the identifiers as text, sorted")
    }

    /// Apple's `uniquenessConstraints` is `[[Any]]`: entries are property names or property descriptions, read back
    /// as set, and either kind gives the same version hash and the same unique index in an SQLite store.
    @Test func uniquenessConstraintsTakeNamesOrProperties() throws {
        let byProperty = makeModel()
        let person = try #require(byProperty.entitiesByName["Person"])
        let email = try #require(person.attributesByName["email"])
        person.uniquenessConstraints = [[email], ["name", "email"]]
        let first = try #require(person.uniquenessConstraints.first?.first as? NSAttributeDescription)
        #expect(first === email, "a property reads back as the property")
        #expect(person.uniquenessConstraints.last?.compactMap { $0 as? String } == ["name", "email"])

        let byName = makeModel()
        let samePerson = try #require(byName.entitiesByName["Person"])
        samePerson.uniquenessConstraints = [["email"], ["name", "email"]]
        #expect(person.versionHash == samePerson.versionHash)
        #expect(person.versionHash != makeModel().entitiesByName["Person"]?.versionHash, "constraints are part of the hash")

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("AppleModelSignatureTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: byProperty)
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil,
                                           at: directory.appendingPathComponent("Unique.sqlite"), options: nil)
        let context = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        for name in ["Ada", "Grace"] {
            let object = NSEntityDescription.insertNewObject(forEntityName: "Person", into: context)
            object.setValue(name, forKey: "name")
            object.setValue("same@example.com", forKey: "email")
        }
        #expect(throws: (any Error).self, "the constraint given by its property is enforced by the store") { try context.save() }
    }

    /// Apple's `userInfo` is `[AnyHashable: Any]?` on entities and properties: any values, read back as set, cast as
    /// code on Apple's platforms casts them.
    @Test func userInfoHoldsAnyValues() throws {
        let model = makeModel()
        let person = try #require(model.entitiesByName["Person"])
        #expect(person.userInfo?.isEmpty == true)
        person.userInfo = ["label": "People", "syncable": true, "rank": 2]
        #expect(person.userInfo?["label"] as? String == "People")
        #expect(person.userInfo?["syncable"] as? Bool == true)
        #expect(person.userInfo?["rank"] as? Int == 2)
        let email = try #require(person.attributesByName["email"])
        email.userInfo = ["placeholder": "name@example.com"]
        if let placeholder = email.userInfo?["placeholder"] as? String {
            #expect(placeholder == "name@example.com")
        } else {
            Issue.record("the property's user info entry")
        }
        email.userInfo?["maxLength"] = 254
        #expect(email.userInfo?.count == 2 && email.userInfo?["maxLength"] as? Int == 254, "mutated in place")
        email.userInfo = nil
        #expect(email.userInfo?.isEmpty == true)
    }

    /// A constraint entry that is neither a property name nor a property description is a programming error: it
    /// stops the program (in a child process here) when set.
    @Test func aConstraintEntryOfAnotherKindTraps() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let entity = NSEntityDescription()
            entity.name = "Person"
            entity.uniquenessConstraints = [["name", 42]]
        }
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("uniqueness constraint 1 of entity Person holds Int 42"), "\(message)")
    }

    /// Entity and property mappings carry Apple's `[AnyHashable: Any]?` user info too, nil until set.
    @Test func mappingUserInfoHoldsAnyValues() {
        let mapping = NSEntityMapping(name: "PersonToPerson", mappingType: .copyEntityMappingType,
                                      sourceEntityName: "Person", destinationEntityName: "Person")
        #expect(mapping.userInfo == nil)
        mapping.userInfo = ["batch": 500]
        #expect(mapping.userInfo?["batch"] as? Int == 500)
        let property = NSPropertyMapping(name: "name", valueExpression: NSExpression(format: "$source.name"))
        property.userInfo = ["note": "copied"]
        #expect(property.userInfo?["note"] as? String == "copied")
    }
}
