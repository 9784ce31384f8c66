import CoreDataModel
import Foundation
import UndoManagement

// The context's queue; its declaration, with the stored state, is in the storage room (`Storage/NSManagedObjectContext.swift`).
extension NSManagedObjectContext {
    // MARK: Concurrency

    /// Runs `block` on the context's queue, asynchronously.
    public func perform(_ block: @escaping @Sendable () -> Void) {
        queue.async(execute: block)
    }

    /// Runs `block` on the context's queue and waits for it; runs it at once when already on that queue.
    public func performAndWait<T>(_ block: () throws -> T) rethrows -> T {
        if isOnQueue { return try block() }
        return try queue.sync(execute: block)
    }

    /// In debug builds, traps when the context is used off its queue (Core Data's concurrency debugging):
    /// wrap the call in `perform` or `performAndWait`.
    func assertOnQueue(_ function: StaticString = #function) {
        #if DEBUG
        precondition(isOnQueue, "NSManagedObjectContext.\(function) called off the context's queue; use perform or performAndWait")
        #endif
    }

    var isOnQueue: Bool {
        if concurrencyType == .mainQueueConcurrencyType, Thread.isMainThread { return true }
        return DispatchQueue.getSpecific(key: queueKey) == ObjectIdentifier(self)
    }
}
