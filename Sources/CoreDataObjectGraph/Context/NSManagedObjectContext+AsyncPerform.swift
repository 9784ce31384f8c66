import Foundation

extension NSManagedObjectContext {
    /// When `perform(schedule:_:)` runs its block.
    public enum ScheduledTaskType: Sendable {
        /// At once when already on the context's queue, else as soon as the queue is free.
        case immediate
        /// Always after what is already queued.
        case enqueued
    }

    /// Runs `block` on the context's queue and returns its result, as Apple's `async` `perform`. It throws only what
    /// the block throws (Apple declares it `rethrows`; typed throws give callers the same rule: no `try` for a block
    /// that cannot throw).
    public func perform<T, E: Error>(schedule: ScheduledTaskType = .immediate,
                                     _ block: @escaping () throws(E) -> T) async throws(E) -> T {
        // The block and its result stay on the context's queue or pass straight to the awaiting caller, as Apple's
        // do; the box carries them across the continuation.
        let task = UncheckedBox(block)
        if schedule == .immediate, isOnQueue {
            return try task.value()
        }
        let outcome: UncheckedBox<Result<T, E>> = await withCheckedContinuation { continuation in
            queue.async { [self] in
                let result = ObjectLifetimeScope.withNewScope {
                    holdingQueue { Result { () throws(E) -> T in try task.value() } }
                }
                continuation.resume(returning: UncheckedBox(result))
            }
        }
        return try outcome.value.get()
    }
}

/// A value handed between the context's queue and an awaiting task, which Apple's API does not require to be
/// `Sendable` (managed objects are not).
private struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
