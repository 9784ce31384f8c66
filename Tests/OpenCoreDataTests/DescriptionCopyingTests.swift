import Foundation
import OpenCoreData
import Testing

/// `NSCopying` on descriptions and models, as Apple's code uses it: `copy() as! NSManagedObjectModel` to edit a model
/// that a coordinator already uses, `copy() as! NSAttributeDescription` to reuse a property in another entity.
struct DescriptionCopyingTests {
    private func makeModel() -> NSManagedObjectModel {
        let author = NSEntityDescription()
        author.name = "Author"
        let name = NSAttributeDescription()
        name.name = "name"
        name.attributeType = .stringAttributeType
        name.isOptional = false
        name.defaultValue = "Anonymous"
        name.userInfo = ["note": "shown in lists"]
        name.setValidationPredicates([NSPredicate(format: "length >= 2")], withValidationWarnings: ["Too short"])
        let book = NSEntityDescription()
        book.name = "Book"
        let title = NSAttributeDescription()
        title.name = "title"
        title.attributeType = .stringAttributeType
        let books = NSRelationshipDescription()
        books.name = "books"
        books.destinationEntity = book
        books.maxCount = 0
        books.deleteRule = .cascadeDeleteRule
        let writer = NSRelationshipDescription()
        writer.name = "author"
        writer.destinationEntity = author
        writer.maxCount = 1
        books.inverseRelationship = writer
        writer.inverseRelationship = books
        author.properties = [name, books]
        author.uniquenessConstraints = [["name"]]
        author.indexes = [NSFetchIndexDescription(name: "byName", elements: [NSFetchIndexElementDescription(property: name, collationType: .binary)])]
        book.properties = [title, writer]
        let model = NSManagedObjectModel()
        model.entities = [author, book]
        model.versionIdentifiers = ["1.0"]
        return model
    }

    @Test func aCopiedAttributeIsIndependentAndBelongsToNoEntity() throws {
        let name = try #require(makeModel().entitiesByName["Author"]?.attributesByName["name"])
        let copy = try #require(name.copy() as? NSAttributeDescription)
        #expect(copy !== name)
        #expect(copy.entity == nil)
        #expect(copy.name == "name" && copy.attributeType == .stringAttributeType && !copy.isOptional)
        #expect(copy.defaultValue as? String == "Anonymous")
        #expect(copy.userInfo?["note"] as? String == "shown in lists")
        #expect(copy.validationPredicates == name.validationPredicates)
        #expect(copy.validationWarnings as? [String] == ["Too short"])
        copy.name = "fullName"
        copy.isOptional = true
        #expect(name.name == "name" && !name.isOptional)
    }

    @Test func aCopiedRelationshipKeepsItsDestinationAndRule() throws {
        let books = try #require(makeModel().entitiesByName["Author"]?.relationshipsByName["books"])
        let copy = try #require(books.copy() as? NSRelationshipDescription)
        #expect(copy !== books && copy.entity == nil)
        #expect(copy.destinationEntity === books.destinationEntity)
        #expect(copy.inverseRelationship === books.inverseRelationship)
        #expect(copy.isToMany && copy.deleteRule == .cascadeDeleteRule)
    }

    @Test func aCopiedEntityHasItsOwnProperties() throws {
        let model = makeModel()
        let author = try #require(model.entitiesByName["Author"])
        let copy = try #require(author.copy() as? NSEntityDescription)
        #expect(copy.name == "Author")
        #expect(copy.managedObjectModel == nil)
        #expect(copy.properties.map(\.name) == author.properties.map(\.name))
        #expect(zip(copy.properties, author.properties).allSatisfy { $0 !== $1 })
        #expect(copy.properties.allSatisfy { $0.entity === copy })
        #expect(copy.uniquenessConstraints as? [[String]] == [["name"]])
        #expect(copy.indexes.first?.elements.first?.property === copy.attributesByName["name"])
        copy.name = "Writer"
        #expect(author.name == "Author")
    }

    @Test func aCopiedModelIsEditableWhileTheOriginalIsInUse() throws {
        let model = makeModel()
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil, options: nil)

        let copy = try #require(model.copy() as? NSManagedObjectModel)
        #expect(copy !== model)
        #expect(copy.entityVersionHashesByName == model.entityVersionHashesByName)
        #expect(copy.versionIdentifiers == model.versionIdentifiers)
        let copiedAuthor = try #require(copy.entitiesByName["Author"])
        #expect(copiedAuthor !== model.entitiesByName["Author"])
        #expect(copiedAuthor.managedObjectModel === copy)
        let copiedBooks = try #require(copiedAuthor.relationshipsByName["books"])
        #expect(copiedBooks.destinationEntity === copy.entitiesByName["Book"], "the copy's relationships link to the copy's entities")
        #expect(copiedBooks.inverseRelationship === copy.entitiesByName["Book"]?.relationshipsByName["author"])

        let born = NSAttributeDescription()
        born.name = "born"
        born.attributeType = .dateAttributeType
        copiedAuthor.properties.append(born)
        #expect(model.entitiesByName["Author"]?.attributesByName["born"] == nil)
        #expect(copy.entityVersionHashesByName["Author"] != model.entityVersionHashesByName["Author"])

        let copyCoordinator = NSPersistentStoreCoordinator(managedObjectModel: copy)
        try copyCoordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil, options: nil)
        let context = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
        context.persistentStoreCoordinator = copyCoordinator
        let author = NSEntityDescription.insertNewObject(forEntityName: "Author", into: context)
        author.setValue("Ada", forKey: "name")
        author.setValue(Date(timeIntervalSinceReferenceDate: 0), forKey: "born")
        try context.save()
        #expect(author.entity === copiedAuthor)
    }
}
