import CoreDataModel
import CoreDataObjectGraph
import CoreDataTestSupport
import Foundation
import Predicates
import Testing

/// `NSAsynchronousFetchRequest` used as Apple's documentation shows: `execute(_:)` returns at once, the fetch runs
/// later on the context's queue, and the completion block gets the context's objects, an error, or a cancellation.
struct AsynchronousFetchRequestTests {
    /// A private-queue context over a store holding items named `names`.
    static func context(holding names: [String]) throws -> NSManagedObjectContext {
        let context = try FetchRequestExecuteTests.stack(at: TemporaryDirectory.make().appendingPathComponent("Items.sqlite"))
        try context.performAndWait {
            for name in names {
                NSEntityDescription.insertNewObject(forEntityName: "Item", into: context).setValue(name, forKey: "name")
            }
            try context.save()
        }
        return context
    }

    static func sortedItems() -> NSFetchRequest<NSManagedObject> {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Item")
        request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
        return request
    }

    @Test func theCompletionBlockGetsTheContextsObjectsAfterExecuteReturned() throws {
        let context = try Self.context(holding: ["c", "a", "b"])
        var calls = 0
        var names: [String] = []
        var inContext = false
        let asyncRequest = NSAsynchronousFetchRequest(fetchRequest: Self.sortedItems()) { result in
            let items = result.finalResult ?? []
            calls += 1
            names = items.map { $0.value(forKey: "name") as? String ?? "?" }
            inContext = !items.isEmpty && items.allSatisfy { $0.managedObjectContext === context && context.registeredObjects.contains($0) }
        }
        #expect(asyncRequest.requestType == .fetchRequestType)
        let result = try context.performAndWait { () throws -> NSPersistentStoreResult in
            let result = try context.execute(asyncRequest)
            #expect(calls == 0, "execute returns before the fetch runs")
            #expect((result as? NSAsynchronousFetchResult<NSManagedObject>)?.finalResult == nil)
            return result
        }
        context.performAndWait {}  // the fetch was queued before this block
        #expect(calls == 1)
        #expect(names == ["a", "b", "c"])
        #expect(inContext, "the objects are registered in the context the request ran in")
        let fetched = try #require(result as? NSAsynchronousFetchResult<NSManagedObject>)
        #expect(fetched.finalResult?.count == 3)
        #expect(fetched.operationError == nil)
        #expect(fetched.managedObjectContext === context)
        #expect(fetched.fetchRequest === asyncRequest)
        #expect(fetched.progress == nil, "no progress was current at execute, so the fetch reports none")
    }

    @Test func progressStartsFromTheEstimateAndReportsToTheCurrentProgress() throws {
        let context = try Self.context(holding: ["a", "b"])
        let asyncRequest = NSAsynchronousFetchRequest(fetchRequest: Self.sortedItems(), completionBlock: nil)
        asyncRequest.estimatedResultCount = 10
        let parent = Progress(totalUnitCount: 1)
        let result = try context.performAndWait { () throws -> NSPersistentStoreAsynchronousResult in
            parent.becomeCurrent(withPendingUnitCount: 1)
            defer { parent.resignCurrent() }
            return try #require(try context.execute(asyncRequest) as? NSPersistentStoreAsynchronousResult)
        }
        context.performAndWait {}  // the fetch was queued before this block
        let progress = try #require(result.progress)
        #expect(progress.totalUnitCount == 2 && progress.completedUnitCount == 2, "the count replaces the estimate")
        #expect(progress.fractionCompleted == 1)
        #expect(parent.fractionCompleted == 1, "the fetch's progress is a child of the one current at execute")

        let pending = NSAsynchronousFetchRequest(fetchRequest: Self.sortedItems(), completionBlock: nil)
        pending.estimatedResultCount = 10
        let total = try context.performAndWait {
            let parent = Progress(totalUnitCount: 1)
            parent.becomeCurrent(withPendingUnitCount: 1)
            defer { parent.resignCurrent() }
            let result = try #require(try context.execute(pending) as? NSPersistentStoreAsynchronousResult)
            return try #require(result.progress).totalUnitCount
        }
        #expect(total == 10, "until the fetch ran, the estimate is the total")
        context.performAndWait {}
    }

    @Test func cancelBeforeTheFetchRunsEndsWithUserCancelledAndNoResults() throws {
        let context = try Self.context(holding: ["a"])
        for cancelThroughProgress in [false, true] {
            var delivered: [NSAsynchronousFetchResult<NSManagedObject>] = []
            let asyncRequest = NSAsynchronousFetchRequest(fetchRequest: Self.sortedItems()) { delivered.append($0) }
            try context.performAndWait {
                let parent = Progress(totalUnitCount: 1)
                parent.becomeCurrent(withPendingUnitCount: 1)
                let result = try #require(try context.execute(asyncRequest) as? NSAsynchronousFetchResult<NSManagedObject>)
                parent.resignCurrent()
                if cancelThroughProgress { try #require(result.progress).cancel() } else { result.cancel() }
            }
            context.performAndWait {}
            #expect(delivered.count == 1, "the completion block still runs, with the cancellation")
            let result = try #require(delivered.first)
            #expect(result.finalResult == nil)
            let error = try #require(result.operationError) as NSError
            #expect(error.domain == NSCocoaErrorDomain)
            #expect(error.code == NSUserCancelledError)
        }

        var delivered = 0
        let asyncRequest = NSAsynchronousFetchRequest(fetchRequest: Self.sortedItems()) { _ in delivered += 1 }
        let result = try context.performAndWait {
            try #require(try context.execute(asyncRequest) as? NSAsynchronousFetchResult<NSManagedObject>)
        }
        context.performAndWait {}
        result.cancel()
        #expect(delivered == 1)
        #expect(result.finalResult?.count == 1, "cancelling a fetch that already ran changes nothing")
        #expect(result.operationError == nil)
    }

    @Test func aFailingFetchReportsItsErrorInTheResult() throws {
        let context = try Self.context(holding: ["a"])
        var errors: [String] = []
        var results: [[NSManagedObject]?] = []
        let asyncRequest = NSAsynchronousFetchRequest(fetchRequest: NSFetchRequest<NSManagedObject>(entityName: "Nope")) { result in
            results.append(result.finalResult)
            errors.append(result.operationError.map { "\($0)" } ?? "no error")
        }
        try context.performAndWait { _ = try context.execute(asyncRequest) }
        context.performAndWait {}
        #expect(results.count == 1)
        #expect(results.first.map { $0 == nil } == true, "a failed fetch has no results")
        #expect(errors.count == 1 && errors[0].contains("Nope"), "\(errors)")
    }

    @Test func executeInsideAnAsyncPerformAndAwaitTheResults() async throws {
        let context = try Self.context(holding: ["b", "a"])
        let asyncRequest = NSAsynchronousFetchRequest(fetchRequest: Self.sortedItems()) { _ in }
        let result = try await context.perform { try context.execute(asyncRequest) }
        await context.perform(schedule: .enqueued) {}
        let fetched = try #require(result as? NSAsynchronousFetchResult<NSManagedObject>)
        let names = await context.perform { fetched.finalResult?.map { $0.value(forKey: "name") as? String } }
        #expect(names == ["a", "b"])
    }

    @Test func executeRefusesARequestItCannotRun() throws {
        let context = try Self.context(holding: [])
        #expect {
            try context.performAndWait { try context.execute(NSFetchRequest<NSManagedObject>(entityName: "Item")) }
        } throws: { error in
            (error as NSError).code == NSPersistentStoreUnsupportedRequestTypeError && "\(error)".contains("NSFetchRequest")
        }
    }
}
