import CoreDataModel
import Foundation

extension NSManagedObjectContext {
    /// Posted after every save (one without changes too, with empty sets), with the saved objects under
    /// `NSInsertedObjectsKey`, `NSUpdatedObjectsKey` and `NSDeletedObjectsKey`; pass it to
    /// `mergeChanges(fromContextDidSave:)` of another context.
    public static let didSaveObjectsNotification = Notification.Name("NSManagedObjectContextDidSaveNotification")
    /// Posted by `processPendingChanges()` when objects changed, with the same keys.
    public static let objectsDidChangeNotification = Notification.Name("NSManagedObjectContextObjectsDidChangeNotification")

    /// The object IDs a did-save notification carries (`NSInsertedObjectIDsKey` and its kin), usable across
    /// threads, since notifications are delivered on the poster's queue.
    public static let insertedObjectIDsKey = "inserted_objectIDs"
    public static let updatedObjectIDsKey = "updated_objectIDs"
    public static let deletedObjectIDsKey = "deleted_objectIDs"

    func postDidSave(inserted: [NSManagedObject], updated: [NSManagedObject], deleted: [NSManagedObject]) {
        let insertedIDs = Self.objectIDs(of: inserted), updatedIDs = Self.objectIDs(of: updated)
        let deletedIDs = Self.objectIDs(of: deleted)
        NotificationCenter.default.post(name: Self.didSaveObjectsNotification, object: self, userInfo: [
            NSInsertedObjectsKey: Set(inserted), NSUpdatedObjectsKey: Set(updated), NSDeletedObjectsKey: Set(deleted),
            Self.insertedObjectIDsKey: insertedIDs,
            Self.updatedObjectIDsKey: updatedIDs,
            Self.deletedObjectIDsKey: deletedIDs,
        ])
        postObjectIDs(Self.didSaveObjectIDsNotification, inserted: insertedIDs, updated: updatedIDs, deleted: deletedIDs)
    }

    /// The IDs of `objects` as a set, built in place (no intermediate array of IDs).
    private static func objectIDs(of objects: [NSManagedObject]) -> Set<NSManagedObjectID> {
        var ids = Set<NSManagedObjectID>(minimumCapacity: objects.count)
        for object in objects { ids.insert(object.objectID) }
        return ids
    }

    func postObjectsDidChange(inserted: [NSManagedObject], updated: [NSManagedObject], deleted: [NSManagedObject]) {
        guard !(inserted.isEmpty && updated.isEmpty && deleted.isEmpty) else { return }
        NotificationCenter.default.post(name: Self.objectsDidChangeNotification, object: self, userInfo: [
            NSInsertedObjectsKey: Set(inserted), NSUpdatedObjectsKey: Set(updated), NSDeletedObjectsKey: Set(deleted),
        ])
    }
}

/// The user-info keys of context notifications, with Apple's names.
public let NSInsertedObjectsKey = "inserted"
public let NSUpdatedObjectsKey = "updated"
public let NSDeletedObjectsKey = "deleted"

extension NSManagedObject {
    /// Reads the store's current values and version under this object's unsaved changes: changed properties keep
    /// their new values, the others take the store's.
    func mergeStoreValuesKeepingChanges() {
        guard let context = managedObjectContext, let coordinator = context.persistentStoreCoordinator,
              let store = try? coordinator.store(for: objectID),
              let fresh = (try? coordinator.withLock({ try store.snapshots(for: [objectID]) }))?[objectID] else { return }
        coordinator.rowCache.store(fresh, for: objectID)
        mergeStoreValuesKeepingChanges(fresh)
    }

    /// Takes `fresh`, the store's current row, as the object's stored values, with this context's unsaved changes
    /// re-applied over it.
    func mergeStoreValuesKeepingChanges(_ fresh: Snapshot) {
        var merged = fresh.values
        if let current = storedValues {
            for slot in changes.changedSlots where slot < merged.count { merged[slot] = current[slot] }
        }
        changes.committedStoredValues = fresh.values
        storedValues = merged
        snapshotVersion = fresh.version
    }
}
