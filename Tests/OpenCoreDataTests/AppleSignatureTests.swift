import OpenCoreData
import Testing

/// Apple's Swift signatures of the main Core Data classes, used the way code written for Apple's platforms uses
/// them: optional where Apple's are optional (`if let`, `?.`, `!`), plain where Apple's are plain, Apple's
/// argument labels, and results that Apple's code discards without `_ =`. This file compiles only if the
/// signatures match; the expectations check that the values are Apple's too.
struct AppleSignatureTests {
    /// Two entities built in code as Apple's documentation builds them: `Author` with a to-many `books`, `Book`
    /// with a to-one `author`, and a `Novel` subentity of `Book` made through `subentities`.
    private func makeModel() -> NSManagedObjectModel {
        let author = NSEntityDescription()
        author.name = "Author"
        author.managedObjectClassName = "NSManagedObject"
        let authorName = NSAttributeDescription()
        authorName.name = "name"
        authorName.attributeType = .stringAttributeType
        authorName.isOptional = false
        authorName.defaultValue = "Anonymous"
        let rating = NSAttributeDescription()
        rating.name = "rating"
        rating.attributeType = .integer16AttributeType
        rating.defaultValue = 3
        let joined = NSAttributeDescription()
        joined.name = "joined"
        joined.defaultValue = Date(timeIntervalSinceReferenceDate: 0)
        joined.attributeType = .dateAttributeType

        let book = NSEntityDescription()
        book.name = "Book"
        let title = NSAttributeDescription()
        title.name = "title"
        title.attributeType = .stringAttributeType
        title.attributeValueClassName = "NSString"

        let books = NSRelationshipDescription()
        books.name = "books"
        books.destinationEntity = book
        books.minCount = 0
        books.maxCount = 0
        books.deleteRule = .cascadeDeleteRule
        let toAuthor = NSRelationshipDescription()
        toAuthor.name = "author"
        toAuthor.destinationEntity = author
        toAuthor.maxCount = 1
        toAuthor.deleteRule = .nullifyDeleteRule
        books.inverseRelationship = toAuthor
        toAuthor.inverseRelationship = books

        author.properties = [authorName, rating, joined, books]
        book.properties = [title, toAuthor]

        let novel = NSEntityDescription()
        novel.name = "Novel"
        let genre = NSAttributeDescription()
        genre.name = "genre"
        genre.attributeType = .stringAttributeType
        novel.properties = [genre]
        book.subentities = [novel]

        let model = NSManagedObjectModel()
        model.entities = [author, book, novel]
        return model
    }

    @Test func descriptionsHaveApplesTypes() throws {
        let model = makeModel()
        let author = try #require(model.entitiesByName["Author"])
        let book = try #require(model.entitiesByName["Book"])
        let novel = try #require(model.entitiesByName["Novel"])

        // NSEntityDescription
        let className: String = author.managedObjectClassName
        #expect(className == "NSManagedObject")
        if let parent = novel.superentity { #expect(parent.name == "Book") } else { Issue.record("Novel's superentity") }
        #expect(book.subentities.map(\.name) == ["Novel"])
        #expect(book.subentitiesByName["Novel"] === novel)
        #expect(novel.isKindOf(entity: book) && !book.isKindOf(entity: novel))
        #expect(novel.attributesByName["title"] != nil, "a subentity inherits its parent's properties")
        #expect(author.managedObjectModel === model)
        let relationships: [NSRelationshipDescription] = author.relationships(forDestination: book)
        #expect(relationships.map(\.name) == ["books"])
        let rating = try #require(author.attributesByName["rating"])
        #expect(rating.defaultValue as? Int16 == 3, "a number default reads back as a number that casts")
        #expect(author.attributesByName["name"]?.defaultValue as? String == "Anonymous")
        #expect(author.attributesByName["joined"]?.defaultValue as? Date == Date(timeIntervalSinceReferenceDate: 0),
                "a default set before the type keeps its own type")
        rating.defaultValue = nil
        #expect(rating.defaultValue == nil)
        rating.defaultValue = NSNumber(value: 4)
        #expect(rating.defaultValue as? Int == 4)

        // NSPropertyDescription and subclasses
        let books = try #require(author.relationshipsByName["books"])
        let toAuthor = try #require(book.relationshipsByName["author"])
        #expect(books.entity?.name! == "Author")
        #expect(books.destinationEntity?.name == "Book")
        #expect(books.inverseRelationship?.name == "author")
        #expect(books.isToMany && !toAuthor.isToMany)
        let title = try #require(book.attributesByName["title"])
        if let valueClass = title.attributeValueClassName { #expect(valueClass == "NSString") }

        // NSManagedObjectModel
        model.setEntities([author], forConfigurationName: "Authors")
        #expect(model.entities(forConfigurationName: "Authors")?.map(\.name) == ["Author"])
        #expect(model.configurations == ["Authors"])
    }

    @Test func objectsContextsAndStoresHaveApplesTypes() throws {
        let model = makeModel()
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        // Apple's methods return values that code discards without `_ =`.
        try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil, options: nil)
        let store = try #require(coordinator.persistentStores.first)
        let identifier: String = store.identifier
        #expect(!identifier.isEmpty)
        let context = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator

        let author = NSEntityDescription.insertNewObject(forEntityName: "Author", into: context)
        author.setValue("Ada", forKey: "name")
        let bookEntity = try #require(NSEntityDescription.entity(forEntityName: "Book", in: context))
        let book = NSManagedObject(entity: bookEntity, insertInto: context)
        book.setValue("Notes", forKey: "title")
        book.setValue(author, forKey: "author")
        try context.obtainPermanentIDs(for: [author, book])
        try context.save()

        let id: NSManagedObjectID = book.objectID
        #expect(!id.isTemporaryID)
        #expect(coordinator.managedObjectID(forURIRepresentation: id.uriRepresentation()) == id)

        let request = NSFetchRequest<NSManagedObject>(entityName: "Book")
        if let name = request.entityName { #expect(name == "Book") }
        let fetched: [NSManagedObject] = try context.fetch(request)
        #expect(fetched.count == 1)
        #expect(author.value(forKey: "name") as? String == "Ada")
        #expect(author.value(forKey: "rating") as? Int16 == 3, "a new object takes the default set in code")
        let count: Int = try context.count(for: request)
        #expect(count == 1)
        #expect(fetched[0].entity.name! == "Book")
        #expect(fetched[0].managedObjectContext === context)
    }
}
