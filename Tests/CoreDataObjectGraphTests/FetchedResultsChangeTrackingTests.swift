import CoreDataModel
import CoreDataObjectGraph
import CoreDataTestSupport
import Foundation
import Predicates
import Testing
import UndoManagement

/// A fetched results controller's change tracking, as Apple's documentation describes it: with a delegate, the
/// changes of its context (processed, saved, merged from another context, saved by a child) reach the delegate as
/// section and object changes between will- and did-change-content, with old index paths for deletes and updates and
/// new ones for inserts and moves; without one, nothing is tracked.
struct FetchedResultsChangeTrackingTests {
    private static let contacts: [(String, String?, Int64)] = [
        ("Bea", "family", 2), ("Ann", "work", 1), ("Cid", "friends", 3), ("Dan", "family", 4), ("Eve", "work", 5),
        ("Fay", "friends", 6),
    ]

    private func contact(_ name: String, in context: NSManagedObjectContext) throws -> NSManagedObject {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Contact")
        request.predicate = Predicates.NSPredicate(format: "name == %@", name)
        return try #require(try context.fetch(request).first)
    }

    @Test func theDelegateHearsInsertsUpdatesMovesAndDeletes() throws {
        let stack = try ContactsStack(Self.contacts)
        try stack.context.performAndWait {
            let controller = NSFetchedResultsController(fetchRequest: ContactsStack.byGroupRequest(), managedObjectContext: stack.context,
                                                        sectionNameKeyPath: "group", cacheName: nil)
            let recorder = ChangeRecorder()
            controller.delegate = recorder
            try controller.performFetch()

            ContactsStack.insert(("Bob", "family", 7), into: stack.context)
            stack.context.processPendingChanges()
            #expect(recorder.take() == [.willChange, .object("Bob", .insert, nil, path(0, 1)), .didChange])

            // Not a sort key: an update, in place.
            try contact("Dan", in: stack.context).setValue(10, forKey: "rank")
            stack.context.processPendingChanges()
            #expect(recorder.take() == [.willChange, .object("Dan", .update, path(0, 2), path(0, 2)), .didChange])

            // A sort key that changes the order: a move, from the old index path to the new one.
            try contact("Bea", in: stack.context).setValue("Dee", forKey: "name")
            stack.context.processPendingChanges()
            #expect(recorder.take() == [.willChange, .object("Dee", .move, path(0, 0), path(0, 2)), .didChange])
            // A sort key that keeps the order: an update.
            try contact("Dee", in: stack.context).setValue("Deb", forKey: "name")
            stack.context.processPendingChanges()
            #expect(recorder.take() == [.willChange, .object("Deb", .update, path(0, 2), path(0, 2)), .didChange])

            stack.context.delete(try contact("Cid", in: stack.context))
            stack.context.processPendingChanges()
            #expect(recorder.take() == [.willChange, .object("Cid", .delete, path(1, 0), nil), .didChange])
            #expect(controller.namesBySection == [["Bob", "Dan", "Deb"], ["Fay"], ["Ann", "Eve"]])

            // Saving processes nothing new: the changes were reported already.
            try stack.context.save()
            #expect(recorder.take().isEmpty)
            // A change that leaves the objects of the request alone is not reported.
            ContactsStack.insert(("Ivy", "work", 1), entity: "Colleague", into: stack.context)
            let onlyContacts = ContactsStack.byGroupRequest()
            onlyContacts.includesSubentities = false
            let other = NSFetchedResultsController(fetchRequest: onlyContacts, managedObjectContext: stack.context,
                                                   sectionNameKeyPath: "group", cacheName: nil)
            let otherRecorder = ChangeRecorder()
            other.delegate = otherRecorder
            try other.performFetch()
            ContactsStack.insert(("Joe", "work", 1), entity: "Colleague", into: stack.context)
            stack.context.processPendingChanges()
            #expect(otherRecorder.take().isEmpty)
            #expect(recorder.take() == [.willChange, .object("Ivy", .insert, nil, path(2, 2)), .object("Joe", .insert, nil, path(2, 3)),
                                        .didChange])
        }
    }

    @Test func sectionsAreInsertedAndDeletedBeforeTheirObjects() throws {
        let stack = try ContactsStack(Self.contacts)
        try stack.context.performAndWait {
            let controller = NSFetchedResultsController(fetchRequest: ContactsStack.byGroupRequest(), managedObjectContext: stack.context,
                                                        sectionNameKeyPath: "group", cacheName: nil)
            let recorder = ChangeRecorder()
            controller.delegate = recorder
            try controller.performFetch()

            ContactsStack.insert(("Kim", "school", 1), into: stack.context)
            stack.context.processPendingChanges()
            #expect(recorder.take() == [.willChange, .section("school", 2, .insert), .object("Kim", .insert, nil, path(2, 0)), .didChange])

            stack.context.delete(try contact("Cid", in: stack.context))
            stack.context.delete(try contact("Fay", in: stack.context))
            stack.context.processPendingChanges()
            #expect(recorder.take() == [.willChange, .section("friends", 1, .delete), .object("Cid", .delete, path(1, 0), nil),
                                        .object("Fay", .delete, path(1, 1), nil), .didChange])
            #expect(controller.sections?.map(\.name) == ["family", "school", "work"])

            // A new section value: the object moves into the section, which ends when its last object leaves.
            try contact("Kim", in: stack.context).setValue("family", forKey: "group")
            stack.context.processPendingChanges()
            #expect(recorder.take() == [.willChange, .section("school", 1, .delete), .object("Kim", .move, path(1, 0), path(0, 2)),
                                        .didChange])
            #expect(controller.namesBySection == [["Bea", "Dan", "Kim"], ["Ann", "Eve"]])
            // Leaving the predicate is a delete; coming back an insert.
            controller.fetchRequest.predicate = Predicates.NSPredicate(format: "rank < 100")
            try controller.performFetch()
            try contact("Ann", in: stack.context).setValue(500, forKey: "rank")
            stack.context.processPendingChanges()
            #expect(recorder.take() == [.willChange, .object("Ann", .delete, path(1, 0), nil), .didChange])
            try contact("Ann", in: stack.context).setValue(50, forKey: "rank")
            stack.context.processPendingChanges()
            #expect(recorder.take() == [.willChange, .object("Ann", .insert, nil, path(1, 0)), .didChange])
        }
    }

    @Test func withoutADelegateTheResultsStayAsFetched() throws {
        let stack = try ContactsStack(Self.contacts)
        try stack.context.performAndWait {
            let controller = NSFetchedResultsController(fetchRequest: ContactsStack.byGroupRequest(), managedObjectContext: stack.context,
                                                        sectionNameKeyPath: "group", cacheName: nil)
            try controller.performFetch()
            let fetched = controller.fetchedObjects
            ContactsStack.insert(("Lea", "work", 1), into: stack.context)
            stack.context.delete(try contact("Ann", in: stack.context))
            try stack.context.save()
            // The same objects, the deleted one included.
            #expect(controller.fetchedObjects.map { $0.map(ObjectIdentifier.init) } == fetched.map { $0.map(ObjectIdentifier.init) })
            #expect(controller.sections?.map(\.numberOfObjects) == [2, 2, 2])
            // With a delegate again, the next fetch is tracked.
            let recorder = ChangeRecorder()
            controller.delegate = recorder
            try controller.performFetch()
            stack.context.delete(try contact("Lea", in: stack.context))
            stack.context.processPendingChanges()
            #expect(recorder.take() == [.willChange, .object("Lea", .delete, path(2, 1), nil), .didChange])
        }
    }

    @Test func aBackgroundContextsSaveReachesTheDelegateThroughAutomaticMerging() throws {
        let stack = try ContactsStack(Self.contacts)
        let recorder = ChangeRecorder()
        let controller = try stack.context.performAndWait {
            stack.context.automaticallyMergesChangesFromParent = true
            let controller = NSFetchedResultsController(fetchRequest: ContactsStack.byGroupRequest(), managedObjectContext: stack.context,
                                                        sectionNameKeyPath: "group", cacheName: nil)
            controller.delegate = recorder
            try controller.performFetch()
            return controller
        }
        let background = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        background.persistentStoreCoordinator = stack.coordinator
        try background.performAndWait {
            ContactsStack.insert(("Zoe", "work", 8), into: background)
            try contact("Dan", in: background).setValue(11, forKey: "rank")
            try contact("Eve", in: background).setValue("Amy", forKey: "name")
            background.delete(try contact("Fay", in: background))
            try background.save()
        }
        // The merge runs on the context's queue; waiting on that queue waits for it. As Apple's, the merge deletes the
        // object here (`delete(_:)`): it keeps its values until this context saves, so its name can still be read.
        stack.context.performAndWait {
            #expect(recorder.take() == [.willChange, .object("Fay", .delete, path(1, 1), nil), .object("Zoe", .insert, nil, path(2, 2)),
                                        .object("Amy", .move, path(2, 1), path(2, 0)), .object("Dan", .update, path(0, 1), path(0, 1)),
                                        .didChange])
            #expect(controller.namesBySection == [["Bea", "Dan"], ["Cid"], ["Amy", "Ann", "Zoe"]])
        }
    }

    @Test func anExplicitMergeReachesTheDelegate() throws {
        let stack = try ContactsStack(Self.contacts)
        let recorder = ChangeRecorder()
        let controller = try stack.context.performAndWait {
            let controller = NSFetchedResultsController(fetchRequest: ContactsStack.byGroupRequest(), managedObjectContext: stack.context,
                                                        sectionNameKeyPath: "group", cacheName: nil)
            controller.delegate = recorder
            try controller.performFetch()
            return controller
        }
        let background = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        background.persistentStoreCoordinator = stack.coordinator
        let saves = SavedNotifications()
        let observer = NotificationCenter.default.addObserver(forName: .NSManagedObjectContextDidSave, object: background, queue: nil) {
            saves.append($0)
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        try background.performAndWait {
            ContactsStack.insert(("Max", "friends", 1), into: background)
            try contact("Dan", in: background).setValue(40, forKey: "rank")
            try background.save()
        }
        let notification = try #require(saves.all.first)
        stack.context.performAndWait {
            // Nothing reached the controller by itself: this context does not merge automatically.
            #expect(recorder.take().isEmpty)
            stack.context.mergeChanges(fromContextDidSave: notification)
            #expect(recorder.take() == [.willChange, .object("Max", .insert, nil, path(1, 2)), .object("Dan", .update, path(0, 1), path(0, 1)),
                                        .didChange])
            #expect(controller.namesBySection == [["Bea", "Dan"], ["Cid", "Fay", "Max"], ["Ann", "Eve"]])
        }
    }

    @Test func aChildContextsSaveReachesTheParentsController() throws {
        let stack = try ContactsStack(Self.contacts)
        let recorder = ChangeRecorder()
        let controller = try stack.context.performAndWait {
            let controller = NSFetchedResultsController(fetchRequest: ContactsStack.byGroupRequest(), managedObjectContext: stack.context,
                                                        sectionNameKeyPath: "group", cacheName: nil)
            controller.delegate = recorder
            try controller.performFetch()
            return controller
        }
        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = stack.context
        try child.performAndWait {
            ContactsStack.insert(("Joy", "family", 3), into: child)
            try contact("Cid", in: child).setValue("Cal", forKey: "name")
            child.delete(try contact("Eve", in: child))
            try child.save()
        }
        stack.context.performAndWait {
            #expect(recorder.take() == [.willChange, .object("Eve", .delete, path(2, 1), nil), .object("Joy", .insert, nil, path(0, 2)),
                                        .object("Cal", .update, path(1, 0), path(1, 0)), .didChange])
            #expect(controller.namesBySection == [["Bea", "Dan", "Joy"], ["Cal", "Fay"], ["Ann"]])
        }
    }

    @Test func aChildThatMergesItsParentsSavesSeesThemInItsController() throws {
        let stack = try ContactsStack(Self.contacts)
        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = stack.context
        let recorder = ChangeRecorder()
        let controller = try child.performAndWait {
            child.automaticallyMergesChangesFromParent = true
            let controller = NSFetchedResultsController(fetchRequest: ContactsStack.byGroupRequest(), managedObjectContext: child,
                                                        sectionNameKeyPath: "group", cacheName: nil)
            controller.delegate = recorder
            try controller.performFetch()
            return controller
        }
        try stack.context.performAndWait {
            ContactsStack.insert(("Ace", "friends", 1), into: stack.context)
            try contact("Fay", in: stack.context).setValue(60, forKey: "rank")
            try stack.context.save()
        }
        child.performAndWait {
            #expect(recorder.take() == [.willChange, .object("Ace", .insert, nil, path(1, 0)), .object("Fay", .update, path(1, 1), path(1, 2)),
                                        .didChange])
            #expect(controller.namesBySection == [["Bea", "Dan"], ["Ace", "Cid", "Fay"], ["Ann", "Eve"]])
        }
    }

    @Test func undoAndRedoAreReportedAsTheChangesTheyMake() throws {
        let stack = try ContactsStack(Self.contacts)
        try stack.context.performAndWait {
            stack.context.undoManager = UndoManager()
            let controller = NSFetchedResultsController(fetchRequest: ContactsStack.byGroupRequest(), managedObjectContext: stack.context,
                                                        sectionNameKeyPath: "group", cacheName: nil)
            let recorder = ChangeRecorder()
            controller.delegate = recorder
            try controller.performFetch()
            ContactsStack.insert(("Ida", "school", 1), into: stack.context)
            stack.context.processPendingChanges()
            #expect(recorder.take() == [.willChange, .section("school", 2, .insert), .object("Ida", .insert, nil, path(2, 0)), .didChange])
            stack.context.undo()
            // The undone insertion's object left the context with its values ("?").
            #expect(recorder.take() == [.willChange, .section("school", 2, .delete), .object("?", .delete, path(2, 0), nil), .didChange])
            #expect(controller.sections?.map(\.name) == ["family", "friends", "work"])
            stack.context.redo()
            #expect(recorder.take() == [.willChange, .section("school", 2, .insert), .object("Ida", .insert, nil, path(2, 0)), .didChange])
        }
    }

    /// A controller of a subclass type reaches its delegate as a `NSFetchedResultsController<NSManagedObject>` view of
    /// itself, equal to it and showing its objects.
    @Test func aTypedControllersDelegateSeesItThroughAView() throws {
        final class Checker: NSFetchedResultsControllerDelegate {
            var seen: [(equal: Bool, count: Int?, first: String?, sections: Int?)] = []
            weak var expected: NSFetchedResultsController<FRCContact>?
            func controllerDidChangeContent(_ controller: NSFetchedResultsController<NSManagedObject>) {
                seen.append((expected.map { controller == $0 } ?? false, controller.fetchedObjects?.count,
                             controller.object(at: path(0, 0)).value(forKey: "name") as? String, controller.sections?.count))
            }
        }
        let stack = try ContactsStack(Self.contacts)
        try stack.context.performAndWait {
            let request = NSFetchRequest<FRCContact>(entityName: "Contact")
            request.sortDescriptors = [Predicates.NSSortDescriptor(key: "name", ascending: true)]
            let controller = NSFetchedResultsController(fetchRequest: request, managedObjectContext: stack.context,
                                                        sectionNameKeyPath: nil, cacheName: nil)
            let checker = Checker()
            checker.expected = controller
            controller.delegate = checker
            try controller.performFetch()
            let added = FRCContact(context: stack.context)
            added.name = "Aaron"
            stack.context.processPendingChanges()
            #expect(checker.seen.count == 1)
            #expect(checker.seen.first?.equal == true)
            #expect(checker.seen.first?.count == 7)
            #expect(checker.seen.first?.first == "Aaron")
            #expect(checker.seen.first?.sections == 1)
            #expect(controller.fetchedObjects?.first === added)
        }
    }

    @Test func aDelegateTakingTheDifferenceGetsOnlyTheDifference() throws {
        final class DifferenceRecorder: NSFetchedResultsControllerDelegate {
            var differences: [CollectionDifference<NSManagedObjectID>] = []
            var otherCalls = 0
            func controller(_ controller: NSFetchedResultsController<NSManagedObject>, didChangeContentWith diff: CollectionDifference<NSManagedObjectID>) {
                differences.append(diff)
            }
            func controllerWillChangeContent(_ controller: NSFetchedResultsController<NSManagedObject>) { otherCalls += 1 }
            func controllerDidChangeContent(_ controller: NSFetchedResultsController<NSManagedObject>) { otherCalls += 1 }
        }
        let stack = try ContactsStack(Self.contacts)
        try stack.context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Contact")
            request.sortDescriptors = [Predicates.NSSortDescriptor(key: "rank", ascending: true)]
            let controller = NSFetchedResultsController(fetchRequest: request, managedObjectContext: stack.context,
                                                        sectionNameKeyPath: nil, cacheName: nil)
            let recorder = DifferenceRecorder()
            controller.delegate = recorder
            try controller.performFetch()
            var ids = controller.fetchedObjects!.map(\.objectID)
            ContactsStack.insert(("Nia", "work", 0), into: stack.context)
            try contact("Ann", in: stack.context).setValue(100, forKey: "rank")
            stack.context.delete(try contact("Cid", in: stack.context))
            stack.context.processPendingChanges()
            let difference = try #require(recorder.differences.last)
            #expect(recorder.differences.count == 1 && recorder.otherCalls == 0)
            #expect(difference.insertions.count == 2 && difference.removals.count == 2)
            ids = try #require(ids.applying(difference))
            #expect(ids == controller.fetchedObjects!.map(\.objectID))
            #expect(controller.fetchedObjects!.map { $0.value(forKey: "name") as? String } == ["Nia", "Bea", "Dan", "Eve", "Fay", "Ann"])

            // With sections the difference is not used; the other methods are.
            let sectioned = NSFetchedResultsController(fetchRequest: ContactsStack.byGroupRequest(), managedObjectContext: stack.context,
                                                       sectionNameKeyPath: "group", cacheName: nil)
            let sectionedRecorder = DifferenceRecorder()
            sectioned.delegate = sectionedRecorder
            try sectioned.performFetch()
            try contact("Dan", in: stack.context).setValue(1, forKey: "rank")
            stack.context.processPendingChanges()
            #expect(sectionedRecorder.differences.isEmpty && sectionedRecorder.otherCalls == 2)
        }
    }

    /// Seeded random edits, one event at a time: the reported changes, applied to the old sections as a table view
    /// applies them, give the controller's new sections, which are a fresh fetch's; the difference form, applied to
    /// the old object IDs, gives the new ones.
    @Test(arguments: [UInt64(1), 2, 3])
    func randomEditsKeepTheResultsEqualToAFreshFetch(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let groups = ["a", "b", "c", "d", nil]
        let initial = (0..<40).map { ("n\($0 * 7 % 40)", groups[$0 % 5], Int64($0 % 6)) }
        let stack = try ContactsStack(initial)
        try stack.context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Contact")
            request.sortDescriptors = [Predicates.NSSortDescriptor(key: "group", ascending: true),
                                       Predicates.NSSortDescriptor(key: "rank", ascending: false)]
            request.predicate = Predicates.NSPredicate(format: "rank != 3")
            let controller = NSFetchedResultsController(fetchRequest: request, managedObjectContext: stack.context,
                                                        sectionNameKeyPath: "group", cacheName: nil)
            let table = TableReplica()
            controller.delegate = table
            try controller.performFetch()
            table.load(controller)
            let flatRequest = NSFetchRequest<NSManagedObject>(entityName: "Contact")
            flatRequest.sortDescriptors = [Predicates.NSSortDescriptor(key: "rank", ascending: true)]
            let flat = NSFetchedResultsController(fetchRequest: flatRequest, managedObjectContext: stack.context,
                                                  sectionNameKeyPath: nil, cacheName: nil)
            let differences = DifferenceReplica()
            flat.delegate = differences
            try flat.performFetch()
            differences.ids = flat.fetchedObjects!.map(\.objectID)
            var serial = 100
            for step in 0..<120 {
                let all = try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Contact"))
                for _ in 0...random.next(below: 3) {
                    switch random.next(below: 6) {
                    case 0:
                        serial += 1
                        ContactsStack.insert(("n\(serial)", groups[Int(random.next(below: 5))], Int64(random.next(below: 6))), into: stack.context)
                    case 1 where !all.isEmpty:
                        let victim = all[Int(random.next(below: UInt64(all.count)))]
                        if !victim.isDeleted { stack.context.delete(victim) }
                    case 2 where !all.isEmpty:
                        let object = all[Int(random.next(below: UInt64(all.count)))]
                        if !object.isDeleted { object.setValue(groups[Int(random.next(below: 5))], forKey: "group") }
                    case 3, 4:
                        guard !all.isEmpty else { continue }
                        let object = all[Int(random.next(below: UInt64(all.count)))]
                        if !object.isDeleted { object.setValue(Int64(random.next(below: 6)), forKey: "rank") }
                    default:
                        guard !all.isEmpty else { continue }
                        let object = all[Int(random.next(below: UInt64(all.count)))]
                        if !object.isDeleted { object.setValue("n\(random.next(below: 1000))", forKey: "name") }
                    }
                }
                // Every tenth event is a save, which processes the changes itself.
                let saves = step % 10 == 9
                if saves { try stack.context.save() } else { stack.context.processPendingChanges() }
                let expected = NSFetchedResultsController(fetchRequest: request, managedObjectContext: stack.context,
                                                              sectionNameKeyPath: "group", cacheName: nil)
                try expected.performFetch()
                let sections = controller.sections!.map { ($0.objects ?? []).map { ObjectIdentifier($0 as AnyObject) } }
                #expect(sections == expected.sections!.map { ($0.objects ?? []).map { ObjectIdentifier($0 as AnyObject) } },
                        "step \(step): the controller's sections differ from a fresh fetch's")
                #expect(controller.sections!.map(\.name) == expected.sections!.map(\.name), "step \(step)")
                #expect(table.sections == sections, "step \(step): the reported changes do not lead to the new sections")
                #expect(table.names == controller.sections!.map(\.name), "step \(step)")
                #expect(table.problems.isEmpty, "step \(step): \(table.problems)")
                if saves {
                    // The save gave the inserted objects permanent IDs after reporting them by their temporary ones.
                    #expect(differences.ids.count == flat.fetchedObjects!.count, "step \(step)")
                    differences.ids = flat.fetchedObjects!.map(\.objectID)
                } else {
                    #expect(differences.ids == flat.fetchedObjects!.map(\.objectID), "step \(step): the difference does not lead to the new IDs")
                }
                table.problems.removeAll()
            }
        }
    }
}

/// Did-save notifications collected by an observer.
final class SavedNotifications: @unchecked Sendable {
    private let lock = NSLock()
    private var notifications: [Notification] = []
    func append(_ notification: Notification) { lock.withLock { notifications.append(notification) } }
    var all: [Notification] { lock.withLock { notifications } }
}

/// A table view's rows, updated only by the delegate calls, as `UITableView.performBatchUpdates` applies them:
/// deletions at old index paths, then insertions at new ones.
private final class TableReplica: NSFetchedResultsControllerDelegate {
    var sections: [[ObjectIdentifier]] = []
    var names: [String] = []
    var problems: [String] = []
    private var deletedRows: [IndexPath] = [], insertedRows: [(IndexPath, ObjectIdentifier)] = []
    private var deletedSections: [Int] = [], insertedSections: [(Int, String)] = []
    private var updated: [(IndexPath, IndexPath, ObjectIdentifier)] = []

    func load<R>(_ controller: NSFetchedResultsController<R>) {
        sections = controller.sections!.map { ($0.objects ?? []).map { ObjectIdentifier($0 as AnyObject) } }
        names = controller.sections!.map(\.name)
    }

    func controllerWillChangeContent(_ controller: NSFetchedResultsController<NSManagedObject>) {
        if !(deletedRows.isEmpty && insertedRows.isEmpty && deletedSections.isEmpty && insertedSections.isEmpty) {
            problems.append("will-change inside a change")
        }
    }

    func controller(_ controller: NSFetchedResultsController<NSManagedObject>, didChange sectionInfo: any NSFetchedResultsSectionInfo,
                    atSectionIndex sectionIndex: Int, for type: NSFetchedResultsChangeType) {
        switch type {
        case .insert: insertedSections.append((sectionIndex, sectionInfo.name))
        case .delete: deletedSections.append(sectionIndex)
        default: problems.append("section change \(type)")
        }
    }

    func controller(_ controller: NSFetchedResultsController<NSManagedObject>, didChange anObject: Any, at indexPath: IndexPath?,
                    for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?) {
        let identity = ObjectIdentifier(anObject as AnyObject)
        switch (type, indexPath, newIndexPath) {
        case (.insert, nil, let new?): insertedRows.append((new, identity))
        case (.delete, let old?, nil): deletedRows.append(old)
        case (.move, let old?, let new?):
            deletedRows.append(old)
            insertedRows.append((new, identity))
        case (.update, let old?, let new?): updated.append((old, new, identity))
        default: problems.append("\(type) with \(String(describing: indexPath)) → \(String(describing: newIndexPath))")
        }
    }

    func controllerDidChangeContent(_ controller: NSFetchedResultsController<NSManagedObject>) {
        for (old, _, identity) in updated where sections[old.section][old.item] != identity {
            problems.append("update at \(old) names another object")
        }
        for old in deletedRows.sorted(by: >) { sections[old.section].remove(at: old.item) }
        for index in deletedSections.sorted(by: >) {
            if !sections[index].isEmpty { problems.append("deleted section \(index) still has rows") }
            sections.remove(at: index)
            names.remove(at: index)
        }
        for (index, name) in insertedSections.sorted(by: { $0.0 < $1.0 }) {
            sections.insert([], at: index)
            names.insert(name, at: index)
        }
        for (new, identity) in insertedRows.sorted(by: { $0.0 < $1.0 }) { sections[new.section].insert(identity, at: new.item) }
        for (_, new, identity) in updated where sections[new.section][new.item] != identity {
            problems.append("update to \(new) names another object")
        }
        deletedRows = []
        insertedRows = []
        deletedSections = []
        insertedSections = []
        updated = []
    }
}

/// Object IDs kept up to date by differences only.
private final class DifferenceReplica: NSFetchedResultsControllerDelegate {
    var ids: [NSManagedObjectID] = []
    func controller(_ controller: NSFetchedResultsController<NSManagedObject>, didChangeContentWith diff: CollectionDifference<NSManagedObjectID>) {
        ids = ids.applying(diff) ?? []
    }
}

/// `perform(_:)` ends with `processPendingChanges()`, as Apple documents: its changes are announced (and reach a
/// fetched results controller) when the block returns, without a save or an explicit call.
struct PerformProcessesPendingChangesTests {
    @Test func aPerformBlocksChangesAreAnnouncedWhenItReturns() throws {
        let stack = try ContactsStack([("Ann", "work", 1)])
        let announced = SavedNotifications()
        let observer = NotificationCenter.default.addObserver(forName: .NSManagedObjectContextObjectsDidChange, object: stack.context,
                                                              queue: nil) { announced.append($0) }
        defer { NotificationCenter.default.removeObserver(observer) }
        let recorder = ChangeRecorder()
        let controller = try stack.context.performAndWait {
            let controller = NSFetchedResultsController(fetchRequest: ContactsStack.byGroupRequest(), managedObjectContext: stack.context,
                                                        sectionNameKeyPath: "group", cacheName: nil)
            controller.delegate = recorder
            try controller.performFetch()
            return controller
        }
        let context = stack.context
        context.perform {
            ContactsStack.insert(("Bo", "work", 2), into: context)
        }
        // The block ran, and announced its insertion as it returned.
        context.performAndWait {
            #expect(announced.all.count == 1)
            let inserted = announced.all.first?.userInfo?[NSInsertedObjectsKey] as? Set<NSManagedObject>
            #expect(inserted?.compactMap { $0.value(forKey: "name") as? String } == ["Bo"])
            #expect(recorder.take() == [.willChange, .object("Bo", .insert, nil, path(0, 1)), .didChange])
            #expect(controller.namesBySection == [["Ann", "Bo"]])
        }
    }
}
