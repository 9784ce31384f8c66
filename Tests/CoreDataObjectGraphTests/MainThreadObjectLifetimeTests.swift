import CoreDataModel
import CoreDataObjectGraph
import Foundation
import Predicates
import XCTest

/// On the main thread, the objects a context hands out follow the main run loop, as Apple's autoreleased objects do:
/// those handed out while it runs (an event's handler) go at its next turn; those handed out while it does not run (a
/// test's body) stay. XCTest runs these tests on the main thread.
final class MainThreadObjectLifetimeTests: XCTestCase {
    private static func fetchAllFilled(in context: NSManagedObjectContext) throws {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Note")
        request.returnsObjectsAsFaults = false
        _ = try context.fetch(request)
    }

    private func turnTheRunLoop() {
        RunLoop.main.run(mode: .default, before: Date.distantPast)
    }

    func testObjectsFetchedInATestsBodyStayRegistered() throws {
        let context = try NotesContainer.make(notes: 3).viewContext
        try Self.fetchAllFilled(in: context)
        XCTAssertEqual(context.registeredObjects.filter { !$0.isFault }.count, 3)
        turnTheRunLoop()
        XCTAssertEqual(context.registeredObjects.count, 3, "they were handed out outside the run loop's turns")
        // Turning them into faults is what lets a test see them unmaterialised, as on Apple's platforms.
        context.refreshAllObjects()
        XCTAssertTrue(context.registeredObjects.allSatisfy(\.isFault))
    }

    func testObjectsSavedInATestsBodyStayRegistered() throws {
        let context = try NotesContainer.make(notes: 0).viewContext
        for index in 0..<4 {
            NSEntityDescription.insertNewObject(forEntityName: "Note", into: context).setValue("\(index)", forKey: "title")
        }
        try context.save()
        XCTAssertEqual(context.registeredObjects.count, 4)
    }

    /// CoreDataPlus's `test_findMaterializedObjects` shows it on Apple's platforms: the sample data a test inserts and
    /// saves inside `performAndWait` is gone after it, so a later fetch materialises only what it matches.
    func testAPerformAndWaitOnTheMainThreadLetsItsObjectsGoWhenItReturns() throws {
        let context = try NotesContainer.make(notes: 0).viewContext
        let registeredInside = try context.performAndWait {
            for index in 0..<4 {
                NSEntityDescription.insertNewObject(forEntityName: "Note", into: context).setValue("\(index)", forKey: "title")
            }
            try context.save()
            return context.registeredObjects.count
        }
        XCTAssertEqual(registeredInside, 4)
        XCTAssertEqual(context.registeredObjects.count, 0)
        let request = NSFetchRequest<NSManagedObject>(entityName: "Note")
        request.predicate = NSPredicate(format: "title == %@", "2")
        request.returnsObjectsAsFaults = false
        _ = try context.fetch(request)
        XCTAssertEqual(context.registeredObjects.filter { !$0.isFault }.count, 1)
    }

    func testObjectsFetchedDuringATurnGoAtTheNextTurn() throws {
        let context = try NotesContainer.make(notes: 2).viewContext
        let fetched = expectation(description: "fetched while the run loop ran")
        let counts = Counts()
        RunLoop.main.perform {
            try? Self.fetchAllFilled(in: context)
            counts.duringTheTurn = context.registeredObjects.count
            fetched.fulfill()
        }
        wait(for: [fetched], timeout: 5)
        turnTheRunLoop()
        XCTAssertEqual(counts.duringTheTurn, 2)
        XCTAssertEqual(context.registeredObjects.count, 0)
    }

    private final class Counts: @unchecked Sendable {
        var duringTheTurn = 0
    }
}
