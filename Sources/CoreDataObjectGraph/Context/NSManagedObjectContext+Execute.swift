import Foundation

extension NSManagedObjectContext {
    /// Executes a store request, as Apple's: an ``NSAsynchronousFetchRequest`` is queued on the context's queue and
    /// its ``NSAsynchronousFetchResult`` returned at once. Requests the context cannot run throw
    /// `NSPersistentStoreUnsupportedRequestTypeError`.
    @discardableResult
    public func execute(_ request: NSPersistentStoreRequest) throws -> NSPersistentStoreResult {
        try request.executed(in: self)
    }
}
