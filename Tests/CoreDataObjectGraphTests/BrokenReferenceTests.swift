import CoreDataModel
import CoreDataObjectGraph
import CoreDataSQLiteFormat
import CoreDataTestSupport
import Foundation
import SQLiteDatabase
import Testing

/// Relationships whose stored keys lead to a row of another entity, or to no row: the object reached reports a clear
/// error (`faultingError`, a thrown error) naming the relationship and the row, never a trap on a key the other
/// entity lacks and never that row's values under the wrong entity's names.
struct BrokenReferenceTests {
    /// Item (abstract) ← Book, Magazine in one table; Review → Book (to-one); Reader ←→> Book (many-to-many).
    static func store() throws -> (url: URL, model: NSManagedObjectModel) {
        let item = NSEntityDescription(name: "Item"), book = NSEntityDescription(name: "Book")
        let magazine = NSEntityDescription(name: "Magazine"), review = NSEntityDescription(name: "Review")
        let reader = NSEntityDescription(name: "Reader")
        item.isAbstract = true
        book.superentityName = "Item"
        magazine.superentityName = "Item"
        func relationship(_ name: String, _ destination: String, _ inverse: String, toMany: Bool) -> NSRelationshipDescription {
            let relationship = NSRelationshipDescription(name: name, destinationEntityName: destination)
            relationship.inverseRelationshipName = inverse
            relationship.maxCount = toMany ? 0 : 1
            return relationship
        }
        item.setProperties([NSAttributeDescription(name: "title", type: .stringAttributeType)])
        book.setProperties([NSAttributeDescription(name: "isbn", type: .stringAttributeType),
                            relationship("reviews", "Review", "book", toMany: true), relationship("readers", "Reader", "books", toMany: true)])
        magazine.setProperties([NSAttributeDescription(name: "issue", type: .integer64AttributeType)])
        review.setProperties([NSAttributeDescription(name: "text", type: .stringAttributeType), relationship("book", "Book", "reviews", toMany: false)])
        reader.setProperties([NSAttributeDescription(name: "name", type: .stringAttributeType), relationship("books", "Book", "readers", toMany: true)])
        for entity in [item, book, magazine, review, reader] { for property in entity.ownProperties { property.isOptional = true } }
        let model = NSManagedObjectModel(entities: [item, book, magazine, review, reader])
        let url = try TemporaryDirectory.make().appendingPathComponent("Broken.sqlite")
        try SQLiteStoreCreator.createStore(at: url, model: model)
        let stack = try TestStack(storeURL: url, model: model, options: [:])
        try stack.context.performAndWait {
            let context = stack.context
            let novel = NSEntityDescription.insertNewObject(forEntityName: "Book", into: context)
            novel.setValue("Novel", forKey: "title")
            novel.setValue("978-1", forKey: "isbn")
            let weekly = NSEntityDescription.insertNewObject(forEntityName: "Magazine", into: context)
            weekly.setValue("Weekly", forKey: "title")
            let review = NSEntityDescription.insertNewObject(forEntityName: "Review", into: context)
            review.setValue("fine", forKey: "text")
            review.setValue(novel, forKey: "book")
            let reader = NSEntityDescription.insertNewObject(forEntityName: "Reader", into: context)
            reader.setValue("Ada", forKey: "name")
            reader.setValue(Set([novel]), forKey: "books")
            try context.save()
        }
        return (url, model)
    }

    private func damage(_ url: URL, _ sql: String) throws {
        try Connection(path: url.path, mode: .readWrite).execute(sql: sql)
    }

    private func first(_ context: NSManagedObjectContext, _ entity: String) throws -> NSManagedObject {
        try #require(try context.fetch(NSFetchRequest<NSManagedObject>(entityName: entity)).first)
    }

    @Test func aToManyThroughAJoinTableToARowOfAnotherEntityReportsIt() throws {
        let (url, model) = try Self.store()
        let join = try #require(StoreLayout(model: model).joinTables.first)
        try damage(url, "UPDATE \(join.name) SET \(join.relationshipName == "books" ? join.destinationKeyColumn : join.sourceKeyColumn) = 2")
        let stack = try TestStack(storeURL: url, model: model)
        try stack.context.performAndWait {
            let reader = try first(stack.context, "Reader")
            #expect(throws: CoreDataError.self, "prefetching") { try stack.context.prefetchRelationships(["books"], for: [reader]) }
            #expect((reader.value(forKey: "books") as? Set<NSManagedObject>)?.isEmpty == true, "no Magazine among the books")
            let error = try #require(reader.faultingError as? CoreDataError)
            #expect(error.message.hasPrefix("Reader p1's relationship books refers to row 2 of ZITEM, which is of entity Magazine, not Book"),
                    "\(error.message)")
        }
    }

    @Test func aToManyKeyLeadingToNoRowReportsIt() throws {
        let (url, model) = try Self.store()
        let join = try #require(StoreLayout(model: model).joinTables.first)
        try damage(url, "UPDATE \(join.name) SET \(join.relationshipName == "books" ? join.destinationKeyColumn : join.sourceKeyColumn) = 42")
        let stack = try TestStack(storeURL: url, model: model)
        try stack.context.performAndWait {
            let reader = try first(stack.context, "Reader")
            _ = reader.value(forKey: "books")
            let error = try #require(reader.faultingError as? CoreDataError)
            #expect(error.message.contains("refers to row 42 of ZITEM, which does not exist (CoreData could not fulfill a fault)"), "\(error.message)")
        }
    }

    @Test(arguments: [false, true])
    func aToOneToARowOfAnotherEntityIsAFaultThatReportsIt(magazineRegisteredFirst: Bool) throws {
        let (url, model) = try Self.store()
        try damage(url, "UPDATE ZREVIEW SET ZBOOK = 2")
        let stack = try TestStack(storeURL: url, model: model)
        try stack.context.performAndWait {
            let magazine = magazineRegisteredFirst ? try first(stack.context, "Magazine") : nil
            let review = try first(stack.context, "Review")
            let book = review.value(forKey: "book") as? NSManagedObject
            if magazineRegisteredFirst {
                // The registered object for row 2 is the Magazine: the relationship refuses it.
                #expect(book == nil && magazine != nil)
                let error = try #require(review.faultingError as? CoreDataError)
                #expect(error.message.hasPrefix("Review p1's relationship book refers to row 2, which is of entity Magazine, not Book"), "\(error.message)")
            } else {
                // A Book fault for row 2, which must not fill with the Magazine's values.
                let fault = try #require(book)
                #expect(fault.value(forKey: "isbn") == nil && fault.value(forKey: "title") == nil)
                let error = try #require(fault.faultingError as? CoreDataError)
                #expect(error.message.hasSuffix("row 2 of ZITEM is of entity Magazine, not Book"), "\(error.message)")
                #expect(throws: CoreDataError.self) { try stack.context.existingObject(with: fault.objectID) }
            }
        }
    }

    @Test func aToOneKeyLeadingToNoRowReportsIt() throws {
        let (url, model) = try Self.store()
        try damage(url, "UPDATE ZREVIEW SET ZBOOK = 99")
        let stack = try TestStack(storeURL: url, model: model)
        try stack.context.performAndWait {
            let book = try #require(try first(stack.context, "Review").value(forKey: "book") as? NSManagedObject)
            #expect(book.value(forKey: "isbn") == nil)
            let error = try #require(book.faultingError as? CoreDataError)
            #expect(error.message.hasPrefix("CoreData could not fulfill a fault for") && error.message.hasSuffix("there is no row 99 in ZITEM"),
                    "\(error.message)")
        }
    }
}
