import CoreDataModel
import Foundation

/// Apple's coordinator methods that take a store description or answer a store's location.
extension NSPersistentStoreCoordinator {
    /// Adds the store `description` describes (type, configuration, URL, options) and calls `block` with the
    /// description and the error, nil on success. The store is added before `block` runs and before this returns,
    /// also when `shouldAddStoreAsynchronously` is set (docs/DEVIATIONS.md).
    public func addPersistentStore(with description: NSPersistentStoreDescription,
                                   completionHandler block: @escaping (NSPersistentStoreDescription, (any Error)?) -> Void) {
        do {
            try addPersistentStore(ofType: description.type, configurationName: description.configuration,
                                   at: description.url, options: description.options)
            block(description, nil)
        } catch {
            block(description, error)
        }
    }

    /// The URL of `store`: its file, or `/dev/null` for a store that has none (an in-memory store).
    public func url(for store: NSPersistentStore) -> URL {
        withLock { store.url } ?? URL(fileURLWithPath: "/dev/null")
    }
}
