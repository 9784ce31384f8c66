import Foundation
import OpenCoreData
import Testing

/// Fetch request templates stored in code, as Apple's documentation shows: `setFetchRequestTemplate(_:forName:)` with
/// a request whose predicate has `$variables`, then `fetchRequestFromTemplate(withName:substitutionVariables:)`.
struct FetchRequestTemplateInCodeTests {
    private func makeModel() -> NSManagedObjectModel {
        let person = NSEntityDescription()
        person.name = "Person"
        let name = NSAttributeDescription()
        name.name = "name"
        name.attributeType = .stringAttributeType
        let age = NSAttributeDescription()
        age.name = "age"
        age.attributeType = .integer64AttributeType
        person.properties = [name, age]
        let model = NSManagedObjectModel()
        model.entities = [person]
        return model
    }

    private func makeContext(_ model: NSManagedObjectModel) throws -> NSManagedObjectContext {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil, options: nil)
        let context = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        for (name, age) in [("Ada", 36), ("Alan", 41), ("Grace", 85), ("Ada", 12)] {
            let person = NSEntityDescription.insertNewObject(forEntityName: "Person", into: context)
            person.setValue(name, forKey: "name")
            person.setValue(age, forKey: "age")
        }
        try context.save()
        return context
    }

    @Test func aTemplateSetInCodeFetchesWithItsVariablesReplaced() throws {
        let model = makeModel()
        let template = NSFetchRequest<NSManagedObject>(entityName: "Person")
        template.predicate = NSPredicate(format: "name == $NAME")
        template.sortDescriptors = [NSSortDescriptor(key: "age", ascending: false)]
        model.setFetchRequestTemplate(template, forName: "PeopleNamed")
        #expect(model.fetchRequestTemplatesByName["PeopleNamed"] != nil)
        #expect(model.fetchRequestTemplatesByName.count == 1)

        let context = try makeContext(model)
        let request = try #require(model.fetchRequestFromTemplate(withName: "PeopleNamed", substitutionVariables: ["NAME": "Ada"]))
        #expect(request.predicate?.predicateFormat == "name == \"Ada\"")
        let ages = try context.fetch(request).map { $0.value(forKey: "age") as? Int }
        #expect(ages == [36, 12], "the template's sort descriptors come with it")

        let stored = try #require(model.fetchRequestTemplate(forName: "PeopleNamed"))
        #expect(stored.entityName == "Person")
        #expect(stored.predicate?.predicateFormat == "name == $NAME")
        #expect(stored.sortDescriptors?.map(\.key) == ["age"])
    }

    @Test func changingTheRequestAfterwardsLeavesTheTemplate() throws {
        let model = makeModel()
        let template = NSFetchRequest<NSManagedObject>(entityName: "Person")
        template.predicate = NSPredicate(format: "age > 40")
        template.fetchLimit = 1
        model.setFetchRequestTemplate(template, forName: "Older")
        template.predicate = NSPredicate(format: "age < 20")
        model.fetchRequestTemplate(forName: "Older")?.fetchLimit = 5

        let context = try makeContext(model)
        let request = try #require(model.fetchRequestTemplate(forName: "Older"))
        #expect(request.fetchLimit == 1)
        #expect(try context.fetch(request).count == 1)
        let fromTemplate = try #require(model.fetchRequestFromTemplate(withName: "Older", substitutionVariables: [:]))
        #expect(fromTemplate.predicate?.predicateFormat == "age > 40")
    }

    @Test func settingNilRemovesTheTemplate() {
        let model = makeModel()
        model.setFetchRequestTemplate(NSFetchRequest<NSManagedObject>(entityName: "Person"), forName: "All")
        #expect(model.fetchRequestTemplate(forName: "All") != nil)
        model.setFetchRequestTemplate(nil as NSFetchRequest<NSManagedObject>?, forName: "All")
        #expect(model.fetchRequestTemplate(forName: "All") == nil)
        #expect(model.fetchRequestTemplatesByName.isEmpty)
    }

    @Test func aDictionaryRequestIsTakenToo() throws {
        let model = makeModel()
        let template = NSFetchRequest<NSDictionary>(entityName: "Person")
        template.predicate = NSPredicate(format: "age >= $MIN")
        model.setFetchRequestTemplate(template, forName: "AtLeast")
        let context = try makeContext(model)
        let request = try #require(model.fetchRequestFromTemplate(withName: "AtLeast", substitutionVariables: ["MIN": 40]))
        #expect(try context.fetch(request).count == 2)
    }

    @Test func aTemplateSurvivesACompiledModel() throws {
        let model = makeModel()
        let template = NSFetchRequest<NSManagedObject>(entityName: "Person")
        template.predicate = NSPredicate(format: "name BEGINSWITH $PREFIX")
        template.sortDescriptors = [NSSortDescriptor(key: "age", ascending: true)]
        model.setFetchRequestTemplate(template, forName: "Prefixed")
        let older = NSFetchedPropertyDescription()
        older.name = "sameName"
        let sameName = NSFetchRequest<NSManagedObject>(entityName: "Person")
        sameName.predicate = NSPredicate(format: "name == $FETCH_SOURCE.name")
        sameName.sortDescriptors = [NSSortDescriptor(key: "age", ascending: false, comparison: .localizedStandardCompare)]
        older.fetchRequest = sameName
        model.entitiesByName["Person"]!.properties.append(older)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("templates-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("People.mom")
        try CompiledModelWriter.archive(model).write(to: url)
        let back = try #require(NSManagedObjectModel(contentsOf: url))
        let context = try makeContext(back)
        let request = try #require(back.fetchRequestFromTemplate(withName: "Prefixed", substitutionVariables: ["PREFIX": "A"]))
        #expect(try context.fetch(request).map { $0.value(forKey: "age") as? Int } == [12, 36, 41], "sorted as the template says")
        let fetched = try #require(back.entitiesByName["Person"]?.propertiesByName["sameName"] as? NSFetchedPropertyDescription)
        let sort = try #require(fetched.fetchRequest?.sortDescriptors?.first)
        #expect(sort.key == "age" && !sort.ascending && sort.comparison == .localizedStandardCompare)
    }
}
