import CoreDataTestSupport
import Foundation
import JSONDirectoryStore
import OpenCoreData
import Testing

/// The example custom store (Examples/JSONDirectoryStore), through Apple's API and through `coredata --type`.
struct JSONDirectoryStoreTests {
    /// Authors with books (an ordered to-many with its inverse).
    static func model() -> NSManagedObjectModel {
        let author = NSEntityDescription(name: "Author")
        let books = NSRelationshipDescription(name: "books", destinationEntityName: "Book")
        books.inverseRelationshipName = "author"
        books.maxCount = 0
        books.isOrdered = true
        author.setProperties([NSAttributeDescription(name: "name", type: .stringAttributeType), books])
        let book = NSEntityDescription(name: "Book")
        let writer = NSRelationshipDescription(name: "author", destinationEntityName: "Author")
        writer.inverseRelationshipName = "books"
        writer.maxCount = 1
        book.setProperties([NSAttributeDescription(name: "title", type: .stringAttributeType),
                            NSAttributeDescription(name: "published", type: .dateAttributeType),
                            NSAttributeDescription(name: "pages", type: .integer32AttributeType), writer])
        let model = NSManagedObjectModel(entities: [author, book])
        try! model.link()
        return model
    }

    static func context(_ url: URL, model: NSManagedObjectModel = model()) throws -> NSManagedObjectContext {
        JSONDirectoryStore.register()
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: JSONDirectoryStore.type, at: url)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }

    @Test func objectsAreSavedAsReadableFilesAndReadBack() throws {
        let url = try TemporaryDirectory.make().appendingPathComponent("Library.store")
        let context = try Self.context(url)
        try context.performAndWait {
            let ann = NSEntityDescription.insertNewObject(forEntityName: "Author", into: context)
            ann.setValue("Ann", forKey: "name")
            for (title, pages) in [("Second", 200), ("First", 100)] {
                let book = NSEntityDescription.insertNewObject(forEntityName: "Book", into: context)
                book.setValue(title, forKey: "title")
                book.setValue(Int32(pages), forKey: "pages")
                book.setValue(Date(timeIntervalSince1970: 1_700_000_000.5), forKey: "published")
                ann.mutableOrderedSetValue(forKey: "books").add(book)
            }
            try context.save()
        }
        // The files a person reads.
        let books = try JSONSerialization.jsonObject(with: Data(contentsOf: url.appendingPathComponent("Book.json"))) as? [String: Any]
        let records = try #require(books?["objects"] as? [[String: Any]])
        #expect(records.map { $0["title"] as? String } == ["Second", "First"])
        #expect(records.map { $0["ref"] as? String } == ["Book-2", "Book-3"])
        #expect(records[0]["author"] as? String == "Author-1")
        #expect(records[0]["published"] as? String == "2023-11-14T22:13:20.500Z")
        let authors = try String(contentsOf: url.appendingPathComponent("Author.json"), encoding: .utf8)
        #expect(authors.contains("\"books\" : [\n        \"Book-2\",\n        \"Book-3\"\n      ]"), "\(authors)")
        #expect(FileManager.default.fileExists(atPath: url.appendingPathComponent("metadata.json").path))

        // Read back by a new coordinator, order and values kept; an edit and a new object are written.
        let again = try Self.context(url)
        try again.performAndWait {
            let ann = try #require(try again.fetch(NSFetchRequest<NSManagedObject>(entityName: "Author")).first)
            let titles = ann.mutableOrderedSetValue(forKey: "books").allObjects.compactMap { $0.propertyValue(forKey: "title") as? String }
            #expect(titles == ["Second", "First"])
            let request = NSFetchRequest<NSManagedObject>(entityName: "Book")
            request.predicate = NSPredicate(format: "pages > 150")
            #expect(try again.fetch(request).map { $0.propertyValue(forKey: "title") as? String } == ["Second"])
            let third = NSEntityDescription.insertNewObject(forEntityName: "Book", into: again)
            third.setValue("Third", forKey: "title")
            third.setValue(ann, forKey: "author")
            try again.save()
        }
        let written = try String(contentsOf: url.appendingPathComponent("Book.json"), encoding: .utf8)
        #expect(written.contains("\"ref\" : \"Book-4\""), "\(written)")
    }

    @Test func badFilesAreRefusedNamingTheFileAndTheObject() throws {
        let url = try TemporaryDirectory.make().appendingPathComponent("Library.store")
        _ = try Self.context(url)  // creates the directory
        try Data("{}".utf8).write(to: url.appendingPathComponent("metadata.json"))
        try Data(#"{"entity": "Book", "objects": [{"ref": "Book-1", "title": "X", "author": "Author-9"}]}"#.utf8)
            .write(to: url.appendingPathComponent("Book.json"))
        let missing = try #require(throws: CoreDataError.self) { try Self.context(url) }
        #expect(missing.message.contains("Book.json: Book-1.author refers to Author-9, which is not in the store"), "\(missing.message)")
        try Data(#"{"entity": "Book", "objects": [{"ref": "Book-1", "pages": "many"}]}"#.utf8).write(to: url.appendingPathComponent("Book.json"))
        let wrongType = try #require(throws: CoreDataError.self) { try Self.context(url) }
        #expect(wrongType.message.contains("Book.json: Book-1.pages: many is not"), "\(wrongType.message)")
        try Data(#"{"entity": "Book", "objects": [{"ref": "Book-1"}, {"ref": "Book-1"}]}"#.utf8).write(to: url.appendingPathComponent("Book.json"))
        let duplicate = try #require(throws: CoreDataError.self) { try Self.context(url) }
        #expect(duplicate.message.contains("Book-1: the reference is used twice"), "\(duplicate.message)")
    }

    @Test func coredataOpensItWithType() throws {
        let directory = try TemporaryDirectory.make()
        let store = directory.appendingPathComponent("Recipes.store").path
        let model = Fixtures.projectRoot.appendingPathComponent("SampleStores/Recipes/Recipes.xcdatamodeld").path
        let created = try CommandRunner.run(["create", store, "--model", model, "--type", "jsondirectory"])
        #expect(created.status == 0, "\(created.standardError)")
        let insert = try CommandRunner.run(["insert", store, "Chef", "name=Ada", "--model", model, "--type", "jsondirectory"])
        #expect(insert.status == 0, "\(insert.standardError)")
        let count = try CommandRunner.run(["count", store, "Chef", "--model", model, "--type", "jsondirectory"])
        #expect(count.standardOutput == "1\n", "\(count.standardError)")
        #expect(try String(contentsOfFile: store + "/Chef.json", encoding: .utf8).contains("\"name\" : \"Ada\""))
        // Converted from the Recipes sample and back, the objects are the same.
        let sample = Fixtures.projectRoot.appendingPathComponent("SampleStores/Recipes/Recipes.sqlite").path
        let json = directory.appendingPathComponent("Sample.store").path
        let converted = try CommandRunner.run(["convert", sample, json, "--to", "jsondirectory"])
        #expect(converted.status == 0, "\(converted.standardError)")
        let query = ["Chef", "--keys", "name,email,recipeCount", "--sort", "name", "--format", "jsonl"]
        let fromSQLite = try CommandRunner.run(["query", sample] + query)
        let fromJSON = try CommandRunner.run(["query", json, "--model", model, "--type", "jsondirectory"] + query)
        #expect(fromJSON.status == 0, "\(fromJSON.standardError)")
        #expect(fromJSON.standardOutput == fromSQLite.standardOutput)
    }
}
