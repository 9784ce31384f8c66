import CoreDataModel
import CoreDataObjectGraph
import Foundation
import Testing

/// The objects a context hands out stay registered until the unit of work that received them ends, as Apple's
/// autoreleased objects do until their pool drains: code fetches to materialise objects and then finds them among the
/// registered ones without holding the results. These tests run off the main thread, where a `perform` block and an
/// outermost `performAndWait` are the units of work (the main thread's follow its run loop:
/// `MainThreadObjectLifetimeTests`).
@Suite struct ObjectLifetimeScopeTests {
    private static func materializedCount(in context: NSManagedObjectContext) -> Int {
        context.registeredObjects.filter { !$0.isFault }.count
    }

    private static func fetchAllFilled(in context: NSManagedObjectContext) throws {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Note")
        request.returnsObjectsAsFaults = false
        _ = try context.fetch(request)
    }

    @Test func fetchedObjectsStayRegisteredUntilThePerformAndWaitReturns() throws {
        let container = try NotesContainer.make(notes: 5)
        let context = container.newBackgroundContext()
        let registeredInside = try context.performAndWait {
            try Self.fetchAllFilled(in: context)
            return Self.materializedCount(in: context)
        }
        #expect(registeredInside == 5, "the results were dropped, but the unit of work has not ended")
        #expect(context.performAndWait { context.registeredObjects.count } == 0, "they go when it ends")
    }

    @Test func aPerformBlockKeepsItsObjectsUntilItReturns() async throws {
        let container = try NotesContainer.make(notes: 3)
        let context = container.newBackgroundContext()
        let registeredInside: Int = try await withCheckedThrowingContinuation { continuation in
            context.perform {
                do {
                    try Self.fetchAllFilled(in: context)
                    continuation.resume(returning: Self.materializedCount(in: context))
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
        #expect(registeredInside == 3)
        #expect(await context.perform { context.registeredObjects.count } == 0)
    }

    @Test func theAsyncPerformIsAUnitOfWorkToo() async throws {
        let container = try NotesContainer.make(notes: 4)
        let context = container.newBackgroundContext()
        let registeredInside = try await context.perform(schedule: .enqueued) {
            try Self.fetchAllFilled(in: context)
            return Self.materializedCount(in: context)
        }
        #expect(registeredInside == 4)
        #expect(await context.perform { context.registeredObjects.count } == 0)
    }

    @Test func savedObjectsStayRegisteredUntilTheUnitOfWorkEnds() throws {
        let container = try NotesContainer.make()
        let context = container.newBackgroundContext()
        let registeredAfterSave = try context.performAndWait {
            for index in 0..<3 {
                NSEntityDescription.insertNewObject(forEntityName: "Note", into: context).setValue("\(index)", forKey: "title")
            }
            try context.save()
            // The context no longer holds them (they have no changes); the unit of work does.
            return context.registeredObjects.count
        }
        #expect(registeredAfterSave == 3)
        #expect(context.performAndWait { context.registeredObjects.count } == 0)
    }

    @Test func aNestedPerformAndWaitHandsItsObjectsToTheOuterUnit() throws {
        let container = try NotesContainer.make(notes: 2)
        let outer = container.newBackgroundContext()
        let inner = container.newBackgroundContext()
        let registeredInInner = try outer.performAndWait {
            try inner.performAndWait { try Self.fetchAllFilled(in: inner) }
            // The inner context's objects went to this thread's unit of work, which is still running.
            return inner.performAndWait { Self.materializedCount(in: inner) }
        }
        #expect(registeredInInner == 2)
        #expect(inner.performAndWait { inner.registeredObjects.count } == 0)
    }

    @Test func aContextUsedOutsideAnyUnitOfWorkKeepsNothing() throws {
        let container = try NotesContainer.make(notes: 3)
        let context = container.newBackgroundContext()
        // Swift Testing runs this off the main thread and outside any perform block.
        try Self.fetchAllFilled(in: context)
        #expect(context.registeredObjects.isEmpty)
    }

    @Test func aUnitOfWorkKeepsABoundedNumberOfObjects() throws {
        let container = try NotesContainer.make(notes: ObjectLifetimeScope.capacity + 10)
        let context = container.newBackgroundContext()
        let counts = try context.performAndWait {
            // One result larger than the bound is not kept at all: its caller holds it if it needs it.
            try Self.fetchAllFilled(in: context)
            let afterLargeFetch = context.registeredObjects.count
            // Batches beyond the bound let the oldest go.
            let request = NSFetchRequest<NSManagedObject>(entityName: "Note")
            request.fetchLimit = ObjectLifetimeScope.capacity / 2 + 1
            _ = try context.fetch(request)
            request.fetchOffset = ObjectLifetimeScope.capacity / 2 + 1
            _ = try context.fetch(request)
            return (afterLargeFetch, context.registeredObjects.count)
        }
        #expect(counts.0 == 0)
        #expect(counts.1 == ObjectLifetimeScope.capacity / 2 + 1, "only the newer batch fits")
    }
}
