import CoreDataModel
import Foundation
import Synchronization

/// Connects contexts to stores: it owns the model, the stores, the row cache shared by its contexts and the
/// statistics, and it serialises every store request under one lock.
public final class NSPersistentStoreCoordinator: @unchecked Sendable {
    public let managedObjectModel: NSManagedObjectModel
    public internal(set) var persistentStores: [NSPersistentStore] = []
    /// What this coordinator's stores and contexts have done (fetches, faults, cache hits, …).
    public let statistics = CoreDataStatistics()
    /// A name for debugging (Apple's `name`); the coordinator never reads it.
    public var name: String? {
        get { withLock { storedName } }
        set { withLock { storedName = newValue } }
    }
    private var storedName: String?
    let rowCache: RowCache
    /// Store requests run one at a time, whichever context sends them (Core Data's coordinator lock).
    private let lock = NSRecursiveLock()
    private let slotsByEntity = Mutex<[ObjectIdentifier: PropertySlots]>([:])
    /// The stores unsaved objects were assigned to (`NSManagedObjectContext.assign(_:to:)`), by their temporary IDs;
    /// read and changed under the lock.
    var storeAssignments: [NSManagedObjectID: NSPersistentStore] = [:]
    /// Whether adding and removing stores posts Apple's store notifications (false for a migration's scratch coordinator).
    var postsStoreNotifications = true

    static let registry = Mutex<[String: NSPersistentStore.Type]>([
        NSSQLiteStoreType: NSSQLiteStore.self, NSInMemoryStoreType: NSInMemoryStore.self, NSXMLStoreType: NSXMLStore.self,
        NSBinaryStoreType: NSBinaryStore.self,
    ])

    public init(managedObjectModel model: NSManagedObjectModel, rowCacheCapacity: Int = 50_000) {
        self.managedObjectModel = model
        self.rowCache = RowCache(capacity: rowCacheCapacity)
        KnownModels.note(model)
    }

    /// Registers a store class under a type name, as `NSPersistentStoreCoordinator.registerStoreClass(_:type:)`.
    public static func registerStoreClass(_ storeClass: NSPersistentStore.Type, type: String) {
        registry.withLock { $0[type] = storeClass }
    }

    public static var registeredStoreTypes: [String: NSPersistentStore.Type] { registry.withLock { $0 } }

    /// The name `storeClass` is registered under (the first in name order when it is registered under several).
    static func registeredType(of storeClass: NSPersistentStore.Type) -> String? {
        registry.withLock { registry in registry.filter { $0.value == storeClass }.keys.min() }
    }

    /// The store class registered for `storeType`, or an error naming the type and the known ones.
    static func storeClass(for storeType: String) throws -> NSPersistentStore.Type {
        if let storeClass = registry.withLock({ $0[storeType] }) { return storeClass }
        throw CoreDataError(.persistentStoreInvalidType, "unknown store type \"\(storeType)\"; known: \(registeredStoreTypes.keys.sorted().joined(separator: ", "))")
    }

    /// Opens the store of `storeType` at `url` and adds it, creating it (and its directory) with the model's layout and
    /// metadata when no file is there, as Apple's coordinator does; a store added read-only is never created. Throws
    /// when the type is unknown, the file cannot be opened or created, the store is already added, or its version
    /// hashes do not match the model (`.persistentStoreIncompatibleVersionHash`).
    @discardableResult
    public func addPersistentStore(ofType storeType: String, configurationName: String? = nil, at url: URL?,
                                   options: [AnyHashable: Any]? = nil) throws -> NSPersistentStore {
        let storeClass = try Self.storeClass(for: storeType)
        if let url, !storeClass.keepsNoFiles, persistentStore(for: url) != nil {
            throw CoreDataError(.persistentStoreOpen, "\(url.path): this store is already added to the coordinator; a store is added once")
        }
        let store = storeClass.init(coordinator: self, configurationName: configurationName, url: url, options: options)
        try withLock { try store.loadStore() }
        store.hasUnsavedMetadata = false
        lock.withLock { persistentStores.append(store) }
        InternedStoreIdentifier.intern(store.storeIdentifier).noteAdded(store)
        store.didAdd(to: self)
        postStoresDidChange(NSAddedPersistentStoresKey, [store])
        return store
    }

    /// Removes a store from the coordinator and closes it; its objects become inaccessible. Throws when the store is
    /// not one of this coordinator's. Posts `NSPersistentStoreCoordinatorWillRemoveStore` before and
    /// `NSPersistentStoreCoordinatorStoresDidChange` after, outside the coordinator's lock.
    public func remove(_ store: NSPersistentStore) throws {
        func refusal() -> CoreDataError {
            CoreDataError(.persistentStoreOperation, "\(store.url?.path ?? "the store"): not a store of this coordinator, so it cannot be removed")
        }
        guard lock.withLock({ persistentStores.contains { $0 === store } }) else { throw refusal() }
        postWillRemove(store)
        try lock.withLock {
            // An observer of the will-remove notification may have removed it already.
            guard persistentStores.contains(where: { $0 === store }) else { throw refusal() }
            store.willRemove(from: self)
            persistentStores.removeAll { $0 === store }
            InternedStoreIdentifier.intern(store.storeIdentifier).noteRemoved(store)
            rowCache.removeAll()
        }
        postStoresDidChange(NSRemovedPersistentStoresKey, [store])
    }

    /// Takes `store` out of this coordinator without closing it, for another coordinator to `attach`.
    func detach(_ store: NSPersistentStore) {
        lock.withLock {
            persistentStores.removeAll { $0 === store }
            InternedStoreIdentifier.intern(store.storeIdentifier).noteRemoved(store)
            rowCache.removeAll()
        }
    }

    /// Adds a store that is already loaded (one `detach`ed from another coordinator).
    func attach(_ store: NSPersistentStore) {
        store.persistentStoreCoordinator = self
        lock.withLock { persistentStores.append(store) }
        InternedStoreIdentifier.intern(store.storeIdentifier).noteAdded(store)
        store.didAdd(to: self)
    }

    /// The store added at `url` (compared as standardised file URLs), or nil.
    public func persistentStore(for url: URL) -> NSPersistentStore? {
        lock.withLock { persistentStores.first { $0.url?.standardizedFileURL == url.standardizedFileURL } }
    }

    /// The store that holds `entity`: the first whose configuration includes it.
    func store(for entity: NSEntityDescription) throws -> any RowStore {
        let store = lock.withLock { persistentStores.first { holds($0, entity) } }
        guard let store else {
            throw CoreDataError(.persistentStoreOperation, "no store holds entity \(entity.entityName); add a persistent store first")
        }
        return try rowStore(store)
    }

    /// Whether `store`'s configuration includes `entity`.
    func holds(_ store: NSPersistentStore, _ entity: NSEntityDescription) -> Bool {
        managedObjectModel.configurationEntities(store.configuration).contains { $0 === entity || $0.entityName == entity.entityName }
    }

    /// The store that holds (or, for an unsaved object, will hold) the object `id`: its own store, else the store it
    /// was assigned to, else the first writable store that holds its entity, else the first that holds it.
    func store(for id: NSManagedObjectID) throws -> any RowStore {
        if let identifier = id.storeIdentifier,
           let store = lock.withLock({ persistentStores.first { $0.storeIdentifier == identifier } }) {
            return try rowStore(store)
        }
        if id.isTemporaryID {
            // Apple's rule: an unassigned insert goes to the first writable store that holds its entity.
            let chosen = lock.withLock {
                storeAssignments[id] ?? persistentStores.first { !$0.isReadOnly && holds($0, id.entity) }
            }
            if let chosen { return try rowStore(chosen) }
        }
        return try store(for: id.entity)
    }

    func rowStore(_ store: NSPersistentStore) throws -> any RowStore {
        guard let rowStore = store as? any RowStore else {
            throw CoreDataError(.persistentStoreUnsupportedRequestType,
                                "\(type(of: store)) (store type \"\(store.type)\") does not adopt RowStore, so it cannot answer fetches or saves")
        }
        return rowStore
    }

    /// The slot layout of an entity's stored properties, shared by every object of the entity: the order of a
    /// ``Snapshot``'s values, which a store outside the library follows.
    public func propertySlots(for entity: NSEntityDescription) -> PropertySlots { slots(for: entity) }

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
            let known = managedObjectModel.entities.map(\.entityName).sorted().joined(separator: ", ")
            throw CoreDataError(.persistentStoreOperation, "unknown entity \"\(name)\" (the model has: \(known))")
        }
        return entity
    }
}
