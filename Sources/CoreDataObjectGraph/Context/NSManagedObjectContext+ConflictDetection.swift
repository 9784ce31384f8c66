import CoreDataModel
import Foundation

/// Apple's `detectConflicts(for:)`: optimistic locking for an object the context does not change. Changed and deleted
/// objects are always checked by the store when written; a marked unchanged object is checked by the next save too.
extension NSManagedObjectContext {
    /// Marks `object` for conflict detection: the next save that writes changes fails with
    /// `NSManagedObjectMergeError` if the object's row changed in (or left) the store since the object read it, even
    /// when the object itself is unchanged, its ``NSMergeConflict`` under `"conflictList"`. The context's merge policy
    /// gets the conflict first: the built-in ones other than the error policy give the object the store's values. The
    /// mark lasts until a save succeeds.
    public func detectConflicts(for object: NSManagedObject) {
        guard object.managedObjectContext === self, !object.objectID.isTemporaryID else { return }
        // The version the check compares with is the one the object's values were read at.
        if object.storedValues == nil { fulfillFault(for: object) }
        conflictDetectedObjects.insert(object)
    }

    /// Checks the marked objects that the save does not write (the store checks those it writes) against their
    /// stores' rows, before the write.
    func checkDetectedConflicts(coordinator: NSPersistentStoreCoordinator) throws {
        let watched = conflictDetectedObjects.filter {
            $0.managedObjectContext === self && !$0.hasChanges && $0.storedValues != nil
        }
        guard !watched.isEmpty else { return }
        var conflicts: [NSManagedObject] = []
        var fresh: [NSManagedObjectID: Snapshot] = [:]
        var groups: [ObjectIdentifier: (store: any RowStore, objects: [NSManagedObject])] = [:]
        for object in watched {
            let store = try coordinator.store(for: object.objectID)
            groups[ObjectIdentifier(store as AnyObject), default: (store, [])].objects.append(object)
        }
        for (store, objects) in groups.values {
            let snapshots = try coordinator.withLock { try store.snapshots(for: objects.map(\.objectID)) }
            for object in objects {
                if let snapshot = snapshots[object.objectID], snapshot.version == object.snapshotVersion { continue }
                conflicts.append(object)
                fresh[object.objectID] = snapshots[object.objectID]
            }
        }
        guard !conflicts.isEmpty else { return }
        let list = mergeConflicts(of: conflicts, storeRows: fresh, coordinator: coordinator)
        try mergePolicy.resolve(mergeConflicts: list)
        // Still in conflict: a row gone from the store, or an object the policy left at its old version.
        let left = list.filter { conflict in
            fresh[conflict.sourceObject.objectID].map { $0.version != conflict.sourceObject.snapshotVersion } ?? true
        }
        if !left.isEmpty { throw NSMergePolicy.mergeError(left) }
    }

    /// The save's optimistic-locking conflicts for `objects`, whose rows in the store are `storeRows` (an ID missing:
    /// the row was deleted). Where the coordinator's row cache already holds the store's version (another context of
    /// this coordinator saved it), the conflict is with the cache: the cached row, no persisted one. Otherwise the
    /// coordinator's copy is stale too: the row as it last knew it (the object's read values when the cache let it go),
    /// and the store's row.
    func mergeConflicts(of objects: [NSManagedObject], storeRows: [NSManagedObjectID: Snapshot],
                        coordinator: NSPersistentStoreCoordinator) -> [NSMergeConflict] {
        objects.map { object in
            let row = storeRows[object.objectID]
            let cached = coordinator.rowCache.snapshot(for: object.objectID)
            let cachedSnapshot: [String: Any]?, persistedSnapshot: [String: Any]?
            if let row, let cached, cached.version == row.version {
                (cachedSnapshot, persistedSnapshot) = (object.snapshotDictionary(cached.values), nil)
            } else {
                let known = cached?.values ?? object.changes.committedStoredValues ?? object.storedValues
                (cachedSnapshot, persistedSnapshot) = (known.map(object.snapshotDictionary), row.map { object.snapshotDictionary($0.values) })
            }
            return NSMergeConflict(source: object, newVersion: Int(row?.version ?? 0), oldVersion: Int(object.snapshotVersion),
                                   cachedSnapshot: cachedSnapshot, persistedSnapshot: persistedSnapshot,
                                   storeRow: row)
        }
    }

    /// The row `object` has in its store now; nil when it was deleted (or the object was never saved).
    func currentStoreRow(of object: NSManagedObject) throws -> Snapshot? {
        guard !object.objectID.isTemporaryID, let coordinator = persistentStoreCoordinator else { return nil }
        let store = try coordinator.store(for: object.objectID)
        return try coordinator.withLock { try store.snapshots(for: [object.objectID]) }[object.objectID]
    }
}
