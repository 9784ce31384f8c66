import Foundation

/// A fetch that runs later on the context's queue: `execute(_:)` returns at once, and the completion block gets the
/// results there, as Apple's `NSAsynchronousFetchRequest`.
///
/// ```swift
/// let request = NSFetchRequest<Car>(entityName: "Car")
/// let asyncRequest = NSAsynchronousFetchRequest(fetchRequest: request) { result in
///     let cars = result.finalResult ?? []
/// }
/// try context.execute(asyncRequest)
/// ```
open class NSAsynchronousFetchRequest<ResultType: NSFetchRequestResult>: NSPersistentStoreRequest {
    /// The fetch to run.
    public let fetchRequest: NSFetchRequest<ResultType>
    /// Called on the context's queue with the result once the fetch ran, failed or was cancelled.
    public let completionBlock: ((NSAsynchronousFetchResult<ResultType>) -> Void)?
    /// How many results to expect: the total unit count of the result's `progress` until the fetch has run (0 means
    /// unknown).
    public var estimatedResultCount: Int = 0

    public init(fetchRequest: NSFetchRequest<ResultType>,
                completionBlock: ((NSAsynchronousFetchResult<ResultType>) -> Void)?) {
        self.fetchRequest = fetchRequest
        self.completionBlock = completionBlock
    }

    open override var requestType: NSPersistentStoreRequestType { .fetchRequestType }

    /// The fetch request's stores: the fetch is what reads them.
    public override var affectedStores: [NSPersistentStore]? {
        get { fetchRequest.affectedStores }
        set { fetchRequest.affectedStores = newValue }
    }

    override func executed(in context: NSManagedObjectContext) throws -> NSPersistentStoreResult {
        // As Apple's: a progress only when the caller made one current, which adopts it as a child here.
        let progress = Progress.current() == nil
            ? nil : Progress(totalUnitCount: estimatedResultCount > 0 ? Int64(estimatedResultCount) : -1)
        let result = NSAsynchronousFetchResult(fetchRequest: self, managedObjectContext: context, progress: progress)
        let handoff = Handoff(run: result.run)
        context.perform { handoff.run() }
        return result
    }
}

/// Carries the result's fetch onto the context's queue; the result is used there and handed back only through the
/// completion block, as Apple's is (managed objects and results are not `Sendable`).
private struct Handoff: @unchecked Sendable {
    let run: () -> Void
}
