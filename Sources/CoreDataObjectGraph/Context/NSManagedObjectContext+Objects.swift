import CoreDataModel
import Foundation
import UndoManagement

// Registered objects and faults; the context's declaration, with the stored state, is in the storage room
// (`Storage/NSManagedObjectContext.swift`).
extension NSManagedObjectContext {
    // MARK: Objects

    /// The object for `objectID`: the registered one, or a new fault (no store access).
    public func object(with objectID: NSManagedObjectID) -> NSManagedObject {
        assertOnQueue()
        if let existing = registry.object(for: objectID) { return existing }
        let object = register(objectID, snapshot: nil)
        if retainsRegisteredObjects { retainedObjects.insert(object) }
        return object
    }

    /// The object for `objectID` with its values loaded; throws when no store holds it.
    public func existingObject(with objectID: NSManagedObjectID) throws -> NSManagedObject {
        let object = self.object(with: objectID)
        if object.isFault {
            try fulfillFaultThrowing(for: object)
            object.awakeFromFetchUnlessPlain()
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

    /// Apple's refresh. With `mergeChanges` false the object's pending changes are discarded and it becomes a fault,
    /// its transient values disposed of; its next use reloads its values from the store (a child's from its parent).
    /// With `mergeChanges` true an object with changes reloads its values and has its unsaved changes re-applied
    /// over them, transient values untouched; one without changes becomes a fault, as `refreshAllObjects()` leaves
    /// it. An inserted object has no row to reload from: it becomes a fault that gets its own values back when it
    /// fires, and is still inserted (with `mergeChanges` true it is left as it is).
    public func refresh(_ object: NSManagedObject, mergeChanges: Bool) {
        // Fetched properties fetch again on their next use.
        if object.sideState?.fetchedProperties.isEmpty == false { object.sideState?.fetchedProperties.removeAll() }
        if mergeChanges && object.hasChanges {
            // Apple's merge: the current values and version (the parent's for a child, whose store the parent is),
            // with this context's unsaved changes re-applied over them.
            guard !object.isInserted else { return }
            persistentStoreCoordinator?.rowCache.remove(object.objectID)
            if object.storedValues == nil { fulfillFault(for: object) }
            if let fresh = snapshotFromParent(for: object) {
                object.mergeStoreValuesKeepingChanges(fresh)
            } else {
                object.mergeStoreValuesKeepingChanges()
            }
            object.awake(fromSnapshotEvents: .refresh)
            return
        }
        if !mergeChanges && object.isUpdated {
            // As Apple's: the pending changes are lost, so the object no longer counts as updated (a save would
            // otherwise write the store's values back over another process's newer ones at a stale version).
            object.changes.reset()
            changedObjects.remove(object)
        }
        if object.isInserted {
            object.turnInsertedObjectIntoFault()
            return
        }
        object.turnIntoFaultCallingHooks()
        if let coordinator = persistentStoreCoordinator {
            coordinator.rowCache.remove(object.objectID)
        }
    }

    /// Refreshes every registered object, as `refresh(_:mergeChanges: true)` would: objects without unsaved changes
    /// turn back into faults (their next use reads the store's current values), objects with changes reload their
    /// values and keep their changes over them, and inserted objects stay as they are.
    public func refreshAllObjects() {
        assertOnQueue()
        // An object whose only changes are transient values is turned into a fault too: refreshing re-applies changes
        // to persistent properties, and transient values start over (`awake(fromSnapshotEvents:)` recomputes them).
        var refreshed: Set<NSManagedObject> = []
        for object in registry.liveObjects where !object.isInserted {
            let merges = object.hasChanges && !object.changes.hasOnlyTransientChanges
            refresh(object, mergeChanges: merges)
            refreshed.insert(object)
        }
        // As Apple's: observers (and fetched results controllers) learn which objects were refreshed.
        guard !refreshed.isEmpty else { return }
        NotificationCenter.default.post(name: Self.objectsDidChangeNotification, object: self, userInfo: [NSRefreshedObjectsKey: refreshed])
    }

    /// Forgets every registered object: they become inaccessible, and the next access fetches again.
    public func reset() {
        // Taken first: the lists below may hold the only reference to an inserted object, which is invalidated too.
        let live = registry.liveObjects
        changedObjects.removeAll()
        // Forgotten changes are announced by no later objects-did-change (a main-queue context's run-loop turn
        // included), and deletions forgotten apply no delete rules.
        unpostedChanges.removeAll()
        pendingDeletions.removeAll()
        retainedObjects.removeAll()
        var invalidated: [NSManagedObjectID] = []
        for object in live {
            invalidated.append(object.objectID)
            object.turnIntoFault()
            object.managedObjectContext = nil
        }
        registry.removeAll()
        // As Apple's: objects-did-change says every object was invalidated, with their IDs.
        NotificationCenter.default.post(name: Self.objectsDidChangeNotification, object: self,
                                        userInfo: [NSInvalidatedAllObjectsKey: invalidated])
    }

    // MARK: Faults

    /// Fills a fault from the row cache, or from the store on a miss. An object whose row is gone becomes
    /// inaccessible: its values read as nil and `faultingError` says why.
    func fulfillFault(for object: NSManagedObject) {
        // Checked here as well as in `fulfillFaultThrowing`: reading a fetched fault skips the call.
        if fillFromFetchedRow(object) {
            object.awakeFromFetchUnlessPlain()
            return
        }
        do {
            try fulfillFaultThrowing(for: object)
            object.awakeFromFetchUnlessPlain()
        } catch {
            object.faultingError = error
            object.fill(from: Snapshot(values: Array(repeating: .null, count: object.slots.count), version: 0))
        }
    }

    /// Fills a fault from the row its fetch kept, if it kept one (only a context without a parent keeps one): a
    /// row-cache hit that no eviction can lose, and the usual way a fetched object fills (reading it, deleting it).
    /// Reaches no coordinator, and counts itself with one atomic increment. An inserted object turned into a fault
    /// keeps its own values there (`turnInsertedObjectIntoFault()`), in any context.
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
        if stalenessInterval != 0, let snapshot = coordinator.rowCache.snapshot(for: id) {
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
            if object.objectID.isTemporaryID {
                // No row: an inserted object turned into a fault holds its values, a parent's insert is its parent's.
                fulfillFault(for: object)
                continue
            }
            if parent == nil, let pending = object.pendingSnapshot {
                object.fill(from: pending)  // the row its fetch read
                object.awakeFromFetchUnlessPlain()
                continue
            }
            if let snapshot = coordinator.rowCache.snapshot(for: object.objectID) {
                object.fill(from: snapshot)
                object.awakeFromFetchUnlessPlain()
            } else {
                missing.append(object.objectID)
            }
        }
        guard !missing.isEmpty else { return }
        var awakened: [NSManagedObject] = []
        defer { for object in awakened { object.awakeFromFetchUnlessPlain() } }
        let byStore = Dictionary(grouping: missing) { id in (try? coordinator.store(for: id)).map(ObjectIdentifier.init) }
        for (_, ids) in byStore {
            let store = try coordinator.store(for: ids[0])
            let snapshots = try coordinator.withLock { try store.snapshots(for: ids) }
            for (id, snapshot) in snapshots {
                coordinator.rowCache.store(snapshot, for: id)
                if let object = registry.object(for: id) {
                    object.fill(from: snapshot)
                    awakened.append(object)
                }
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
