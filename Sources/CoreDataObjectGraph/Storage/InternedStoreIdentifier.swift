import Synchronization

/// A store identifier held once per process, so that object IDs can name their store without owning a string.
///
/// Every fetched row becomes an ID, and an ID that held the store's identifier as a `String` retained its 36-character
/// storage, an atomic operation on every row. An ID holds its store's
/// interned identifier unretained instead: interned identifiers are never deallocated (a process opens few stores,
/// and each costs one small object), and two IDs name the same store exactly when their interned identifiers are the
/// same object.
final class InternedStoreIdentifier: Sendable {
    let string: String
    /// The stores added to a coordinator under this identifier, newest last (weakly: a store lives as long as its
    /// coordinator keeps it). Two coordinators that opened the same file hold two stores with one identifier.
    private let addedStores = Mutex<[WeakStore]>([])

    private struct WeakStore: @unchecked Sendable {
        weak var store: NSPersistentStore?
    }

    /// Notes that `store` was added to a coordinator.
    func noteAdded(_ store: NSPersistentStore) {
        addedStores.withLock { stores in
            stores.removeAll { $0.store == nil || $0.store === store }
            stores.append(WeakStore(store: store))
        }
    }

    /// Notes that `store` was removed from its coordinator.
    func noteRemoved(_ store: NSPersistentStore) {
        addedStores.withLock { stores in stores.removeAll { $0.store == nil || $0.store === store } }
    }

    /// The store added last under this identifier that is still added to a coordinator, or nil.
    var latestAddedStore: NSPersistentStore? {
        addedStores.withLock { stores in stores.last { $0.store?.persistentStoreCoordinator != nil }?.store }
    }

    private init(_ string: String) {
        self.string = string
    }

    private static let table = Mutex<[String: InternedStoreIdentifier]>([:])

    /// The one interned identifier for `string`, made on first use and kept for the life of the process.
    static func intern(_ string: String) -> InternedStoreIdentifier {
        table.withLock { table in
            if let interned = table[string] { return interned }
            let interned = InternedStoreIdentifier(string)
            table[string] = interned
            return interned
        }
    }
}
