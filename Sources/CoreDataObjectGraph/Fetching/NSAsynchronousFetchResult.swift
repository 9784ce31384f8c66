import Foundation

/// The result of an ``NSAsynchronousFetchRequest``: `finalResult` holds the fetched objects, registered in the
/// context, once the fetch has run on the context's queue.
open class NSAsynchronousFetchResult<ResultType: NSFetchRequestResult>: NSPersistentStoreAsynchronousResult {
    /// The request this result answers.
    public let fetchRequest: NSAsynchronousFetchRequest<ResultType>

    private let resultsLock = NSLock()
    private var results: [ResultType]?

    init(fetchRequest: NSAsynchronousFetchRequest<ResultType>, managedObjectContext: NSManagedObjectContext, progress: Progress?) {
        self.fetchRequest = fetchRequest
        super.init(managedObjectContext: managedObjectContext, progress: progress)
    }

    /// The fetched results; nil until the fetch has run, and after a failed or cancelled fetch (see
    /// `operationError`).
    public var finalResult: [ResultType]? { resultsLock.withLock { results } }

    /// Runs the fetch (on the context's queue, inside its perform block) and calls the completion block.
    func run() {
        if isCancelled {
            finish(with: CocoaError(.userCancelled, userInfo: [
                NSLocalizedDescriptionKey: "the asynchronous fetch for \(fetchRequest.fetchRequest.resolvedEntityName ?? "?") was cancelled before it ran",
            ]))
        } else {
            do {
                let objects = try managedObjectContext.fetch(fetchRequest.fetchRequest)
                resultsLock.withLock { results = objects }
                if let progress {
                    progress.totalUnitCount = Int64(objects.count)
                    progress.completedUnitCount = Int64(objects.count)
                }
            } catch {
                finish(with: error)
            }
        }
        fetchRequest.completionBlock?(self)
    }
}
