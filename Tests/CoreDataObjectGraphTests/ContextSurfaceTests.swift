import CoreDataModel
import CoreDataObjectGraph
import CoreDataTestSupport
import Foundation
import Testing

/// Context API that the surface probe found missing, used as Apple's documentation uses it:
/// `propagatesDeletesAtEndOfEvent`, the deprecated `NSLocking` methods and `shouldHandleInaccessibleFault`.
@Suite(.serialized)
struct ContextSurfaceTests {
    /// `Author` with a to-many `books` that cascades, `Book` with a to-one `author` that nullifies.
    private static func model() -> NSManagedObjectModel {
        let author = NSEntityDescription(name: "Author")
        let book = NSEntityDescription(name: "Book")
        let books = NSRelationshipDescription(name: "books", destinationEntityName: "Book")
        books.deleteRule = .cascadeDeleteRule
        let owner = NSRelationshipDescription(name: "author", destinationEntityName: "Author")
        owner.maxCount = 1
        owner.deleteRule = .nullifyDeleteRule
        books.inverseRelationshipName = "author"
        owner.inverseRelationshipName = "books"
        author.setProperties([NSAttributeDescription(name: "name", type: .stringAttributeType), books])
        book.setProperties([NSAttributeDescription(name: "title", type: .stringAttributeType), owner])
        return NSManagedObjectModel(entities: [author, book])
    }

    private func context() throws -> NSManagedObjectContext {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: Self.model())
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType,
                                           at: try TemporaryDirectory.make().appendingPathComponent("Books.sqlite"), options: nil)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }

    /// An author with two books, saved.
    private func saveAuthor(in context: NSManagedObjectContext) throws -> NSManagedObject {
        let author = NSEntityDescription.insertNewObject(forEntityName: "Author", into: context)
        author.setValue("Ada", forKey: "name")
        for title in ["Notes", "Letters"] {
            let book = NSEntityDescription.insertNewObject(forEntityName: "Book", into: context)
            book.setValue(title, forKey: "title")
            book.setValue(author, forKey: "author")
        }
        try context.save()
        return author
    }

    @Test func deleteRulesRunAtTheEndOfEachEventByDefault() throws {
        let context = try context()
        try context.performAndWait {
            #expect(context.propagatesDeletesAtEndOfEvent, "Apple's default")
            let author = try saveAuthor(in: context)
            let books = author.mutableSetValue(forKey: "books").allObjects
            context.delete(author)
            context.processPendingChanges()
            #expect(books.allSatisfy { $0.isDeleted }, "the cascade ran at the end of the event")
            #expect(context.deletedObjects.count == 3)
        }
    }

    /// Apple: with `propagatesDeletesAtEndOfEvent` false, delete rules run only when the context saves.
    @Test func deleteRulesWaitForTheSaveWhenNotPropagatedAtTheEndOfEachEvent() throws {
        let context = try context()
        try context.performAndWait {
            context.propagatesDeletesAtEndOfEvent = false
            let author = try saveAuthor(in: context)
            let books = author.mutableSetValue(forKey: "books").allObjects
            context.delete(author)
            context.processPendingChanges()
            #expect(books.allSatisfy { !$0.isDeleted }, "no cascade before the save")
            #expect(context.deletedObjects.count == 1)
            #expect(books.allSatisfy { $0.value(forKey: "author") as? NSManagedObject === author }, "no nullify either")

            try context.save()
            #expect(try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Book")) == 0,
                    "the save applied the cascade")
            #expect(try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Author")) == 0)
        }
    }

    /// A deletion undone before the save never cascaded.
    @Test func aDeletionUndoneBeforeTheSaveLeavesItsDestinations() throws {
        let context = try context()
        try context.performAndWait {
            context.propagatesDeletesAtEndOfEvent = false
            let author = try saveAuthor(in: context)
            context.delete(author)
            context.processPendingChanges()
            context.rollback()
            try context.save()
            #expect(try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Book")) == 2)
        }
    }

    /// Apple's deprecated `NSLocking` methods: a thread that holds the lock keeps others out until it unlocks; the
    /// holder may take it again.
    @available(*, deprecated)
    @Test func theContextLockKeepsOtherThreadsOutUntilUnlocked() throws {
        let context = try context()
        let locking: any NSLocking = context
        locking.lock()
        #expect(context.tryLock(), "the holder may take it again")
        context.unlock()
        // Another thread (`DispatchQueue.sync` would run the block on this one).
        func onAnotherThread(_ body: @escaping @Sendable () -> Bool) -> Bool {
            let done = DispatchSemaphore(value: 0)
            nonisolated(unsafe) var result = false
            Thread { result = body(); done.signal() }.start()
            done.wait()
            return result
        }
        nonisolated(unsafe) let shared = context
        #expect(onAnotherThread { shared.tryLock() } == false, "another thread cannot take a held lock")
        locking.unlock()
        let taken = onAnotherThread {
            let taken = shared.tryLock()
            if taken { shared.unlock() }
            return taken
        }
        #expect(taken, "released after as many unlocks as locks")
    }

    /// Apple's default answer is `shouldDeleteInaccessibleFaults`.
    @Test func inaccessibleFaultsAreHandledAsTheDeletingSwitchSays() throws {
        let context = try context()
        try context.performAndWait {
            let author = try saveAuthor(in: context)
            let name = author.entity.propertiesByName["name"]
            #expect(context.shouldHandleInaccessibleFault(author, for: author.objectID, triggeredByProperty: name))
            context.shouldDeleteInaccessibleFaults = false
            #expect(!context.shouldHandleInaccessibleFault(author, for: author.objectID, triggeredByProperty: nil))
        }
    }

    /// Apple's typed store-type spellings of the coordinator's class metadata methods read and write what the string
    /// forms do.
    @Test func metadataIsReadAndWrittenThroughTypedStoreTypes() throws {
        let url = try TemporaryDirectory.make().appendingPathComponent("Meta.sqlite")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: Self.model())
        let store = try coordinator.addPersistentStore(type: .sqlite, configuration: nil, at: url, options: nil)
        try coordinator.remove(store)
        var metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: url)
        #expect(metadata[NSStoreTypeKey] as? String == NSSQLiteStoreType)
        metadata["importedAt"] = "2026-11-26"
        try NSPersistentStoreCoordinator.setMetadata(metadata, forPersistentStoreOf: .sqlite, at: url)
        let read = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url, options: nil)
        #expect(read["importedAt"] as? String == "2026-11-26")
        #expect(read[NSStoreUUIDKey] as? String == metadata[NSStoreUUIDKey] as? String)
    }

    /// A subclass with a plain Swift property beside its modeled one.
    final class Sketch: NSManagedObject {
        var scratch = 0
    }

    /// Apple's default: a change to a property the model does not declare leaves the object unchanged.
    @Test func unmodeledPropertiesDoNotMarkObjectsChanged() throws {
        #expect(NSManagedObject.contextShouldIgnoreUnmodeledPropertyChanges)
        #expect(Sketch.contextShouldIgnoreUnmodeledPropertyChanges)
        let entity = NSEntityDescription(name: "SurfaceSketch")
        entity.setProperties([NSAttributeDescription(name: "title", type: .stringAttributeType)])
        NSManagedObject.register(Sketch.self, forEntityName: "SurfaceSketch")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: NSManagedObjectModel(entities: [entity]))
        try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil, options: nil)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            let sketch = try #require(NSEntityDescription.insertNewObject(forEntityName: "SurfaceSketch", into: context) as? Sketch)
            try context.save()
            sketch.scratch = 7
            #expect(!sketch.hasChanges && !context.hasChanges)
            sketch.setValue("draft", forKey: "title")
            #expect(sketch.hasChanges, "a modeled property does")
        }
    }

    /// Two contexts on one coordinator: `reader` holds the author and one of its books, `writer` renames the author.
    private func renamedBehindTheReader(detecting: Bool, policy: NSMergePolicy = .error) throws -> (NSManagedObjectContext, NSManagedObject, Result<Void, any Error>) {
        let reader = try context()
        let writer = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        writer.persistentStoreCoordinator = reader.persistentStoreCoordinator
        let (author, book) = try reader.performAndWait {
            let author = try saveAuthor(in: reader)
            reader.mergePolicy = policy
            let book = try #require(author.mutableSetValue(forKey: "books").allObjects.first)
            if detecting { reader.detectConflicts(for: author) }
            return (author, book)
        }
        try writer.performAndWait {
            writer.object(with: author.objectID).setValue("Augusta", forKey: "name")
            try writer.save()
        }
        let result = reader.performAndWait {
            book.setValue("Notes, revised", forKey: "title")
            return Result { try reader.save() }
        }
        return (reader, author, result)
    }

    /// Apple: after `detectConflicts(for:)`, the next save fails if the object changed in the store, although the
    /// context did not change it.
    @Test func aMarkedUnchangedObjectChangedInTheStoreFailsTheSave() throws {
        let (_, _, unmarked) = try renamedBehindTheReader(detecting: false)
        #expect(throws: Never.self, "an unchanged object is not checked unless marked") { try unmarked.get() }

        let (reader, author, marked) = try renamedBehindTheReader(detecting: true)
        #expect(throws: (any Error).self) { try marked.get() }
        if case .failure(let error) = marked {
            #expect((error as NSError).code == NSManagedObjectMergeError)
            #expect((error as NSError).domain == NSCocoaErrorDomain)
        }
        reader.performAndWait {
            #expect(author.value(forKey: "name") as? String == "Ada", "the object keeps what it read")
            #expect(reader.hasChanges, "the failed save keeps the changes")
        }
    }

    /// With a merge policy, the marked unchanged object takes the store's values and the save goes on.
    @Test func aMergePolicyResolvesAMarkedObjectsConflict() throws {
        let (reader, author, result) = try renamedBehindTheReader(detecting: true, policy: .mergeByPropertyObjectTrump)
        #expect(throws: Never.self) { try result.get() }
        reader.performAndWait {
            #expect(author.value(forKey: "name") as? String == "Augusta")
            #expect(!reader.hasChanges)
        }
    }

    /// Apple's global policy names, assigned as Apple's documentation does, are the shared policies.
    @Test func theGlobalMergePolicyNamesAreTheSharedPolicies() throws {
        let context = try context()
        context.mergePolicy = NSMergeByPropertyObjectTrumpMergePolicy
        #expect(context.mergePolicy.mergeType == .mergeByPropertyObjectTrumpMergePolicyType)
        let pairs: [(NSMergePolicy, NSMergePolicyType)] = [
            (NSErrorMergePolicy, .errorMergePolicyType), (NSMergeByPropertyStoreTrumpMergePolicy, .mergeByPropertyStoreTrumpMergePolicyType),
            (NSOverwriteMergePolicy, .overwriteMergePolicyType), (NSRollbackMergePolicy, .rollbackMergePolicyType),
        ]
        for (policy, type) in pairs { #expect(policy.mergeType == type) }
    }

    /// Apple's `userInfo`: the program's values, kept with the context.
    @Test func aContextKeepsItsUserInfo() throws {
        let context = try context()
        #expect(context.userInfo.count == 0)
        context.userInfo["importBatch"] = 3
        #expect(context.userInfo["importBatch"] as? Int == 3)
        #expect(try self.context().userInfo.count == 0, "each context has its own")
    }
}
