import Foundation

/// The kinds of request a persistent store executes, with Apple's raw values.
public enum NSPersistentStoreRequestType: UInt, Sendable {
    case fetchRequestType = 1
    case saveRequestType = 2
    case batchInsertRequestType = 5
    case batchUpdateRequestType = 6
    case batchDeleteRequestType = 7
}

/// What a context hands its stores to execute (`NSManagedObjectContext.execute(_:)`): the base class of fetch
/// requests and asynchronous fetch requests, as Apple's. An `NSObject`, as Apple's, so requests are `Equatable` and
/// `Hashable` through `isEqual(_:)` and `hash`: by identity here, by content for fetch requests.
open class NSPersistentStoreRequest: NSObject {
    /// The stores the request reads or writes; nil means every store that holds its entity.
    public var affectedStores: [NSPersistentStore]?

    public override init() {}

    /// The kind of request; each subclass names its own.
    open var requestType: NSPersistentStoreRequestType { .fetchRequestType }

    /// Runs the request for `NSManagedObjectContext.execute(_:)`. Subclasses the context can execute override it;
    /// any other request is refused with an error naming its class.
    func executed(in context: NSManagedObjectContext) throws -> NSPersistentStoreResult {
        throw CoreDataError(.persistentStoreUnsupportedRequestType,
                            "NSManagedObjectContext.execute(_:) cannot run a \(type(of: self)) (request type \(requestType)); "
                                + "fetch requests go through fetch(_:), or wrap them in an NSAsynchronousFetchRequest")
    }

    /// What `NSPersistentStoreCoordinator.execute(_:with:)` returns for this request; fetch requests return their
    /// results.
    func executedThroughCoordinator(in context: NSManagedObjectContext) throws -> Any {
        try executed(in: context)
    }
}
