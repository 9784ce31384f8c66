import CoreDataModel
import CoreDataObjectGraph
import CoreDataSQLiteFormat
import CoreDataTestSupport
import Foundation
import Predicates
import SQLiteDatabase
import Testing

/// The optimistic-locking versions (`Z_OPT`) saves bind: objects changed only through an inverse carry the version
/// of their row, whatever it is (Apple's stores hold versions other than 1); damaged versions and counters are refused
/// with a clear error and nothing written.
struct SaveVersionTests {
    private func rows(_ url: URL, _ sql: String) throws -> [[SQLiteValue]] {
        try Connection(path: url.path, mode: .readOnly).query(sql)
    }

    private func fetch(_ context: NSManagedObjectContext, _ entity: String, _ format: String? = nil) throws -> [NSManagedObject] {
        let request = NSFetchRequest<NSManagedObject>(entityName: entity)
        if let format { request.predicate = try Predicates.NSPredicate(parsing: format) }
        return try context.fetch(request)
    }

    /// A model like Apple's Recipes sample in the way that matters here: nothing in it is validated, so no save
    /// reads a row only to validate it. Shelf ←→> Book (nullify), Book <<—>> Tag (join table), Book —>> Page and
    /// Book —> Cover (cascade), every property optional.
    static func model() -> NSManagedObjectModel {
        func entity(_ name: String, _ properties: [NSPropertyDescription]) -> NSEntityDescription {
            let entity = NSEntityDescription(name: name)
            entity.setProperties(properties)
            for property in entity.ownProperties { property.isOptional = true }
            return entity
        }
        func relationship(_ name: String, to destination: String, inverse: String, toMany: Bool,
                          rule: NSDeleteRule = .nullifyDeleteRule) -> NSRelationshipDescription {
            let relationship = NSRelationshipDescription(name: name, destinationEntityName: destination)
            relationship.inverseRelationshipName = inverse
            relationship.maxCount = toMany ? 0 : 1
            relationship.deleteRule = rule
            return relationship
        }
        return NSManagedObjectModel(entities: [
            entity("Shelf", [NSAttributeDescription(name: "name", type: .stringAttributeType),
                             relationship("books", to: "Book", inverse: "shelf", toMany: true)]),
            entity("Book", [NSAttributeDescription(name: "title", type: .stringAttributeType),
                            relationship("shelf", to: "Shelf", inverse: "books", toMany: false),
                            relationship("tags", to: "Tag", inverse: "books", toMany: true),
                            relationship("pages", to: "Page", inverse: "book", toMany: true, rule: .cascadeDeleteRule),
                            relationship("cover", to: "Cover", inverse: "book", toMany: false, rule: .cascadeDeleteRule)]),
            entity("Tag", [NSAttributeDescription(name: "label", type: .stringAttributeType),
                           relationship("books", to: "Book", inverse: "tags", toMany: true)]),
            entity("Page", [NSAttributeDescription(name: "number", type: .integer64AttributeType),
                            relationship("book", to: "Book", inverse: "pages", toMany: false)]),
            entity("Cover", [NSAttributeDescription(name: "colour", type: .stringAttributeType),
                             relationship("book", to: "Book", inverse: "cover", toMany: false)]),
        ])
    }

    /// A store of `model()` whose rows hold versions far from 1 (`Z_OPT = 10 × Z_PK + 3`): shelves 1 and 2; books 1–3
    /// (on shelves 1, 2, 1); tags 1 and 2 (book 1 has both, book 2 has tag 1); pages 1 and 2 of book 1; cover 1 of book 1.
    static func storeWithVersions() throws -> (url: URL, model: NSManagedObjectModel) {
        let model = model()
        let url = try TemporaryDirectory.make().appendingPathComponent("Shelves.sqlite")
        try SQLiteStoreCreator.createStore(at: url, model: model)
        let stack = try TestStack(storeURL: url, model: model, options: [:])
        try stack.context.performAndWait {
            let context = stack.context
            func make(_ entity: String, _ key: String, _ value: Any) -> NSManagedObject {
                let object = NSEntityDescription.insertNewObject(forEntityName: entity, into: context)
                object.setValue(value, forKey: key)
                return object
            }
            let shelves = (1...2).map { make("Shelf", "name", "Shelf \($0)") }
            let books = (1...3).map { make("Book", "title", "Book \($0)") }
            let tags = (1...2).map { make("Tag", "label", "Tag \($0)") }
            for (book, shelf) in zip(books, [shelves[0], shelves[1], shelves[0]]) { book.setValue(shelf, forKey: "shelf") }
            books[0].setValue(Set(tags), forKey: "tags")
            books[1].setValue(Set([tags[0]]), forKey: "tags")
            for number in 1...2 { make("Page", "number", Int64(number)).setValue(books[0], forKey: "book") }
            make("Cover", "colour", "red").setValue(books[0], forKey: "book")
            try context.save()
        }
        let connection = try Connection(path: url.path, mode: .readWrite)
        for table in ["ZSHELF", "ZBOOK", "ZTAG", "ZPAGE", "ZCOVER"] {
            try connection.execute(sql: "UPDATE \(table) SET Z_OPT = 10 * Z_PK + 3")
        }
        return (url, model)
    }

    @Test(.enabled(if: Fixtures.isAvailable, "\(Fixtures.absenceMessage)"))
    func deletingFromApplesRecipesStoreUpdatesTheUnreadRecipeType() throws {
        let url = try Fixtures.copy("stores/apple-recipes-ios11/Recipes.sqlite")
        let model = try #require(try SQLiteStoreFile(path: url.path).cachedModel())
        let type = try #require(try rows(url, "SELECT ZTYPE FROM ZRECIPE WHERE ZNAME = 'Recipe 2'").first?.first?.int64Value)
        let version = try #require(try rows(url, "SELECT Z_OPT FROM ZRECIPETYPE WHERE Z_PK = \(type)").first?.first?.int64Value)
        #expect(version != 1, "the fixture's recipe type holds a version other than 1, which hid nothing here")
        let stack = try TestStack(storeURL: url, model: model, options: [:])
        try stack.context.performAndWait {
            let recipes = try fetch(stack.context, "Recipe", "name == \"Recipe 2\"")
            try #require(recipes.count == 1)
            stack.context.delete(recipes[0])
            try stack.context.save()
        }
        #expect(try rows(url, "SELECT count(*) FROM ZRECIPE WHERE ZNAME = 'Recipe 2'") == [[.integer(0)]])
        #expect(try rows(url, "SELECT Z_OPT FROM ZRECIPETYPE WHERE Z_PK = \(type)") == [[.integer(version + 1)]])
        #expect(try rows(url, "PRAGMA integrity_check") == [[.text("ok")]])
    }

    @Test func deleteRulesUpdateUnreadRowsAtTheirOwnVersions() throws {
        let (url, model) = try Self.storeWithVersions()
        let stack = try TestStack(storeURL: url, model: model, options: [:])
        try stack.context.performAndWait {
            // Only book 1 is read: its shelf (to-many inverse, nullify), tags (many-to-many, nullify), pages and cover
            // (cascade) are reached as faults.
            let book = try #require(try fetch(stack.context, "Book", "title == \"Book 1\"").first)
            stack.context.delete(book)
            try stack.context.save()
        }
        #expect(try rows(url, "SELECT Z_PK FROM ZBOOK ORDER BY Z_PK") == [[.integer(2)], [.integer(3)]])
        #expect(try rows(url, "SELECT Z_OPT FROM ZSHELF ORDER BY Z_PK") == [[.integer(14)], [.integer(23)]], "shelf 1 lost book 1")
        #expect(try rows(url, "SELECT Z_OPT FROM ZTAG ORDER BY Z_PK") == [[.integer(14)], [.integer(24)]], "both tags lost it")
        let join = try #require(StoreLayout(model: model).joinTables.first)
        #expect(try rows(url, "SELECT count(*) FROM \(join.name)") == [[.integer(1)]], "book 2's tag stays")
        #expect(try rows(url, "SELECT count(*) FROM ZPAGE") == [[.integer(0)]], "the pages went by cascade")
        #expect(try rows(url, "SELECT count(*) FROM ZCOVER") == [[.integer(0)]], "the cover went by cascade")
        #expect(try rows(url, "PRAGMA integrity_check") == [[.text("ok")]])
    }

    @Test func inverseChangesFromEverySideCarryTheRowsVersions() throws {
        let (url, model) = try Self.storeWithVersions()
        let stack = try TestStack(storeURL: url, model: model, options: [:])
        try stack.context.performAndWait {
            let books = try fetch(stack.context, "Book", "title IN {\"Book 2\", \"Book 3\"}")
            let two = try #require(books.first { $0.value(forKey: "title") as? String == "Book 2" })
            let three = try #require(books.first { $0.value(forKey: "title") as? String == "Book 3" })
            // To-one whose inverse is to-many: book 3 moves from shelf 1 to shelf 2, neither read.
            three.setValue(stack.context.object(with: try #require(two.objectIDForToOne("shelf"))), forKey: "shelf")
            // Many-to-many: tag 2, a fault again, gains book 2.
            let tag = try #require(try fetch(stack.context, "Tag", "label == \"Tag 2\"").first)
            stack.context.refresh(tag, mergeChanges: false)
            two.mutableSetValue(forKey: "tags").add(tag)
            // One-to-one: the cover of book 1 (a fault) moves to book 2.
            let cover = try #require(try fetch(stack.context, "Cover").first)
            cover.setValue(two, forKey: "book")
            try stack.context.save()
        }
        #expect(try rows(url, "SELECT ZSHELF FROM ZBOOK ORDER BY Z_PK") == [[.integer(1)], [.integer(2)], [.integer(2)]])
        #expect(try rows(url, "SELECT Z_OPT FROM ZSHELF ORDER BY Z_PK") == [[.integer(14)], [.integer(24)]])
        #expect(try rows(url, "SELECT Z_OPT FROM ZTAG ORDER BY Z_PK") == [[.integer(13)], [.integer(24)]])
        #expect(try rows(url, "SELECT ZCOVER, Z_OPT FROM ZBOOK ORDER BY Z_PK")
                == [[.null, .integer(14)], [.integer(1), .integer(24)], [.null, .integer(34)]])
        #expect(try rows(url, "SELECT ZBOOK, Z_OPT FROM ZCOVER") == [[.integer(2), .integer(14)]])
        let join = try #require(StoreLayout(model: model).joinTables.first)
        #expect(try rows(url, "SELECT count(*) FROM \(join.name)") == [[.integer(4)]])
    }

    @Test func aRowReadThenChangedByAnotherWriterIsStillAConflict() throws {
        let (url, model) = try Self.storeWithVersions()
        let stack = try TestStack(storeURL: url, model: model, options: [:])
        try stack.context.performAndWait {
            let book = try #require(try fetch(stack.context, "Book", "title == \"Book 1\"").first)
            let shelf = try #require(book.value(forKey: "shelf") as? NSManagedObject)
            _ = shelf.value(forKey: "name")  // read at version 13
            try Connection(path: url.path, mode: .readWrite).execute(sql: "UPDATE ZSHELF SET ZNAME = 'Other', Z_OPT = Z_OPT + 1 WHERE Z_PK = 1")
            stack.context.delete(book)
            do {
                try stack.context.save()
                Issue.record("the shelf changed by another writer was overwritten")
            } catch let error as CoreDataError {
                #expect(error.code == .managedObjectMerge && error.affectedObjectIDs == [shelf.objectID], "\(error)")
            }
        }
        #expect(try rows(url, "SELECT count(*) FROM ZBOOK WHERE Z_PK = 1") == [[.integer(1)]], "nothing was saved")
    }

    @Test(arguments: [("NULL", "holds NULL as its version"), ("'seven'", "holds the text \"seven\" as its version"),
                      ("2.5", "holds the real number 2.5 as its version")])
    func aVersionThatIsNotAnIntegerIsReportedAsDamage(value: String, expected: String) throws {
        let (url, model) = try Self.storeWithVersions()
        try Connection(path: url.path, mode: .readWrite).execute(sql: "UPDATE ZBOOK SET Z_OPT = \(value) WHERE Z_PK = 2")
        let before = try rows(url, "SELECT * FROM ZBOOK")
        let stack = try TestStack(storeURL: url, model: model, options: [:])
        try stack.context.performAndWait {
            let book = try #require(try fetch(stack.context, "Book", "title == \"Book 2\"").first)
            book.setValue("Changed", forKey: "title")
            do {
                try stack.context.save()
                Issue.record("a damaged version was matched")
            } catch let error as CoreDataError {
                #expect(error.code == .persistentStoreSave, "damage, not a conflict a merge policy could resolve")
                #expect(error.message.contains("Book row 2 of ZBOOK \(expected) (Z_OPT)"), "\(error.message)")
                #expect(error.message.contains("nothing was saved"))
            }
        }
        #expect(try rows(url, "SELECT * FROM ZBOOK") == before)
    }

    @Test func aVersionAtTheLargestIntegerIsRefused() throws {
        let (url, model) = try Self.storeWithVersions()
        try Connection(path: url.path, mode: .readWrite).execute(sql: "UPDATE ZBOOK SET Z_OPT = \(Int64.max) WHERE Z_PK = 2")
        let before = try rows(url, "SELECT * FROM ZBOOK")
        let stack = try TestStack(storeURL: url, model: model, options: [:])
        try stack.context.performAndWait {
            let book = try #require(try fetch(stack.context, "Book", "title == \"Book 2\"").first)
            book.setValue("Changed", forKey: "title")
            let error = try #require(throws: CoreDataError.self) { try stack.context.save() }
            #expect(error.message.contains("its version (Z_OPT) is 9223372036854775807") && error.message.contains("nothing was saved"),
                    "\(error.message)")
        }
        #expect(try rows(url, "SELECT * FROM ZBOOK") == before)
    }

    @Test(arguments: ["9223372036854775807", "9223372036854775806", "-5", "'many'"])
    func aPrimaryKeyCounterThatCannotAdvanceIsRefused(maximum: String) throws {
        let (url, model) = try Self.storeWithVersions()
        try Connection(path: url.path, mode: .readWrite).execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = \(maximum) WHERE Z_NAME = 'Tag'")
        let before = try rows(url, "SELECT * FROM Z_PRIMARYKEY") + rows(url, "SELECT * FROM ZTAG")
        let stack = try TestStack(storeURL: url, model: model, options: [:])
        try stack.context.performAndWait {
            for label in ["a", "b"] {
                NSEntityDescription.insertNewObject(forEntityName: "Tag", into: stack.context).setValue(label, forKey: "label")
            }
            let error = try #require(throws: CoreDataError.self) { try stack.context.save() }
            #expect(error.message.contains("Z_MAX") && error.message.contains("Tag") && error.message.contains("nothing was saved"),
                    "\(error.message)")
        }
        #expect(try rows(url, "SELECT * FROM Z_PRIMARYKEY") + rows(url, "SELECT * FROM ZTAG") == before)
    }
}
