import CoreDataModel
import CoreDataObjectGraph
import CoreDataTestSupport
import Foundation
import Predicates
import Testing

/// `NSFetchedResultsController` as Apple's documentation uses it: a sorted request, sections by a key path, the
/// objects by index path, the section index, and the errors `performFetch()` throws.
struct FetchedResultsControllerTests {
    private static let contacts: [(String, String?, Int64)] = [
        ("Bea", "family", 2), ("Ann", "work", 1), ("Cid", "friends", 3), ("Dan", "family", 4), ("Eve", "work", 5),
        ("Fay", "friends", 6),
    ]

    @Test func performFetchSplitsTheObjectsIntoSectionsByTheKeyPath() throws {
        let stack = try ContactsStack(Self.contacts)
        try stack.context.performAndWait {
            let controller = NSFetchedResultsController(fetchRequest: ContactsStack.byGroupRequest(), managedObjectContext: stack.context,
                                                        sectionNameKeyPath: "group", cacheName: nil)
            #expect(controller.fetchedObjects == nil && controller.sections == nil)
            try controller.performFetch()
            let sections = try #require(controller.sections)
            #expect(sections.map(\.name) == ["family", "friends", "work"])
            #expect(sections.map(\.numberOfObjects) == [2, 2, 2])
            #expect(sections.map(\.indexTitle) == ["F", "F", "W"])
            #expect(controller.namesBySection == [["Bea", "Dan"], ["Cid", "Fay"], ["Ann", "Eve"]])
            #expect(controller.fetchedObjects?.map { $0.value(forKey: "name") as? String } == ["Bea", "Dan", "Cid", "Fay", "Ann", "Eve"])
            let eve = controller.object(at: path(2, 1))
            #expect(eve.value(forKey: "name") as? String == "Eve")
            #expect(controller.indexPath(forObject: eve) == path(2, 1))
            #expect(controller.indexPath(forObject: controller.object(at: path(1, 0))) == path(1, 0))
            // The section index: each section's title once, and the first section with a title.
            #expect(controller.sectionIndexTitles == ["F", "W"])
            #expect(controller.section(forSectionIndexTitle: "W", at: 1) == 2)
            #expect(controller.section(forSectionIndexTitle: "F", at: 0) == 0)
            #expect(controller.sectionIndexTitle(forSectionName: "work") == "W")
        }
    }

    @Test func withoutASectionKeyPathThereIsOneSectionEvenWhenNothingMatches() throws {
        let stack = try ContactsStack(Self.contacts)
        try stack.context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Contact")
            request.sortDescriptors = [Predicates.NSSortDescriptor(key: "rank", ascending: false)]
            let controller = NSFetchedResultsController(fetchRequest: request, managedObjectContext: stack.context,
                                                        sectionNameKeyPath: nil, cacheName: "Contacts")
            try controller.performFetch()
            #expect(controller.sections?.count == 1)
            #expect(controller.sections?.first?.numberOfObjects == 6)
            #expect(controller.namesBySection == [["Fay", "Eve", "Dan", "Cid", "Bea", "Ann"]])
            #expect(controller.cacheName == "Contacts")
            #expect(controller.sectionIndexTitles.isEmpty)
            // A changed request takes effect at the next fetch.
            request.predicate = Predicates.NSPredicate(format: "rank > 100")
            try controller.performFetch()
            #expect(controller.fetchedObjects?.isEmpty == true)
            #expect(controller.sections?.count == 1 && controller.sections?.first?.numberOfObjects == 0)
            NSFetchedResultsController<NSManagedObject>.deleteCache(withName: "Contacts")
            NSFetchedResultsController<NSManagedObject>.deleteCache(withName: nil)
        }
    }

    @Test func aNilSectionValueNamesTheEmptySection() throws {
        let stack = try ContactsStack([("Gus", nil, 1), ("Hal", "work", 2)])
        try stack.context.performAndWait {
            let controller = NSFetchedResultsController(fetchRequest: ContactsStack.byGroupRequest(), managedObjectContext: stack.context,
                                                        sectionNameKeyPath: "group", cacheName: nil)
            try controller.performFetch()
            #expect(controller.sections?.map(\.name) == ["", "work"])
            #expect(controller.sections?.map(\.indexTitle) == [nil, "W"])
            #expect(controller.sectionIndexTitles == ["W"])
        }
    }

    @Test func theControllerIncludesTheContextsUnsavedObjectsAndSubentities() throws {
        let stack = try ContactsStack(Self.contacts)
        try stack.context.performAndWait {
            ContactsStack.insert(("Abe", "work", 0), into: stack.context)
            ContactsStack.insert(("Ada", "family", 9), entity: "Colleague", into: stack.context)
            let request = ContactsStack.byGroupRequest()
            let controller = NSFetchedResultsController(fetchRequest: request, managedObjectContext: stack.context,
                                                        sectionNameKeyPath: "group", cacheName: nil)
            try controller.performFetch()
            #expect(controller.namesBySection == [["Ada", "Bea", "Dan"], ["Cid", "Fay"], ["Abe", "Ann", "Eve"]])
            request.includesSubentities = false
            try controller.performFetch()
            #expect(controller.namesBySection == [["Bea", "Dan"], ["Cid", "Fay"], ["Abe", "Ann", "Eve"]])
        }
    }

    @Test func aRequestWithoutSortDescriptorsThrowsAnErrorNotATrap() throws {
        let stack = try ContactsStack(Self.contacts)
        stack.context.performAndWait {
            let controller = NSFetchedResultsController(fetchRequest: NSFetchRequest<NSManagedObject>(entityName: "Contact"),
                                                        managedObjectContext: stack.context, sectionNameKeyPath: nil, cacheName: nil)
            do {
                try controller.performFetch()
                Issue.record("a request without sort descriptors was fetched")
            } catch {
                let error = error as NSError
                #expect(error.domain == NSCocoaErrorDomain)
                #expect(error.code == 134_060)
                #expect("\(error)".contains("sort descriptors"))
            }
            #expect(controller.fetchedObjects == nil)
        }
    }

    @Test func anEmptyListOfSortDescriptorsIsAcceptedAsApplesIs() throws {
        let stack = try ContactsStack(Self.contacts)
        try stack.context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Contact")
            request.sortDescriptors = []
            let controller = NSFetchedResultsController(fetchRequest: request, managedObjectContext: stack.context,
                                                        sectionNameKeyPath: nil, cacheName: nil)
            try controller.performFetch()
            #expect(controller.fetchedObjects?.count == Self.contacts.count)
        }
    }

    @Test func objectsOutOfSectionOrderAreAnError() throws {
        let stack = try ContactsStack(Self.contacts)
        stack.context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Contact")
            request.sortDescriptors = [Predicates.NSSortDescriptor(key: "name", ascending: true)]
            let controller = NSFetchedResultsController(fetchRequest: request, managedObjectContext: stack.context,
                                                        sectionNameKeyPath: "group", cacheName: nil)
            #expect {
                try controller.performFetch()
            } throws: { error in
                "\(error)".contains("The fetched object at index 3 has an out of order section name 'family'")
            }
            #expect(controller.sections == nil)
        }
    }

    @Test func anUnknownEntityIsAnError() throws {
        let stack = try ContactsStack()
        stack.context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Nobody")
            request.sortDescriptors = [Predicates.NSSortDescriptor(key: "name", ascending: true)]
            let controller = NSFetchedResultsController(fetchRequest: request, managedObjectContext: stack.context,
                                                        sectionNameKeyPath: nil, cacheName: nil)
            #expect(throws: (any Error).self) { try controller.performFetch() }
        }
    }

    @Test func aControllerOfASubclassTypeGivesTypedObjects() throws {
        let stack = try ContactsStack(Self.contacts)
        try stack.context.performAndWait {
            let request = NSFetchRequest<FRCContact>(entityName: "Contact")
            request.sortDescriptors = [Predicates.NSSortDescriptor(key: "group", ascending: true),
                                       Predicates.NSSortDescriptor(key: "rank", ascending: false)]
            request.predicate = Predicates.NSPredicate(format: "rank >= %d", 2)
            let controller = NSFetchedResultsController(fetchRequest: request, managedObjectContext: stack.context,
                                                        sectionNameKeyPath: "group", cacheName: nil)
            try controller.performFetch()
            let first: FRCContact = controller.object(at: path(0, 0))
            #expect(first.name == "Dan" && first.rank == 4)
            #expect(controller.fetchedObjects?.map(\.name) == ["Dan", "Bea", "Fay", "Cid", "Eve"])
            #expect(controller.indexPath(forObject: first) == path(0, 0))
        }
    }

    /// A subclass overrides the section index rule, and a delegate's rule wins over both.
    @Test func theSectionIndexTitleRuleCanBeOverriddenAndTheDelegatesWins() throws {
        final class WholeNameTitles<Result: NSFetchRequestResult>: NSFetchedResultsController<Result> {
            override func sectionIndexTitle(forSectionName sectionName: String) -> String? { sectionName.uppercased() }
        }
        final class ShortTitles: NSFetchedResultsControllerDelegate {
            func controller(_ controller: NSFetchedResultsController<NSManagedObject>, sectionIndexTitleForSectionName sectionName: String) -> String? {
                String(sectionName.prefix(2))
            }
        }
        let stack = try ContactsStack(Self.contacts)
        try stack.context.performAndWait {
            let controller = WholeNameTitles(fetchRequest: ContactsStack.byGroupRequest(), managedObjectContext: stack.context,
                                             sectionNameKeyPath: "group", cacheName: nil)
            try controller.performFetch()
            #expect(controller.sectionIndexTitles == ["FAMILY", "FRIENDS", "WORK"])
            #expect(controller.section(forSectionIndexTitle: "WORK", at: 2) == 2)
            let delegate = ShortTitles()
            controller.delegate = delegate
            #expect(controller.sections?.map(\.indexTitle) == ["fa", "fr", "wo"])
            #expect(controller.sectionIndexTitles == ["fa", "fr", "wo"])
            controller.delegate = nil
            #expect(controller.sectionIndexTitles == ["FAMILY", "FRIENDS", "WORK"])
        }
    }

    @Test func changeTypesHaveApplesRawValues() {
        #expect(NSFetchedResultsChangeType.insert.rawValue == 1)
        #expect(NSFetchedResultsChangeType.delete.rawValue == 2)
        #expect(NSFetchedResultsChangeType.move.rawValue == 3)
        #expect(NSFetchedResultsChangeType.update.rawValue == 4)
    }

    @Test func batchedFetchesGiveTheSameSections() throws {
        let many = (0..<1_200).map { ("c\(String(format: "%04d", $0))", ["a", "b", "c"][$0 % 3] as String?, Int64($0)) }
        let stack = try ContactsStack(many)
        try stack.context.performAndWait {
            let request = ContactsStack.byGroupRequest()
            request.fetchBatchSize = 20
            let controller = NSFetchedResultsController(fetchRequest: request, managedObjectContext: stack.context,
                                                        sectionNameKeyPath: "group", cacheName: nil)
            try controller.performFetch()
            #expect(controller.sections?.map(\.numberOfObjects) == [400, 400, 400])
            #expect(controller.object(at: path(1, 0)).value(forKey: "name") as? String == "c0001")
        }
    }
}
