import Foundation

/// Keeps the objects a context hands out alive until the unit of work that received them ends, as Apple's autorelease
/// pools do: there, the objects a fetch returns and the objects a save stops holding stay registered (findable through
/// `registeredObjects`, `registeredObject(for:)`, still filled) until the pool drains, even when the caller kept no
/// reference. Code ported from Apple's platforms relies on this, for example by fetching to materialise objects and
/// then looking for them among the registered ones.
///
/// A unit of work is, as Apple's pools are:
/// - a `perform` block, asynchronous or `async` (Apple's wraps each in a pool): its objects are let go when it returns;
/// - a `performAndWait` called outside any unit (Apple's drains a pool around its block too: objects a test inserts
///   and saves in one on the main thread are gone after it, unless something holds them): let go when it returns;
/// - on the main thread outside those, a turn of the main run loop: objects handed out while `RunLoop.main` runs (an
///   event's handler) are let go at its next turn; objects handed out while it does not run (a test's body, a
///   command-line program's straight code) stay in the main thread's outermost scope.
///
/// Elsewhere (a context used directly from a thread with no unit of work, as Swift Testing's tests do) nothing is
/// kept. Each scope keeps at most `capacity` objects, letting its oldest batches go first, and never keeps
/// a batch larger than that: a scope that never ends (a main run loop that never turns) cannot grow without bound,
/// and large fetches, whose callers hold their results anyway, cost nothing more.
package final class ObjectLifetimeScope: @unchecked Sendable {
    /// The most objects one scope keeps.
    package static let capacity = 10_000

    /// Batches of kept objects, oldest first; `batches[..<head]` were let go already.
    private var batches: [[NSManagedObject]] = []
    private var head = 0
    private var count = 0
    /// Whether a block that empties this scope waits for the main run loop's next turn.
    private var drainIsScheduled = false

    /// Whether this scope lets objects go at once (see `withNothingKept(_:)`).
    private let keepsNothing: Bool

    private init(keepsNothing: Bool = false) {
        self.keepsNothing = keepsNothing
    }

    /// Keeps `objects` until the scope ends, letting the oldest batches go to stay within `capacity`.
    func keep(_ objects: [NSManagedObject]) {
        guard !keepsNothing, !objects.isEmpty, objects.count <= Self.capacity else { return }
        batches.append(objects)
        count += objects.count
        while count > Self.capacity {
            count -= batches[head].count
            batches[head] = []
            head += 1
        }
        // The let-go prefix is dropped once it is most of the array, so keeping stays amortised constant time.
        if head >= 32, head * 2 >= batches.count {
            batches.removeFirst(head)
            head = 0
        }
    }

    /// Lets every kept object go.
    func drain() {
        batches = []
        head = 0
        count = 0
    }

    // MARK: The current scope

    /// The unit of work running on this thread, innermost (a task-local value, which synchronous code on the same
    /// thread sees, inside and outside tasks).
    @TaskLocal static var current: ObjectLifetimeScope?

    /// The main thread's scope for objects handed out while the main run loop runs: emptied at its next turn.
    static let mainRunLoopTurn = ObjectLifetimeScope()
    /// The main thread's scope for objects handed out while the main run loop does not run: bounded, never emptied.
    static let mainOutermost = ObjectLifetimeScope()

    /// Keeps `objects`, which a context just handed out, until the current unit of work ends (see the type's comment).
    static func keepUntilEndOfWork(_ objects: [NSManagedObject]) {
        guard !objects.isEmpty else { return }
        if let current {
            current.keep(objects)
        } else if Thread.isMainThread {
            if RunLoop.main.currentMode != nil {
                mainRunLoopTurn.keep(objects)
                mainRunLoopTurn.drainWhenTheMainRunLoopTurns()
            } else {
                mainOutermost.keep(objects)
            }
        }
    }

    /// Runs `body` as a unit of work of its own: the objects handed out inside are let go when it returns.
    package static func withNewScope<R>(_ body: () throws -> R) rethrows -> R {
        try $current.withValue(ObjectLifetimeScope()) { try body() }
    }

    /// Runs `body` in a unit of work that keeps nothing: objects go as soon as nobody holds them, also inside the
    /// `performAndWait` calls of `body`. For tests of what happens when objects go (the registry's release paths).
    package static func withNothingKept<R>(_ body: () throws -> R) rethrows -> R {
        try $current.withValue(ObjectLifetimeScope(keepsNothing: true)) { try body() }
    }

    /// One emptying of this (main-thread) scope on the main run loop's next turn, unless one waits already.
    private func drainWhenTheMainRunLoopTurns() {
        guard !drainIsScheduled else { return }
        drainIsScheduled = true
        RunLoop.main.perform(inModes: [.common]) { [self] in
            guard Thread.isMainThread else { return }
            drainIsScheduled = false
            drain()
        }
    }
}
