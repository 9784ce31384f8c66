import Foundation

/// A main-queue context processes its pending changes when the main run loop turns, as Apple's does at the end of
/// each event: the first change since the last `processPendingChanges()` asks `RunLoop.main` for one call on its next
/// turn, which posts objects-did-change (and closes the undo group) for everything the event changed.
///
/// `RunLoop.main` runs its blocks only on the main thread, and only while something runs the main run loop: an app's
/// `RunLoop.main.run()`, or XCTest's `wait(for:timeout:)` on the main thread. A program parked in `dispatchMain()` never
/// turns it (Swift's `async` main on Linux, and the Swift Testing runner, park there and drain the main queue on a worker
/// thread), so nothing changes for its contexts: `DispatchQueue.main.async` would run the processing there, off the main
/// thread and beside code that uses a main-queue context from its own thread, as tests do. Private-queue contexts are
/// processed by `perform(_:)` and by whoever calls `processPendingChanges()`, as Apple's are.
extension NSManagedObjectContext {
    /// Counts `object` among the changes the next objects-did-change notification announces. The first change of an
    /// event in a main-queue context schedules the processing; the others cost a compare, and private-queue contexts
    /// one more.
    @inline(__always)
    func noteUnposted(_ object: NSManagedObject) {
        if unpostedChanges.insert(object), concurrencyType == .mainQueueConcurrencyType, unpostedChanges.count == 1 {
            processPendingChangesWhenTheRunLoopTurns()
        }
    }

    /// One `processPendingChanges()` on the main run loop's next turn, unless one is waiting already (changes made after
    /// an explicit `processPendingChanges()` in the same turn ride on it). The block holds the context weakly: a context
    /// that goes away before the turn is simply not processed.
    private func processPendingChangesWhenTheRunLoopTurns() {
        guard !processingAwaitsRunLoop else { return }
        processingAwaitsRunLoop = true
        RunLoop.main.perform(inModes: [.common]) { [weak self] in
            // The main run loop's blocks run on the main thread; the check keeps that a guarantee.
            guard let self, Thread.isMainThread else { return }
            self.processingAwaitsRunLoop = false
            self.processPendingChanges()
        }
    }

    /// Whether a `processPendingChanges()` is waiting for the main run loop's next turn (for tests).
    package var isProcessingScheduledForRunLoop: Bool { processingAwaitsRunLoop }
}
