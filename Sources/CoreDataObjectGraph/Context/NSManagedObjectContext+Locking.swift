import CoreDataModel
import Foundation

/// Apple's older ways of sharing a context between threads, kept for code that still calls them: `NSLocking`'s
/// `lock()`/`unlock()` and `tryLock()`, which Apple deprecated in favour of `perform`/`performAndWait`.
extension NSManagedObjectContext: NSLocking {
    /// Takes the context's lock, waiting for another thread that holds it; one thread may take it again (it is
    /// released after as many `unlock()` calls). It guards nothing by itself: every thread that shares the context
    /// takes it around its work, as Apple's confinement contexts required.
    @available(*, deprecated, message: "Use a queue style context and performAndWait instead")
    public func lock() { lockingLock.lock() }

    /// Releases the lock `lock()` or a successful `tryLock()` took.
    @available(*, deprecated, message: "Use a queue style context and performAndWait instead")
    public func unlock() { lockingLock.unlock() }

    /// Takes the lock if no other thread holds it; true when it did (then `unlock()` releases it).
    @available(*, deprecated, message: "Use a queue style context and performAndWait instead")
    public func tryLock() -> Bool { lockingLock.try() }

    /// Whether the context handles `fault`, an object whose row is gone from its store, by Apple's
    /// `shouldDeleteInaccessibleFaults` rule; Apple's default answers `shouldDeleteInaccessibleFaults`, and so does
    /// this one. This library reads such a fault as nil values whatever the answer (docs/DEVIATIONS.md).
    public func shouldHandleInaccessibleFault(_ fault: NSManagedObject, for oid: NSManagedObjectID,
                                              triggeredByProperty property: NSPropertyDescription?) -> Bool {
        shouldDeleteInaccessibleFaults
    }
}
