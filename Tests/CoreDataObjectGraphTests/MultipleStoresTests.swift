import CoreDataModel
import CoreDataObjectGraph
import CoreDataTestSupport
import Foundation
import Predicates
import Testing
import class Predicates.NSSortDescriptor

/// Several stores under one coordinator, as Apple's configurations allow: an entity in two configurations lives in
/// two stores, fetches read both (or those of `affectedStores`), `assign(_:to:)` chooses where an insert goes, and a
/// save writes each store's share.
struct MultipleStoresTests {
    /// Feedback is in both configurations; Book only in "Part1", with a to-many `feedbacks` to Feedback.
    static func model() -> NSManagedObjectModel {
        let feedback = NSEntityDescription()
        feedback.name = "Feedback"
        let alias = NSAttributeDescription()
        alias.name = "authorAlias"
        alias.attributeType = .stringAttributeType
        let rating = NSAttributeDescription()
        rating.name = "rating"
        rating.attributeType = .doubleAttributeType
        rating.defaultValue = 0.0
        let book = NSEntityDescription()
        book.name = "Book"
        let title = NSAttributeDescription()
        title.name = "title"
        title.attributeType = .stringAttributeType
        let feedbacks = NSRelationshipDescription()
        feedbacks.name = "feedbacks"
        feedbacks.destinationEntity = feedback
        feedbacks.maxCount = 0
        feedbacks.deleteRule = .nullifyDeleteRule
        let bookOfFeedback = NSRelationshipDescription()
        bookOfFeedback.name = "book"
        bookOfFeedback.destinationEntity = book
        bookOfFeedback.maxCount = 1
        bookOfFeedback.deleteRule = .nullifyDeleteRule
        feedbacks.inverseRelationship = bookOfFeedback
        bookOfFeedback.inverseRelationship = feedbacks
        feedback.properties = [alias, rating, bookOfFeedback]
        book.properties = [title, feedbacks]
        let model = NSManagedObjectModel()
        model.entities = [feedback, book]
        model.setEntities([feedback, book], forConfigurationName: "Part1")
        model.setEntities([feedback], forConfigurationName: "Part2")
        return model
    }

    struct Stack {
        let coordinator: NSPersistentStoreCoordinator
        let part1: NSPersistentStore
        let part2: NSPersistentStore
        let context: NSManagedObjectContext
    }

    static func stack(_ directory: URL? = nil) throws -> Stack {
        let directory = try directory ?? TemporaryDirectory.make()
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model())
        let part1 = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: "Part1",
                                                       at: directory.appendingPathComponent("part1.sqlite"))
        let part2 = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: "Part2",
                                                       at: directory.appendingPathComponent("part2.sqlite"))
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return Stack(coordinator: coordinator, part1: part1, part2: part2, context: context)
    }

    static func insertFeedback(_ alias: String, rating: Double, into context: NSManagedObjectContext) -> NSManagedObject {
        let feedback = NSEntityDescription.insertNewObject(forEntityName: "Feedback", into: context)
        feedback.setValue(alias, forKey: "authorAlias")
        feedback.setValue(rating, forKey: "rating")
        return feedback
    }

    @Test func fetchesReadEveryStoreOrTheAffectedOnes() throws {
        let stack = try Self.stack()
        let context = stack.context
        try context.performAndWait {
            let first = Self.insertFeedback("Bea", rating: 2, into: context)
            context.assign(first, to: stack.part1)
            let second = Self.insertFeedback("Ann", rating: 4, into: context)
            context.assign(second, to: stack.part2)
            let third = Self.insertFeedback("Cid", rating: 3, into: context)
            context.assign(third, to: stack.part2)
            try context.save()
            #expect(first.objectID.persistentStore === stack.part1)
            #expect(second.objectID.persistentStore === stack.part2)
            context.reset()

            let all = NSFetchRequest<NSManagedObject>(entityName: "Feedback")
            #expect(try context.count(for: all) == 3)
            all.sortDescriptors = [NSSortDescriptor(key: "authorAlias", ascending: true)]
            #expect(try context.fetch(all).map { $0.value(forKey: "authorAlias") as? String } == ["Ann", "Bea", "Cid"],
                    "the stores' results merge in the request's order")
            all.fetchOffset = 1
            all.fetchLimit = 1
            #expect(try context.fetch(all).map { $0.value(forKey: "authorAlias") as? String } == ["Bea"])
            #expect(try context.count(for: all) == 1)

            let onlyPart2 = NSFetchRequest<NSManagedObject>(entityName: "Feedback")
            onlyPart2.affectedStores = [stack.part2]
            onlyPart2.sortDescriptors = [NSSortDescriptor(key: "rating", ascending: false)]
            #expect(try context.fetch(onlyPart2).map { $0.value(forKey: "authorAlias") as? String } == ["Ann", "Cid"])
            #expect(try context.count(for: onlyPart2) == 2)
            let ids = NSFetchRequest<NSManagedObjectID>(entityName: "Feedback")
            ids.resultType = .managedObjectIDResultType
            ids.affectedStores = [stack.part1]
            #expect(try context.fetch(ids) == [first.objectID])
            ids.affectedStores = nil
            #expect(Set(try context.fetch(ids)) == [first.objectID, second.objectID, third.objectID])

            let rows = NSFetchRequest<NSDictionary>(entityName: "Feedback")
            rows.resultType = .dictionaryResultType
            rows.propertiesToFetch = ["authorAlias"]
            #expect(Set(try context.fetch(rows).compactMap { $0["authorAlias"] as? String }) == ["Ann", "Bea", "Cid"])
            rows.sortDescriptors = [NSSortDescriptor(key: "authorAlias", ascending: true)]
            #expect(throws: (any Error).self, "a sorted dictionary fetch across stores is refused, not returned unsorted") {
                try context.fetch(rows)
            }
            rows.affectedStores = [stack.part2]
            #expect(try context.fetch(rows).compactMap { $0["authorAlias"] as? String } == ["Ann", "Cid"])
        }
    }

    @Test func anUnassignedInsertGoesToTheFirstStoreThatHoldsItsEntityAndEachStoreKeepsItsShare() throws {
        let directory = try TemporaryDirectory.make()
        let stack = try Self.stack(directory)
        try stack.context.performAndWait {
            let unassigned = Self.insertFeedback("Dee", rating: 1, into: stack.context)
            let assigned = Self.insertFeedback("Eve", rating: 5, into: stack.context)
            stack.context.assign(assigned, to: stack.part2)
            try stack.context.obtainPermanentIDs(for: [unassigned, assigned])
            #expect(assigned.objectID.storeIdentifier == stack.part2.identifier, "the key came from the assigned store")
            try stack.context.save()
            #expect(unassigned.objectID.persistentStore === stack.part1)
            #expect(assigned.objectID.persistentStore === stack.part2)

            // An update and a deletion go to the stores that hold the objects.
            assigned.setValue(4.5, forKey: "rating")
            stack.context.delete(unassigned)
            try stack.context.save()
        }
        let reopened = try Self.stack(directory)
        try reopened.context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Feedback")
            request.affectedStores = [reopened.part1]
            #expect(try reopened.context.fetch(request).isEmpty)
            request.affectedStores = [reopened.part2]
            let kept = try reopened.context.fetch(request)
            #expect(kept.map { $0.value(forKey: "rating") as? Double } == [4.5])
        }
    }

    @Test func aRelationshipAcrossStoresIsRefusedAndNothingIsWritten() throws {
        let stack = try Self.stack()
        try stack.context.performAndWait {
            let book = NSEntityDescription.insertNewObject(forEntityName: "Book", into: stack.context)
            book.setValue("Dune", forKey: "title")
            let feedback = Self.insertFeedback("Fay", rating: 5, into: stack.context)
            stack.context.assign(feedback, to: stack.part2)
            feedback.setValue(book, forKey: "book")
            #expect {
                try stack.context.save()
            } throws: { error in
                "\(error)".contains("different stores") && ("\(error)".contains("Feedback.book") || "\(error)".contains("Book.feedbacks"))
            }
            #expect(stack.context.hasChanges, "the context keeps every change")
            #expect(feedback.objectID.isTemporaryID && book.objectID.isTemporaryID)

            // Both in Part1, the save goes through.
            stack.context.assign(feedback, to: stack.part1)
            try stack.context.save()
            #expect(feedback.objectID.persistentStore === stack.part1)
            #expect(book.objectID.persistentStore === stack.part1)
        }
    }

    @Test func anObjectAssignedToAStoreWithoutItsEntityIsRefusedByTheSave() throws {
        let stack = try Self.stack()
        try stack.context.performAndWait {
            let book = NSEntityDescription.insertNewObject(forEntityName: "Book", into: stack.context)
            stack.context.assign(book, to: stack.part2)
            #expect {
                try stack.context.save()
            } throws: { error in
                "\(error)".contains("configuration Part2 does not include that entity")
            }
            #expect(stack.context.hasChanges)
        }
    }

    @Test func whenALaterStoreRefusesItsShareTheEarlierSharesStaySavedAndTheRestKeepTheirChanges() throws {
        let directory = try TemporaryDirectory.make()
        _ = try Self.stack(directory)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: Self.model())
        let part1 = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: "Part1",
                                                       at: directory.appendingPathComponent("part1.sqlite"))
        let part2 = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: "Part2",
                                                       at: directory.appendingPathComponent("part2.sqlite"),
                                                       options: [NSReadOnlyPersistentStoreOption: true])
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            let kept = Self.insertFeedback("Gus", rating: 1, into: context)
            context.assign(kept, to: part1)
            let refused = Self.insertFeedback("Hal", rating: 2, into: context)
            context.assign(refused, to: part2)
            #expect(throws: (any Error).self) { try context.save() }
            #expect(kept.objectID.persistentStore === part1 && !kept.hasChanges, "the first store's share was written")
            #expect(refused.isInserted && refused.objectID.isTemporaryID, "the refused share keeps its changes")
            #expect(context.insertedObjects == [refused])

            let request = NSFetchRequest<NSManagedObject>(entityName: "Feedback")
            request.affectedStores = [part1]
            request.includesPendingChanges = false
            let inPart1 = try context.fetch(request)
            #expect(inPart1 == [kept])
            // Still assigned to the read-only store: the next save is refused again rather than going elsewhere.
            #expect(throws: (any Error).self) { try context.save() }
            #expect(refused.objectID.isTemporaryID)
        }
    }

    @Test func anUnassignedInsertSkipsAReadOnlyStore() throws {
        let directory = try TemporaryDirectory.make()
        _ = try Self.stack(directory)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: Self.model())
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: "Part1",
                                           at: directory.appendingPathComponent("part1.sqlite"),
                                           options: [NSReadOnlyPersistentStoreOption: true])
        let part2 = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: "Part2",
                                                       at: directory.appendingPathComponent("part2.sqlite"))
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            let feedback = Self.insertFeedback("Ida", rating: 3, into: context)
            try context.save()
            #expect(feedback.objectID.persistentStore === part2, "the first writable store that holds Feedback")
        }
    }

    @Test func insertsOfSharesNotTriedKeepTheirAssignedStores() throws {
        let directory = try TemporaryDirectory.make()
        _ = try Self.stack(directory)
        let model = Self.model()
        model.setEntities([try #require(model.entitiesByName["Feedback"])], forConfigurationName: "Part3")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let part1 = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: "Part1",
                                                       at: directory.appendingPathComponent("part1.sqlite"),
                                                       options: [NSReadOnlyPersistentStoreOption: true])
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: "Part2",
                                           at: directory.appendingPathComponent("part2.sqlite"))
        let part3 = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: "Part3",
                                                       at: directory.appendingPathComponent("part3.sqlite"))
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            let refused = Self.insertFeedback("Jo", rating: 1, into: context)
            context.assign(refused, to: part1)
            let untried = Self.insertFeedback("Kim", rating: 2, into: context)
            context.assign(untried, to: part3)
            #expect(throws: (any Error).self, "the read-only store refuses its share first") { try context.save() }
            context.delete(refused)
            try context.save()
            #expect(untried.objectID.persistentStore === part3, "still the store it was assigned to, not the first writable one")
        }
    }
}
