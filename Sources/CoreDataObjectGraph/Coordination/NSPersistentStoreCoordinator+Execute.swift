import Foundation

extension NSPersistentStoreCoordinator {
    /// Sends `request` to the stores for `context`, as Apple's does for custom store code: a fetch request returns its
    /// results as an array (objects registered in `context`, object IDs, dictionaries or a count, as its `resultType`
    /// says); any other request returns what `context.execute(_:)` returns. The call runs on the context's queue.
    public func execute(_ request: NSPersistentStoreRequest, with context: NSManagedObjectContext) throws -> Any {
        guard context.persistentStoreCoordinator === self else {
            throw CoreDataError(.persistentStoreOperation,
                                "NSPersistentStoreCoordinator.execute(_:with:): the context belongs to another coordinator")
        }
        return try context.performAndWait { try request.executedThroughCoordinator(in: context) }
    }
}
