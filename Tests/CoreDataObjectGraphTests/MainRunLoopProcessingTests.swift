import CoreDataModel
import CoreDataObjectGraph
import Foundation
import Predicates
import UndoManagement
import XCTest

/// A main-queue context processes its pending changes when the main run loop turns, as Apple's does at the end of each
/// event: code that changes objects and then lets the run loop run (an app's event loop, XCTest's `wait(for:timeout:)`)
/// sees objects-did-change, fetched results controller updates and closed undo groups without calling
/// `processPendingChanges()`. XCTest runs these tests on the main thread, and `wait(for:timeout:)` spins `RunLoop.main`.
final class MainRunLoopProcessingTests: XCTestCase {
    /// What observers saw (observer blocks are `@Sendable`; these tests post and read on the main thread).
    private final class Log: @unchecked Sendable {
        var notifications: [Notification] = []
        var postedOnMainThread = true
        var titles: [[String]] = []
        var count = 0
    }

    /// Turns the main run loop once, without waiting: whatever is due runs.
    private func turnTheRunLoop() {
        RunLoop.main.run(mode: .default, before: Date.distantPast)
    }

    func testObjectsDidChangeIsPostedWhenTheMainRunLoopTurns() throws {
        let context = try NotesContainer.make().viewContext
        let log = Log()
        let expectation = expectation(description: "objects-did-change")
        let observer = NotificationCenter.default.addObserver(forName: .NSManagedObjectContextObjectsDidChange, object: context,
                                                              queue: nil) { notification in
            log.notifications.append(notification)
            log.postedOnMainThread = log.postedOnMainThread && Thread.isMainThread
            expectation.fulfill()
        }
        defer { NotificationCenter.default.removeObserver(observer) }

        let note = NSEntityDescription.insertNewObject(forEntityName: "Note", into: context)
        note.setValue("Groceries", forKey: "title")
        XCTAssertTrue(log.notifications.isEmpty, "the event is not over until the run loop turns")

        wait(for: [expectation], timeout: 5)
        XCTAssertEqual(log.notifications.count, 1)
        XCTAssertEqual(log.notifications.first?.userInfo?[NSInsertedObjectsKey] as? Set<NSManagedObject>, [note])
        XCTAssertTrue(log.postedOnMainThread)
    }

    func testAnEventsChangesComeInOneNotification() throws {
        let context = try NotesContainer.make().viewContext
        let saved = NSEntityDescription.insertNewObject(forEntityName: "Note", into: context)
        saved.setValue("Saved", forKey: "title")
        try context.save()
        turnTheRunLoop()

        let log = Log()
        let expectation = expectation(description: "objects-did-change")
        let observer = NotificationCenter.default.addObserver(forName: .NSManagedObjectContextObjectsDidChange, object: context,
                                                              queue: nil) { notification in
            log.notifications.append(notification)
            expectation.fulfill()
        }
        defer { NotificationCenter.default.removeObserver(observer) }

        let inserted = (1...3).map { index -> NSManagedObject in
            let note = NSEntityDescription.insertNewObject(forEntityName: "Note", into: context)
            note.setValue("Note \(index)", forKey: "title")
            return note
        }
        saved.setValue("Renamed", forKey: "title")
        wait(for: [expectation], timeout: 5)
        turnTheRunLoop()
        turnTheRunLoop()

        XCTAssertEqual(log.notifications.count, 1, "one event, one notification")
        XCTAssertEqual(log.notifications.first?.userInfo?[NSInsertedObjectsKey] as? Set<NSManagedObject>, Set(inserted))
        XCTAssertEqual(log.notifications.first?.userInfo?[NSUpdatedObjectsKey] as? Set<NSManagedObject>, [saved])
    }

    func testAChangeMadeByAnObserverIsAnnouncedOnTheNextTurn() throws {
        let context = try NotesContainer.make().viewContext
        let log = Log()
        let expectation = expectation(description: "two events")
        expectation.expectedFulfillmentCount = 2
        let observer = NotificationCenter.default.addObserver(forName: .NSManagedObjectContextObjectsDidChange, object: context,
                                                              queue: nil) { notification in
            let objects = (notification.userInfo?[NSInsertedObjectsKey] as? Set<NSManagedObject> ?? [])
                .union(notification.userInfo?[NSUpdatedObjectsKey] as? Set<NSManagedObject> ?? [])
            log.titles.append(objects.compactMap { $0.value(forKey: "title") as? String }.sorted())
            // An observer that answers an insertion with an edit of its own, as an app's stamping code does.
            for object in objects where object.value(forKey: "title") as? String == "Draft" {
                object.setValue("Draft (edited)", forKey: "title")
            }
            expectation.fulfill()
        }
        defer { NotificationCenter.default.removeObserver(observer) }

        NSEntityDescription.insertNewObject(forEntityName: "Note", into: context).setValue("Draft", forKey: "title")
        wait(for: [expectation], timeout: 5)
        XCTAssertEqual(log.titles, [["Draft"], ["Draft (edited)"]])
    }

    func testAFetchedResultsControllerSeesInsertionsWhenTheRunLoopTurns() throws {
        final class Delegate: NSFetchedResultsControllerDelegate {
            var insertedTitles: [String] = []
            let expectation: XCTestExpectation
            init(expectation: XCTestExpectation) { self.expectation = expectation }
            func controller(_ controller: NSFetchedResultsController<NSManagedObject>, didChange anObject: Any, at indexPath: IndexPath?,
                            for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?) {
                if type == .insert, let title = (anObject as? NSManagedObject)?.value(forKey: "title") as? String {
                    insertedTitles.append(title)
                }
            }
            func controllerDidChangeContent(_ controller: NSFetchedResultsController<NSManagedObject>) {
                expectation.fulfill()
            }
        }
        let context = try NotesContainer.make().viewContext
        let request = NSFetchRequest<NSManagedObject>(entityName: "Note")
        request.sortDescriptors = [Predicates.NSSortDescriptor(key: "title", ascending: true)]
        let controller = NSFetchedResultsController(fetchRequest: request, managedObjectContext: context,
                                                    sectionNameKeyPath: nil, cacheName: nil)
        let delegate = Delegate(expectation: expectation(description: "controllerDidChangeContent"))
        controller.delegate = delegate
        try controller.performFetch()

        NSEntityDescription.insertNewObject(forEntityName: "Note", into: context).setValue("B", forKey: "title")
        NSEntityDescription.insertNewObject(forEntityName: "Note", into: context).setValue("A", forKey: "title")
        XCTAssertEqual(controller.fetchedObjects?.count, 0, "nothing is reported before the run loop turns")
        wait(for: [delegate.expectation], timeout: 5)

        XCTAssertEqual(delegate.insertedTitles.sorted(), ["A", "B"])
        XCTAssertEqual(controller.fetchedObjects?.compactMap { $0.value(forKey: "title") as? String }, ["A", "B"])
    }

    func testEachTurnOfTheRunLoopIsOneUndoStep() throws {
        let context = try NotesContainer.make().viewContext
        context.undoManager = UndoManager()
        let note = NSEntityDescription.insertNewObject(forEntityName: "Note", into: context)
        note.setValue("First", forKey: "title")
        try context.save()
        turnTheRunLoop()

        note.setValue("Second", forKey: "title")
        turnTheRunLoop()
        note.setValue("Third", forKey: "title")
        turnTheRunLoop()

        context.undoManager?.undo()
        XCTAssertEqual(note.value(forKey: "title") as? String, "Second", "the last event's change alone is undone")
        context.undoManager?.undo()
        XCTAssertEqual(note.value(forKey: "title") as? String, "First")
    }

    func testResetForgetsTheChangesTheTurnWouldHaveAnnounced() throws {
        let context = try NotesContainer.make().viewContext
        let saved = NSEntityDescription.insertNewObject(forEntityName: "Note", into: context)
        try context.save()
        turnTheRunLoop()
        NSEntityDescription.insertNewObject(forEntityName: "Note", into: context).setValue("Forgotten", forKey: "title")
        context.delete(saved)
        let log = Log()
        let observer = NotificationCenter.default.addObserver(forName: .NSManagedObjectContextObjectsDidChange, object: context,
                                                              queue: nil) { log.notifications.append($0) }
        defer { NotificationCenter.default.removeObserver(observer) }

        context.reset()
        turnTheRunLoop()
        turnTheRunLoop()

        XCTAssertEqual(log.notifications.count, 1, "reset's own notification, then nothing for the forgotten changes")
        XCTAssertNotNil(log.notifications.first?.userInfo?[NSInvalidatedAllObjectsKey])
    }

    /// Counts `prepareForDeletion()`, which Apple calls when a deletion is processed.
    final class Journal: NSManagedObject {
        nonisolated(unsafe) static var preparedForDeletion = 0
        override func prepareForDeletion() {
            super.prepareForDeletion()
            Self.preparedForDeletion += 1
        }
    }

    func testResetForgetsDeletionsNotProcessedYet() throws {
        let journal = NSEntityDescription(name: "RunLoopJournal")
        journal.setProperties([NSAttributeDescription(name: "title", type: .stringAttributeType)])
        NSManagedObject.register(Journal.self, forEntityName: "RunLoopJournal")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: NSManagedObjectModel(entities: [journal]))
        try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil, options: nil)
        let context = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        let entry = NSEntityDescription.insertNewObject(forEntityName: "RunLoopJournal", into: context)
        try context.save()
        turnTheRunLoop()
        Journal.preparedForDeletion = 0

        context.delete(entry)
        context.reset()
        turnTheRunLoop()

        XCTAssertEqual(Journal.preparedForDeletion, 0, "a deletion reset forgot is not processed")
        XCTAssertFalse(context.hasChanges)
    }

    func testAPrivateQueueContextWaitsForProcessPendingChanges() throws {
        let container = try NotesContainer.make()
        let context = container.newBackgroundContext()
        let log = Log()
        let observer = NotificationCenter.default.addObserver(forName: .NSManagedObjectContextObjectsDidChange, object: context,
                                                              queue: nil) { _ in log.count += 1 }
        defer { NotificationCenter.default.removeObserver(observer) }

        context.performAndWait {
            NSEntityDescription.insertNewObject(forEntityName: "Note", into: context).setValue("Background", forKey: "title")
        }
        turnTheRunLoop()
        XCTAssertEqual(log.count, 0, "Apple: a background context posts when processPendingChanges() is called")
        context.performAndWait { context.processPendingChanges() }
        XCTAssertEqual(log.count, 1)
    }

    func testTheWaitingTurnDoesNotKeepTheContextAlive() throws {
        let container = try NotesContainer.make()
        weak var released: NSManagedObjectContext?
        do {
            let context = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
            context.persistentStoreCoordinator = container.persistentStoreCoordinator
            NSEntityDescription.insertNewObject(forEntityName: "Note", into: context).setValue("Gone", forKey: "title")
            released = context
        }
        XCTAssertNil(released, "the run loop holds the context weakly")
        turnTheRunLoop()
    }
}
