import CoreDataMacros
import CoreDataModel
import CoreDataObjectGraph
import CoreDataTestSupport
import Foundation
import Predicates
import Testing

/// A subclass used as Apple's documentation and Xcode's generated code use it: `init(context:)`, `entity()`, a typed
/// `fetchRequest()`, primitive accessors in a custom accessor, `validateValue(_:forKey:)` and
/// `hasPersistentChangedValues`.
@Suite(.serialized)
struct SubclassAPITests {
    final class Author: NSManagedObject {
        @Managed var name: String?
        @Managed var draft: String?

        /// A custom accessor as Apple's documentation writes one.
        var shoutedName: String? {
            get {
                willAccessValue(forKey: "name")
                defer { didAccessValue(forKey: "name") }
                return (primitiveValue(forKey: "name") as? String)?.uppercased()
            }
            set {
                willChangeValue(forKey: "name")
                setPrimitiveValue(newValue?.lowercased(), forKey: "name")
                didChangeValue(forKey: "name")
            }
        }
    }

    private func context() throws -> NSManagedObjectContext {
        let author = NSEntityDescription(name: "Author")
        let name = NSAttributeDescription(name: "name", type: .stringAttributeType)
        name.maximumValueString = "10"
        let draft = NSAttributeDescription(name: "draft", type: .stringAttributeType)
        draft.isTransient = true
        author.setProperties([name, draft])
        let model = NSManagedObjectModel(entities: [author])
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, at: try TemporaryDirectory.make().appendingPathComponent("A.sqlite"), options: nil)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }

    @Test func initContextEntityAndATypedFetchRequest() throws {
        let context = try context()
        try context.performAndWait {
            let author = Author(context: context)
            author.name = "Ada"
            #expect(author.isInserted && author.entity.entityName == "Author")
            #expect(Author.entity().entityName == "Author")
            try context.save()
            let request: NSFetchRequest<Author> = Author.fetchRequest()
            request.predicate = Predicates.NSPredicate(format: "name == %@", "Ada")
            let found: [Author] = try context.fetch(request)
            #expect(found.count == 1 && found.first === author)
        }
    }

    @Test func primitiveAccessorsInACustomAccessor() throws {
        let context = try context()
        try context.performAndWait {
            let author = Author(context: context)
            author.shoutedName = "GRACE"
            #expect(author.name == "grace")
            #expect(author.shoutedName == "GRACE")
            try context.save()
            author.shoutedName = "Hopper"
            #expect(author.hasChanges && author.changedValues().keys.sorted() == ["name"])
        }
    }

    @Test func hasPersistentChangedValuesIgnoresTransients() throws {
        let context = try context()
        try context.performAndWait {
            let author = Author(context: context)
            author.name = "Ada"
            try context.save()
            #expect(!author.hasPersistentChangedValues)
            author.draft = "notes"
            #expect(!author.hasPersistentChangedValues)
            author.name = "Ada L."
            #expect(author.hasPersistentChangedValues)
        }
    }

    @Test func validateValueChecksOneValueAgainstTheModel() throws {
        let context = try context()
        context.performAndWait {
            let author = Author(context: context)
            var fine: AnyObject? = "Ada" as NSString
            #expect(throws: Never.self) { try author.validateValue(&fine, forKey: "name") }
            var long: AnyObject? = "Ada Lovelace, Countess" as NSString
            do {
                try author.validateValue(&long, forKey: "name")
                Issue.record("a too-long name should not validate")
            } catch {
                let error = error as NSError
                #expect(error.code == NSValidationStringTooLongError)
                #expect(error.userInfo[NSValidationKeyErrorKey] as? String == "name")
            }
            // The object itself is unchanged.
            #expect(author.name == nil)
        }
    }
}
