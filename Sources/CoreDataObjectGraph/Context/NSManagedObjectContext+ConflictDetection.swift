import CoreDataModel
import Foundation

/// Apple's `detectConflicts(for:)`: optimistic locking for an object the context does not change. Changed and deleted
/// objects are always checked by the store when written; a marked unchanged object is checked by the next save too.
extension NSManagedObjectContext {
    /// Marks `object` for conflict detection: the next save that writes changes fails with
    /// `NSManagedObjectMergeError` if the object's row changed in (or left) the store since the object read it, even
    /// when the object itself is unchanged. A merge policy other than the error policy resolves the conflict by giving
    /// the object the store's values. The mark lasts until a save succeeds.
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
        let gone = conflicts.filter { fresh[$0.objectID] == nil }
        if mergePolicy.mergeType == .errorMergePolicyType || !gone.isEmpty {
            let ids = (gone.isEmpty ? conflicts : gone).map(\.objectID)
            throw CoreDataError(
                .managedObjectMerge,
                "optimistic locking failure: \(ids.count) object(s) marked by detectConflicts(for:) changed or were deleted in the store since they were read: "
                    + ids.map { $0.uriRepresentation().absoluteString }.joined(separator: ", "),
                affectedObjectIDs: ids)
        }
        // An unchanged object has nothing of its own to keep: it takes the store's row.
        for object in conflicts {
            guard let snapshot = fresh[object.objectID] else { continue }
            object.storedValues = snapshot.values
            object.changes.committedStoredValues = snapshot.values
            object.snapshotVersion = snapshot.version
            object.awake(fromSnapshotEvents: .mergePolicy)
        }
    }
}
