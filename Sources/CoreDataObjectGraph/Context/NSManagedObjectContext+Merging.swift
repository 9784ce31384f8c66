import CoreDataModel
import Foundation

/// A did-merge notification's keys, with Apple's names: the object IDs the merge inserted, updated, deleted,
/// refreshed and invalidated.
public let NSInsertedObjectIDsKey = NSManagedObjectContext.NotificationKey.insertedObjectIDs.rawValue
public let NSUpdatedObjectIDsKey = NSManagedObjectContext.NotificationKey.updatedObjectIDs.rawValue
public let NSDeletedObjectIDsKey = NSManagedObjectContext.NotificationKey.deletedObjectIDs.rawValue
public let NSRefreshedObjectIDsKey = NSManagedObjectContext.NotificationKey.refreshedObjectIDs.rawValue
public let NSInvalidatedObjectIDsKey = NSManagedObjectContext.NotificationKey.invalidatedObjectIDs.rawValue

extension NSManagedObjectContext {
    /// Brings another context's save into this one, as Apple's does: it refreshes the objects updated there that this
    /// context holds in use (their store values are read again, this context's unsaved changes stay on top), faults in
    /// the inserted objects, and deletes here those deleted there (`delete(_:)`'s semantics: a deleted object stays
    /// registered, in `deletedObjects`, until the next save, which has nothing to write for it as its row is gone).
    ///
    /// One objects-did-change lists the inserted objects under `NSInsertedObjectsKey`, the refreshed ones under
    /// `NSRefreshedObjectsKey` and the deleted ones under `NSDeletedObjectsKey` (keys with nothing are left out); the
    /// merge changes nothing this context would save for the inserted and updated objects. Then
    /// `didMergeChangesObjectIDsNotification` carries the save's inserted, updated and deleted IDs and the IDs of the
    /// refreshed objects. Works across coordinators on one store, since refreshed objects read the store again.
    public func mergeChanges(fromContextDidSave notification: Notification) {
        let info = notification.userInfo ?? [:]
        let updatedIDs = Self.objectIDs(in: info, idsKey: NSUpdatedObjectIDsKey, objectsKey: NSUpdatedObjectsKey)
        let deletedIDs = Self.objectIDs(in: info, idsKey: NSDeletedObjectIDsKey, objectsKey: NSDeletedObjectsKey)
        let insertedIDs = Self.objectIDs(in: info, idsKey: NSInsertedObjectIDsKey, objectsKey: NSInsertedObjectsKey)
        let coordinator = persistentStoreCoordinator
        let fromAnotherCoordinator = (notification.object as? NSManagedObjectContext)?.persistentStoreCoordinator !== coordinator
        var refreshed: [NSManagedObject] = []
        for id in updatedIDs {
            // Another coordinator's save did not reach this one's row cache.
            if fromAnotherCoordinator { coordinator?.rowCache.remove(id) }
            guard let object = registeredObject(for: id) else { continue }
            // As Apple's: a fault is not in use, so nothing changes for it (it reads the new values when it fires).
            guard !object.isFault || object.pendingValues != nil else { continue }
            refreshForMerge(object)
            refreshed.append(object)
        }
        // As Apple's merge, the inserted objects are faulted into this context and reported as inserted.
        let inserted = insertedIDs.filter { !$0.isTemporaryID }.sorted { $0.primaryKey < $1.primaryKey }.map { object(with: $0) }
        var deleted: [NSManagedObject] = []
        for id in deletedIDs {
            coordinator?.rowCache.remove(id)
            guard let object = registeredObject(for: id) else { continue }
            // Deleted here too: the row is gone, so the save must not try to delete it again.
            if object.isDeleted {
                object.changes.isDeletedByMerge = !object.isInserted
                continue
            }
            markDeletedByMerge(object, announce: false)
            deleted.append(object)
        }
        for object in deleted { applyDeleteRulesOfMergedDeletion(object, deletedIDs: deletedIDs) }

        var changes: [AnyHashable: Any] = [:]
        if !inserted.isEmpty { changes[NSInsertedObjectsKey] = Set(inserted) }
        if !refreshed.isEmpty { changes[NSRefreshedObjectsKey] = Set(refreshed) }
        if !deleted.isEmpty { changes[NSDeletedObjectsKey] = Set(deleted) }
        if !changes.isEmpty {
            NotificationCenter.default.post(name: Self.objectsDidChangeNotification, object: self, userInfo: changes)
        }
        NotificationCenter.default.post(name: Self.didMergeChangesObjectIDsNotification, object: self, userInfo: [
            NSInsertedObjectIDsKey: Set(inserted.map(\.objectID)),
            NSUpdatedObjectIDsKey: updatedIDs,
            NSDeletedObjectIDsKey: deletedIDs,
            NSRefreshedObjectIDsKey: Set(refreshed.map(\.objectID)),
            NSInvalidatedObjectIDsKey: Set<NSManagedObjectID>(),
        ])
    }

    /// The IDs under `idsKey` of a did-save notification, or those of the objects under `objectsKey` when it carries
    /// only objects (as a notification built by hand may).
    private static func objectIDs(in info: [AnyHashable: Any], idsKey: String, objectsKey: String) -> Set<NSManagedObjectID> {
        if let ids = info[idsKey] as? Set<NSManagedObjectID> { return ids }
        if let objects = info[objectsKey] as? Set<NSManagedObject> { return Set(objects.map(\.objectID)) }
        return []
    }

    /// Reads an object in use again after another context saved it: without unsaved changes it takes the saved
    /// values (and stays filled, as Apple's merged objects do, in a root context; a child's becomes a fault); with
    /// them, the store's values under its changes.
    private func refreshForMerge(_ object: NSManagedObject) {
        // Fetched properties fetch again on their next use.
        if object.sideState?.fetchedProperties.isEmpty == false { object.sideState?.fetchedProperties.removeAll() }
        if object.hasChanges {
            guard !object.isInserted else { return }
            if object.storedValues == nil { fulfillFault(for: object) }
            object.mergeStoreValuesKeepingChanges()
            object.awake(fromSnapshotEvents: .refresh)
        } else {
            object.turnIntoFaultCallingHooks()
            // A root context fills it again from its coordinator at once. A child leaves it a fault that fills on its
            // next use: filling it here would wait for the parent's queue, and the parent may be the one waiting for
            // this queue (it saved, and waits in performAndWait for this child, whose merge was queued first).
            if parent == nil { fulfillFault(for: object) }
        }
    }

    /// Marks `object` deleted as a merged deletion: its row is gone from the store, so it is neither filled nor
    /// written; it stays registered (in `deletedObjects`) until the next save. The merge announces it itself;
    /// `announce` lists it in this context's next objects-did-change instead (a child's save pushing it up).
    func markDeletedByMerge(_ object: NSManagedObject, announce: Bool) {
        object.changes.isDeleted = true
        object.changes.isDeletedByMerge = true
        trackChange(of: object)
        if announce { noteUnposted(object) }
    }

    /// The delete rules of a merged deletion, for what this context holds of it: the objects it relates to here
    /// (registered, not deleted by the same save) drop it from their inverses (nullify) or are deleted (cascade). The
    /// other context's save already carried the rules' effects on the store; this keeps the objects in memory from
    /// pointing at a row that is gone.
    private func applyDeleteRulesOfMergedDeletion(_ object: NSManagedObject, deletedIDs: Set<NSManagedObjectID>) {
        // Only what is in memory: a fault's row is gone, and a to-many not loaded yet would be read from the store,
        // which holds no reference to the deleted row any more.
        let isFilled = object.storedValues != nil
        if isFilled && type(of: object) != NSManagedObject.self { object.prepareForDeletion() }
        for relationship in object.slots.persistentRelationships {
            let destinations = relationship.isToMany
                ? object.toMany[relationship.name]?.ids ?? []
                : (isFilled ? object.objectIDForToOne(relationship.name).map { [$0] } : nil) ?? []
            let held = destinations.filter { !deletedIDs.contains($0) }.compactMap { registeredObject(for: $0) }
            applyDeleteRule(of: relationship, deleting: object, destinations: held)
        }
    }
}
