import Foundation

/// What `NSManagedObjectContext.execute(_:)` returns: the base class of its results, as Apple's.
open class NSPersistentStoreResult {
    public init() {}
}

/// The result of a request that runs later on the context's queue: it reports the request's progress and error, and
/// can cancel the request before it runs.
open class NSPersistentStoreAsynchronousResult: NSPersistentStoreResult {
    /// The context the request runs in.
    public let managedObjectContext: NSManagedObjectContext
    /// Counts the request's results as it runs: a child of the progress that was current when `execute(_:)` was
    /// called (`becomeCurrent(withPendingUnitCount:)`), and nil when none was, as Apple's.
    public let progress: Progress?

    // Set on the context's queue, read from any thread, so kept under a lock.
    private let lock = NSLock()
    private var error: (any Error)?
    private var cancelled = false

    init(managedObjectContext: NSManagedObjectContext, progress: Progress?) {
        self.managedObjectContext = managedObjectContext
        self.progress = progress
    }

    /// The error the request ended with: the fetch's own error, or `NSUserCancelledError` (in `NSCocoaErrorDomain`)
    /// when it was cancelled before it ran; nil while it has not run and when it succeeded.
    public var operationError: (any Error)? { lock.withLock { error } }

    /// Cancels the request if it has not run yet (cancelling `progress` does the same); it then ends with
    /// `NSUserCancelledError` and no results. A request that already ran is not affected.
    open func cancel() {
        lock.withLock { cancelled = true }
        progress?.cancel()
    }

    /// Whether the request was cancelled, through `cancel()` or through its progress.
    var isCancelled: Bool { lock.withLock { cancelled } || progress?.isCancelled == true }

    func finish(with error: any Error) {
        lock.withLock { self.error = error }
    }
}
