import CoreDataModel
import Foundation
import UndoManagement

/// A scratch pad of managed objects on one queue: it fetches, fulfils faults, keeps one object per ID, and
/// (with the write half) tracks changes and saves them.
///
/// Reach a context only through `perform` and `performAndWait` (or from the main thread for a main-queue context);
/// objects it returns belong to its queue.
public final class NSManagedObjectContext: @unchecked Sendable {
    public enum ConcurrencyType: Sendable {
        /// The context runs on the main queue (the UI's).
        case mainQueueConcurrencyType
        /// The context owns a private serial queue.
        case privateQueueConcurrencyType
    }

    public let concurrencyType: ConcurrencyType
    public var persistentStoreCoordinator: NSPersistentStoreCoordinator? {
        didSet { coordinatorStatistics = persistentStoreCoordinator?.statistics }
    }
    /// The coordinator's statistics, kept apart for firing faults: reaching them through the coordinator retained and
    /// released it, and stores refer to their coordinator weakly, so each of those took the runtime's slow path.
    @exclusivity(unchecked) private var coordinatorStatistics: CoreDataStatistics?
    /// A name for debugging and for the SQL log.
    public var name: String?
    // Read on every change of every object (exclusivity: see `changedObjects`).
    /// Records every change so it can be undone; nil (the default) records nothing.
    @exclusivity(unchecked) public var undoManager: UndoManager?
    /// How a save resolves optimistic-locking conflicts; `.error` (the default) fails the save and lists them.
    public var mergePolicy: NSMergePolicy = .error
    /// The context a child context saves into; a child's fetches see its parent's unsaved changes.
    public var parent: NSManagedObjectContext? {
        didSet { if let parent { persistentStoreCoordinator = parent.persistentStoreCoordinator } }
    }

    /// Registered objects, not kept alive: an object nobody references leaves the context (Core Data keeps only
    /// changed objects alive, so a browser scrolling a million rows stays within bounded memory).
    let registry = ObjectRegistry()

    // The change-tracking state below is touched on every change of every object, on the context's queue only:
    // `@exclusivity(unchecked)`: see `MemorySafety.swift`, invariant 5.
    /// Objects with unsaved changes, held strongly until they are saved or rolled back.
    @exclusivity(unchecked) var changedObjects = TrackedObjects(.changed)
    /// Changed objects not yet announced by an objects-did-change notification.
    @exclusivity(unchecked) var unpostedChanges = TrackedObjects(.unposted)
    /// Deleted objects whose delete rules have not been applied yet.
    @exclusivity(unchecked) var pendingDeletions: [NSManagedObject] = []
    /// The class and slots of the entity whose object was created last: fetches create many objects of one entity
    /// in a row, and finding them costs two locks and a walk up the entity's ancestors.
    @exclusivity(unchecked) private var lastObjectShape: (entity: ObjectIdentifier, coordinator: ObjectIdentifier, generation: Int,
                                  type: NSManagedObject.Type, slots: PropertySlots)?
    /// The entity `insertNewObject(forEntityName:into:)` found last, by name and model: inserts come in runs of one
    /// entity, and comparing a short name costs less than hashing it.
    @exclusivity(unchecked) private var lastEntityByName: (name: String, model: NSManagedObjectModel, generation: Int,
                                                           entity: NSEntityDescription)?
    private let queue: DispatchQueue
    private let queueKey = DispatchSpecificKey<ObjectIdentifier>()

    public init(concurrencyType: ConcurrencyType) {
        self.concurrencyType = concurrencyType
        switch concurrencyType {
        case .mainQueueConcurrencyType: queue = .main
        case .privateQueueConcurrencyType: queue = DispatchQueue(label: "OpenCoreData.NSManagedObjectContext")
        }
        queue.setSpecific(key: queueKey, value: ObjectIdentifier(self))
    }

    deinit {
        // Objects refer to their context unretained (see `NSManagedObject.contextReference`): every object that names
        // this context is in its registry, and learns here that the context is gone. Prefetched destinations can form
        // cycles between objects (as fulfilled relationships do in Core Data, where `reset()` breaks them); a context
        // that goes away breaks them for its objects.
        for object in registry.liveObjects {
            object.managedObjectContext = nil
            object.sideState?.prefetchedDestinations.removeAll()
        }
    }

    // MARK: Concurrency

    /// Runs `block` on the context's queue, asynchronously.
    public func perform(_ block: @escaping @Sendable () -> Void) {
        queue.async(execute: block)
    }

    /// Runs `block` on the context's queue and waits for it; runs it at once when already on that queue.
    public func performAndWait<T>(_ block: () throws -> T) rethrows -> T {
        if isOnQueue { return try block() }
        return try queue.sync(execute: block)
    }

    /// Runs `block` on the context's queue and returns its result (Swift concurrency form of `perform`).
    public func perform<T: Sendable>(_ block: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(with: Result { try block() })
            }
        }
    }

    /// In debug builds, traps when the context is used off its queue (Core Data's concurrency debugging):
    /// wrap the call in `perform` or `performAndWait`.
    func assertOnQueue(_ function: StaticString = #function) {
        #if DEBUG
        precondition(isOnQueue, "NSManagedObjectContext.\(function) called off the context's queue; use perform or performAndWait")
        #endif
    }

    private var isOnQueue: Bool {
        if concurrencyType == .mainQueueConcurrencyType, Thread.isMainThread { return true }
        return DispatchQueue.getSpecific(key: queueKey) == ObjectIdentifier(self)
    }

    // MARK: Objects

    /// The object for `objectID`: the registered one, or a new fault (no store access).
    public func object(with objectID: NSManagedObjectID) -> NSManagedObject {
        assertOnQueue()
        if let existing = registry.object(for: objectID) { return existing }
        return register(objectID, snapshot: nil)
    }

    /// The object for `objectID` with its values loaded; throws when no store holds it.
    public func existingObject(with objectID: NSManagedObjectID) throws -> NSManagedObject {
        let object = self.object(with: objectID)
        if object.isFault {
            try fulfillFaultThrowing(for: object)
        }
        if let error = object.faultingError as? CoreDataError, error.code == .objectInaccessibleException { throw error }
        return object
    }

    /// The registered objects that are still alive.
    public var registeredObjects: Set<NSManagedObject> {
        Set(registry.liveObjects)
    }

    /// The registered object for an ID, without creating one.
    public func registeredObject(for objectID: NSManagedObjectID) -> NSManagedObject? {
        registry.object(for: objectID)
    }

    /// Registers an object for an ID, filling it from `snapshot` when given.
    @discardableResult
    func register(_ objectID: NSManagedObjectID, snapshot: Snapshot?) -> NSManagedObject {
        if let existing = registry.object(for: objectID) {
            if existing.storedValues == nil, let snapshot { existing.fill(from: snapshot) }
            return existing
        }
        guard let coordinator = persistentStoreCoordinator else {
            preconditionFailure("the context has no persistent store coordinator")
        }
        var shape: ObjectShape?
        let object = makeObject(for: objectID, coordinator: coordinator, shape: &shape)
        if let snapshot { object.fill(from: snapshot) }
        return object
    }

    /// The class and slots objects of one entity are made with, and that entity.
    typealias ObjectShape = (entity: ObjectIdentifier, type: NSManagedObject.Type, slots: PropertySlots)

    /// A new object, registered, for an ID that no live object holds. `shape` carries the class and slots from one
    /// call to the next: a fetch makes many objects of one entity in a row, and keeping them in the caller's local
    /// saves retaining and releasing them for every object.
    func makeObject(for objectID: NSManagedObjectID, coordinator: NSPersistentStoreCoordinator, shape: inout ObjectShape?) -> NSManagedObject {
        if shape?.entity != ObjectIdentifier(objectID.entity) {
            let (type, slots) = objectShape(for: objectID.entity, coordinator: coordinator)
            shape = (ObjectIdentifier(objectID.entity), type, slots)
        }
        return shape!.type.init(entity: objectID.entity, objectID: objectID, context: self, slots: shape!.slots)
    }

    /// The class to instantiate for `entity` (its registered subclass) and its property slots.
    func objectShape(for entity: NSEntityDescription, coordinator: NSPersistentStoreCoordinator) -> (NSManagedObject.Type, PropertySlots) {
        let generation = NSManagedObject.subclassGeneration
        if let shape = lastObjectShape, shape.entity == ObjectIdentifier(entity), shape.coordinator == ObjectIdentifier(coordinator),
           shape.generation == generation {
            return (shape.type, shape.slots)
        }
        let type = NSManagedObject.registeredClass(forEntity: entity)
        let slots = coordinator.slots(for: entity)
        lastObjectShape = (ObjectIdentifier(entity), ObjectIdentifier(coordinator), generation, type, slots)
        return (type, slots)
    }

    /// The entity called `name` in `model` (see `lastEntityByName`).
    func entity(named name: String, in model: NSManagedObjectModel) -> NSEntityDescription? {
        let generation = NSEntityDescription.structureGeneration
        if let last = lastEntityByName, last.model === model, last.generation == generation, last.name == name {
            return last.entity
        }
        guard let entity = model.entitiesByName[name] else { return nil }
        lastEntityByName = (name, model, generation, entity)
        return entity
    }

    /// Turns `object` back into a fault (releasing its values and relationships), or refreshes its values
    /// from the store when `mergeChanges` is true: then its unsaved changes are re-applied over the fresh values.
    public func refresh(_ object: NSManagedObject, mergeChanges: Bool) {
        if mergeChanges && object.hasChanges {
            // Apple's merge: the store's current values and version, with this context's unsaved changes re-applied
            // over them (an inserted object has nothing in the store to refresh from).
            guard !object.isInserted else { return }
            persistentStoreCoordinator?.rowCache.remove(object.objectID)
            if object.storedValues == nil { fulfillFault(for: object) }
            object.mergeStoreValuesKeepingChanges()
            return
        }
        object.turnIntoFault()
        if let coordinator = persistentStoreCoordinator {
            coordinator.rowCache.remove(object.objectID)
        }
        if mergeChanges { fulfillFault(for: object) }
    }

    /// Refreshes every registered object, as `refresh(_:mergeChanges: true)` would: objects without unsaved changes
    /// turn back into faults (their next use reads the store's current values), and objects with changes keep them.
    public func refreshAllObjects() {
        assertOnQueue()
        for object in registry.liveObjects where !object.hasChanges {
            refresh(object, mergeChanges: false)
        }
    }

    /// Forgets every registered object: they become inaccessible, and the next access fetches again.
    public func reset() {
        changedObjects.removeAll()
        for object in registry.liveObjects {
            object.turnIntoFault()
            object.managedObjectContext = nil
        }
        registry.removeAll()
    }

    // MARK: Faults

    /// Fills a fault from the row cache, or from the store on a miss. An object whose row is gone becomes
    /// inaccessible: its values read as nil and `faultingError` says why.
    func fulfillFault(for object: NSManagedObject) {
        // Checked here as well as in `fulfillFaultThrowing`: reading a fetched fault skips the call.
        if fillFromFetchedRow(object) { return }
        do {
            try fulfillFaultThrowing(for: object)
        } catch {
            object.faultingError = error
            object.fill(from: Snapshot(values: Array(repeating: .null, count: object.slots.count), version: 0))
        }
    }

    /// Fills a fault from the row its fetch kept, if it kept one (only a context without a parent keeps one): a
    /// row-cache hit that no eviction can lose, and the usual way a fetched object fills (reading it, deleting it).
    /// Reaches no coordinator, and counts itself with one atomic increment.
    private func fillFromFetchedRow(_ object: NSManagedObject) -> Bool {
        guard object.pendingValues != nil else { return false }
        coordinatorStatistics?.recordFaultFilledFromFetchedRow()
        // Moved, not copied (a copy retained the values and clearing the pending ones released them); the version is
        // already in `snapshotVersion`.
        object.storedValues = object.pendingValues.take()
        return true
    }

    func fulfillFaultThrowing(for object: NSManagedObject) throws {
        if fillFromFetchedRow(object) { return }
        guard let coordinator = persistentStoreCoordinator else {
            throw CoreDataError(.objectInaccessibleException, "\(object.objectID): the object's context has no coordinator")
        }
        let id = object.objectID
        // Each path records its counters under one lock: firing a fault is a hot path.
        if valuesFromParent(for: object) {
            coordinator.statistics.record { $0.faultsFired += 1 }
            return
        }
        if let snapshot = coordinator.rowCache.snapshot(for: id) {
            coordinator.statistics.record { $0.faultsFired += 1; $0.rowCacheHits += 1 }
            object.fill(from: snapshot)
            return
        }
        coordinator.statistics.record { $0.faultsFired += 1; $0.rowCacheMisses += 1 }
        let store = try coordinator.store(for: id)
        let snapshots = try coordinator.withLock { try store.snapshots(for: [id]) }
        guard let snapshot = snapshots[id] else {
            let reason = coordinator.withLock { store.missingRowReason(for: id) }
            throw CoreDataError(.objectInaccessibleException,
                                "CoreData could not fulfill a fault for \(id): \(reason ?? "the row no longer exists")",
                                affectedObjectIDs: [id])
        }
        coordinator.rowCache.store(snapshot, for: id)
        object.fill(from: snapshot)
    }

    /// Fulfils many faults with one query per entity table (Core Data's batch faulting with `IN`).
    public func fulfillFaults(for objects: [NSManagedObject]) throws {
        guard let coordinator = persistentStoreCoordinator else { return }
        var missing: [NSManagedObjectID] = []
        var seen = Set<ObjectIdentifier>()
        // The same object may come many times (the chef of every recipe of a to-one prefetch): query it once.
        for object in objects where object.isFault && seen.insert(ObjectIdentifier(object)).inserted {
            if parent == nil, let pending = object.pendingSnapshot {
                object.fill(from: pending)  // the row its fetch read
                continue
            }
            if let snapshot = coordinator.rowCache.snapshot(for: object.objectID) {
                object.fill(from: snapshot)
            } else {
                missing.append(object.objectID)
            }
        }
        guard !missing.isEmpty else { return }
        let byStore = Dictionary(grouping: missing) { id in (try? coordinator.store(for: id)).map(ObjectIdentifier.init) }
        for (_, ids) in byStore {
            let store = try coordinator.store(for: ids[0])
            let snapshots = try coordinator.withLock { try store.snapshots(for: ids) }
            for (id, snapshot) in snapshots {
                coordinator.rowCache.store(snapshot, for: id)
                registry.object(for: id)?.fill(from: snapshot)
            }
        }
        coordinator.statistics.record { $0.faultsFired += missing.count }
    }

    func fetchToManyObjectIDs(of object: NSManagedObject, relationship: NSRelationshipDescription) -> [NSManagedObjectID] {
        if let fromParent = toManyFromParent(of: object, relationship: relationship) { return fromParent }
        guard let coordinator = persistentStoreCoordinator, !object.objectID.isTemporaryID else { return [] }
        do {
            let store = try coordinator.store(for: object.objectID)
            coordinator.statistics.record { $0.relationshipFaultsFired += 1 }
            return try coordinator.withLock { try store.destinations(of: object.objectID, relationship: relationship) }
        } catch {
            object.faultingError = error
            return []
        }
    }

    func externalData(reference: String, for object: NSManagedObject) -> Data? {
        guard let coordinator = persistentStoreCoordinator, let store = try? coordinator.store(for: object.objectID) else { return nil }
        do {
            return try coordinator.withLock { try store.externalData(reference: reference) }
        } catch {
            object.faultingError = error
            return nil
        }
    }
}

