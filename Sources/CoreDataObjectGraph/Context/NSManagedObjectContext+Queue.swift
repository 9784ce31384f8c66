import CoreDataModel
import Foundation
import UndoManagement

// The context's queue; its declaration, with the stored state, is in the storage room (`Storage/NSManagedObjectContext.swift`).
extension NSManagedObjectContext {
    // MARK: Concurrency

    /// Runs `block` on the context's queue, asynchronously, then `processPendingChanges()`, as Apple's does: the
    /// block's changes are announced (objects-did-change, fetched results controllers) when it returns.
    public func perform(_ block: @escaping @Sendable () -> Void) {
        queue.async { [self] in
            // Apple's wraps the block in an autorelease pool: the objects it was handed stay until it and the
            // processing of its changes are done.
            ObjectLifetimeScope.withNewScope {
                holdingQueue { block() }
                processPendingChanges()
            }
        }
    }

    /// Runs `block` on the context's queue and waits for it: Apple's Objective-C method, which code also passes as a
    /// function value (`run(context.performAndWait)`, a `(() -> Void) -> Void`); the generic form below cannot be.
    public func performAndWait(_ block: () -> Void) {
        runAndWait(block)
    }

    /// Runs `block` on the context's queue and waits for it; runs it at once when already on that queue.
    public func performAndWait<T>(_ block: () throws -> T) rethrows -> T {
        try runAndWait(block)
    }

    private func runAndWait<T>(_ block: () throws -> T) rethrows -> T {
        // A `performAndWait` outside any unit of work is one, as Apple's drains an autorelease pool around its block;
        // inside one, the objects it hands out go to that unit (see `ObjectLifetimeScope`).
        if ObjectLifetimeScope.current == nil {
            return try ObjectLifetimeScope.withNewScope { try runAndWaitInScope(block) }
        }
        return try runAndWaitInScope(block)
    }

    private func runAndWaitInScope<T>(_ block: () throws -> T) rethrows -> T {
        if isOnQueue { return try ContextInPerform.$current.withValue(self) { try block() } }
        return try waitForQueue(block)
    }

    private func waitForQueue<T>(_ block: () throws -> T) rethrows -> T {
        // A thread that holds the main queue and waits here for another queue still holds it: code on that queue
        // (a child's save reaching its main-queue parent) must run in place, not wait for the main queue.
        if !MainQueueHold.isHeld, Self.isOnMainQueue {
            return try MainQueueHold.$isHeld.withValue(true) {
                try queue.sync { try holdingQueue(block) }
            }
        }
        return try queue.sync { try holdingQueue(block) }
    }

    /// Runs `block`, which the context's queue runs, as this context's perform block: `NSFetchRequest.execute()`
    /// fetches here, and this context's queue counts as held by the thread until it returns, also inside another
    /// context's `performAndWait` that the block calls (a parent that saved and then waits for its child still holds
    /// its own queue, so code the child runs for it on that thread, such as filling a fault, runs in place instead of
    /// waiting for the queue: dispatch would trap on that wait).
    func holdingQueue<R>(_ block: () throws -> R) rethrows -> R {
        try QueueHold.$contexts.withValue(QueueHold.contexts + [ObjectIdentifier(self)]) {
            try ContextInPerform.$current.withValue(self) { try block() }
        }
    }

    /// With Core Data's concurrency debugging on, traps when the context is used off its queue: wrap the call in
    /// `perform` or `performAndWait`. Off by default, as on Apple's platforms, where code that uses a context from
    /// the one thread that made it runs unchecked; see `ConcurrencyDebugging`.
    func assertOnQueue(_ function: StaticString = #function) {
        if _slowPath(ConcurrencyDebugging.isEnabled) {
            precondition(isOnQueue, "NSManagedObjectContext.\(function) called off the context's queue; use perform or performAndWait")
        }
    }

    var isOnQueue: Bool {
        if concurrencyType == .mainQueueConcurrencyType, Thread.isMainThread || MainQueueHold.isHeld { return true }
        return DispatchQueue.getSpecific(key: queueKey) == ObjectIdentifier(self) || QueueHold.contexts.contains(ObjectIdentifier(self))
    }

    /// Whether the current code runs on the main queue: on the main thread, or on the dispatch thread that drains the
    /// main queue after a top-level `await` (Swift on Linux then parks the main thread in `dispatchMain()`, so main-actor
    /// code runs elsewhere and `Thread.isMainThread` is false).
    static var isOnMainQueue: Bool {
        Thread.isMainThread || DispatchQueue.getSpecific(key: MainQueueHold.mainQueueKey) != nil
    }
}

/// The context whose `perform` or `performAndWait` block is running on the current thread (the innermost one), which
/// `NSFetchRequest.execute()` fetches in.
enum ContextInPerform {
    @TaskLocal static var current: NSManagedObjectContext?
}

/// The contexts whose queues the current thread holds, running their perform blocks (innermost last): a block that
/// waits in another context's `performAndWait` still holds its own queue (a task-local value, which synchronous code
/// on the same thread sees, inside and outside tasks).
enum QueueHold {
    @TaskLocal static var contexts: [ObjectIdentifier] = []
}

/// Whether the current thread holds the main queue while it waits in `performAndWait` for another context's queue (a
/// task-local value, which synchronous code on the same thread sees, inside and outside tasks).
enum MainQueueHold {
    @TaskLocal static var isHeld = false

    /// A key only the main queue carries.
    static let mainQueueKey: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()
}

/// Apple's concurrency debugging switch: the launch arguments `-com.apple.CoreData.ConcurrencyDebug 1` (as Xcode's
/// scheme passes them), or the environment variable `com.apple.CoreData.ConcurrencyDebug=1`. Read once.
enum ConcurrencyDebugging {
    static let isEnabled: Bool = {
        let arguments = ProcessInfo.processInfo.arguments
        if let flag = arguments.firstIndex(of: "-com.apple.CoreData.ConcurrencyDebug"), flag + 1 < arguments.count {
            return (Int(arguments[flag + 1]) ?? 0) > 0
        }
        return (ProcessInfo.processInfo.environment["com.apple.CoreData.ConcurrencyDebug"].flatMap { Int($0) } ?? 0) > 0
    }()
}
