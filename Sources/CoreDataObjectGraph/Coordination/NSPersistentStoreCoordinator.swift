import CoreDataModel
import Foundation
import Synchronization

/// Connects contexts to stores: it owns the model, the stores, the row cache shared by its contexts and the
/// statistics, and it serialises every store request under one lock.
public final class NSPersistentStoreCoordinator: @unchecked Sendable {
    public let managedObjectModel: NSManagedObjectModel
    public private(set) var persistentStores: [NSPersistentStore] = []
    /// What this coordinator's stores and contexts have done (fetches, faults, cache hits, …).
    public let statistics = CoreDataStatistics()
    let rowCache: RowCache
    /// Store requests run one at a time, whichever context sends them (Core Data's coordinator lock).
    private let lock = NSRecursiveLock()
    private let slotsByEntity = Mutex<[ObjectIdentifier: PropertySlots]>([:])

    private static let registry = Mutex<[String: NSPersistentStore.Type]>([NSSQLiteStoreType: NSSQLiteStore.self])

    public init(managedObjectModel model: NSManagedObjectModel, rowCacheCapacity: Int = 50_000) {
        self.managedObjectModel = model
        self.rowCache = RowCache(capacity: rowCacheCapacity)
    }

    /// Registers a store class under a type name, as `NSPersistentStoreCoordinator.registerStoreClass(_:type:)`.
    public static func registerStoreClass(_ storeClass: NSPersistentStore.Type, type: String) {
        registry.withLock { $0[type] = storeClass }
    }

    public static var registeredStoreTypes: [String: NSPersistentStore.Type] { registry.withLock { $0 } }

    /// Opens a store of `storeType` at `url` and adds it. Throws when the type is unknown, the file cannot be opened,
    /// or its version hashes do not match the model (`.persistentStoreIncompatibleVersionHash`).
    @discardableResult
    public func addPersistentStore(ofType storeType: String, configurationName: String? = nil, at url: URL?,
                                   options: [String: Any]? = nil) throws -> NSPersistentStore {
        guard let storeClass = Self.registry.withLock({ $0[storeType] }) else {
            if let name = unimplementedStoreTypes[storeType] {
                throw CoreDataError(.persistentStoreInvalidType,
                                    "\(name) stores (type \"\(storeType)\") are not implemented yet; only \(NSSQLiteStoreType) stores are")
            }
            throw CoreDataError(.persistentStoreInvalidType, "unknown store type \"\(storeType)\"; known: \(Self.registeredStoreTypes.keys.sorted().joined(separator: ", "))")
        }
        let store = storeClass.init(coordinator: self, configurationName: configurationName, url: url, options: options ?? [:])
        try withLock { try store.load() }
        lock.withLock { persistentStores.append(store) }
        return store
    }

    /// Closes a store; its objects become inaccessible.
    public func remove(_ store: NSPersistentStore) throws {
        lock.withLock {
            persistentStores.removeAll { $0 === store }
            rowCache.removeAll()
        }
    }

    public func persistentStore(for url: URL) -> NSPersistentStore? {
        lock.withLock { persistentStores.first { $0.url?.standardizedFileURL == url.standardizedFileURL } }
    }

    /// The store that holds `entity`: the first whose configuration includes it.
    func store(for entity: NSEntityDescription) throws -> any RowStore {
        let store = lock.withLock {
            persistentStores.first { store in
                managedObjectModel.entities(forConfigurationName: store.configurationName).contains { $0 === entity || $0.name == entity.name }
            }
        }
        guard let store else {
            throw CoreDataError(.persistentStoreOperation, "no store holds entity \(entity.name); add a persistent store first")
        }
        return try rowStore(store)
    }

    func store(for id: NSManagedObjectID) throws -> any RowStore {
        if let identifier = id.storeIdentifier,
           let store = lock.withLock({ persistentStores.first { $0.identifier == identifier } }) {
            return try rowStore(store)
        }
        return try store(for: id.entity)
    }

    private func rowStore(_ store: NSPersistentStore) throws -> any RowStore {
        guard let rowStore = store as? any RowStore else {
            throw CoreDataError(.persistentStoreUnsupportedRequestType, "\(store.type) stores cannot answer fetches yet")
        }
        return rowStore
    }

    /// The slot layout of an entity's stored properties, shared by every object of the entity.
    func slots(for entity: NSEntityDescription) -> PropertySlots {
        slotsByEntity.withLock { cache in
            if let slots = cache[ObjectIdentifier(entity)] { return slots }
            let slots = PropertySlots(entity: entity)
            cache[ObjectIdentifier(entity)] = slots
            return slots
        }
    }

    /// Runs `body` under the coordinator's lock.
    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// The entity named `name`, or an error naming it and the entities that exist.
    func entity(named name: String) throws -> NSEntityDescription {
        guard let entity = managedObjectModel.entitiesByName[name] else {
            let known = managedObjectModel.entities.map(\.name).sorted().joined(separator: ", ")
            throw CoreDataError(.persistentStoreOperation, "unknown entity \"\(name)\" (the model has: \(known))")
        }
        return entity
    }
}
