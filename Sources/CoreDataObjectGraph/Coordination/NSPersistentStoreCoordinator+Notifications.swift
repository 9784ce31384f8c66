import Foundation

/// The key of `NSPersistentStoreCoordinatorStoresDidChange`'s user info for the array of stores added.
public let NSAddedPersistentStoresKey = "added"
/// The key of `NSPersistentStoreCoordinatorStoresDidChange`'s user info for the array of stores removed.
public let NSRemovedPersistentStoresKey = "removed"
/// The key of `NSPersistentStoreCoordinatorStoresDidChange`'s user info for an array holding the old store (index 0)
/// and the new one (index 1); after `migratePersistentStore(_:to:options:withType:)` a third element holds the object
/// IDs of the migrated objects, each old ID followed by its new one (as Apple's framework fills it).
public let NSUUIDChangedPersistentStoresKey = "UUIDChangedPersistentStoresKey"

extension Notification.Name {
    /// Posted before a coordinator's stores change, with the same keys as `NSPersistentStoreCoordinatorStoresDidChange`.
    /// Apple's framework posts it only for the retired iCloud ubiquity stores, so nothing here posts it; the name is
    /// for code that observes it.
    public static let NSPersistentStoreCoordinatorStoresWillChange = Notification.Name("NSPersistentStoreCoordinatorStoresWillChangeNotification")
    /// Posted after a coordinator's stores change: its object is the coordinator, its user info holds
    /// `NSAddedPersistentStoresKey` (`addPersistentStore`), `NSRemovedPersistentStoresKey` (`remove(_:)`) or
    /// `NSUUIDChangedPersistentStoresKey` (`migratePersistentStore`, and `setURL(_:for:)` when the store it opens has
    /// another UUID). Posted on the calling thread.
    public static let NSPersistentStoreCoordinatorStoresDidChange = Notification.Name("NSPersistentStoreCoordinatorStoresDidChangeNotification")
    /// Posted when a store is about to leave its coordinator (`remove(_:)`, and so `migratePersistentStore` and
    /// `destroyPersistentStore` of an added store), with no user info. Its object is the store being removed, as
    /// Apple's framework posts it (its reference names the coordinator).
    public static let NSPersistentStoreCoordinatorWillRemoveStore = Notification.Name("NSPersistentStoreCoordinatorWillRemoveStoreNotification")
}

extension NSPersistentStoreCoordinator {
    /// Posts `NSPersistentStoreCoordinatorStoresDidChange` with one key, unless this is a coordinator the library uses
    /// internally (a migration's scratch coordinator).
    func postStoresDidChange(_ key: String, _ value: [Any]) {
        guard postsStoreNotifications else { return }
        NotificationCenter.default.post(name: .NSPersistentStoreCoordinatorStoresDidChange, object: self, userInfo: [key: value])
    }

    /// Posts `NSPersistentStoreCoordinatorWillRemoveStore` for `store`.
    func postWillRemove(_ store: NSPersistentStore) {
        guard postsStoreNotifications else { return }
        NotificationCenter.default.post(name: .NSPersistentStoreCoordinatorWillRemoveStore, object: store)
    }
}
