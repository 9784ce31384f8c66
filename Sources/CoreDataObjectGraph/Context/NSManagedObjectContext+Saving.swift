import CoreDataModel
import Foundation

extension NSManagedObjectContext {
    /// Writes every change to the store in one transaction: delete rules apply, every changed object is
    /// validated (all failures reported at once), and the store writes or rolls back as a whole. On success,
    /// inserted objects get permanent IDs and the row cache holds the new values; on failure nothing changed in
    /// the store and the context keeps its changes.
    public func save() throws {
        assertOnQueue()
        NotificationCenter.default.post(name: Self.willSaveObjectsNotification, object: self)
        // A save applies the delete rules left pending (`propagatesDeletesAtEndOfEvent` false) before validating.
        isSavingDeletes = true
        defer { isSavingDeletes = false }
        if let parent {
            processPendingChanges()
            callWillSave(insertedObjects, updatedObjects, deletedObjects)
            // Apple posts did-save for every save of a child too (empty sets for one without changes), with what went
            // up to the parent.
            let inserted = Array(insertedObjects), updated = Array(updatedObjects), deleted = Array(deletedObjects)
            pushChangesToParent(parent)
            keepSavedObjectsUntilEndOfWork(inserted, updated)
            for object in [inserted, updated, deleted].joined() { object.didSave() }
            postDidSave(inserted: inserted, updated: updated, deleted: deleted)
            return
        }
        processPendingChanges()
        guard hasChanges, let coordinator = persistentStoreCoordinator else {
            changedObjects.removeAll { !$0.hasChanges }
            try saveMetadataOnly()
            // As Apple's: a save without changes posts did-save too, with empty sets.
            postDidSave(inserted: [], updated: [], deleted: [])
            return
        }
        try resolveUniquenessConflicts(coordinator: coordinator)
        // One pass, in the order the objects first changed; an object inserted and deleted again is in none. A
        // deletion merged from another context's save has no row left to delete: it is saved without a write.
        var inserted: [NSManagedObject] = [], updated: [NSManagedObject] = [], deleted: [NSManagedObject] = []
        var mergedDeletions: [NSManagedObject] = []
        for object in changedObjects.values {
            if object.isInserted {
                if !object.isDeleted { inserted.append(object) }
            } else if object.isDeleted {
                if object.changes.isDeletedByMerge { mergedDeletions.append(object) } else { deleted.append(object) }
            } else if object.isUpdated {
                updated.append(object)
            }
        }
        guard !(inserted.isEmpty && deleted.isEmpty && updated.isEmpty) else {
            if !mergedDeletions.isEmpty { callWillSave([], [], mergedDeletions) }
            try saveMetadataOnly()
            finishSave(inserted: [], permanentIDs: [], updated: [], updatedVersions: [], deleted: mergedDeletions,
                       coordinator: coordinator, isPartial: false)
            return
        }
        // An inserted object turned into a fault holds its values aside; the store writes what it holds.
        for object in inserted where object.storedValues == nil { fulfillFault(for: object) }
        // Every object the save deletes, merged deletions included (a copy only when there are merged ones).
        let allDeleted = mergedDeletions.isEmpty ? deleted : deleted + mergedDeletions
        callWillSave(inserted, updated, allDeleted)
        var errors: [CoreDataError] = []
        if !skipsValidationOnSave {
            for object in inserted { collect(&errors) { try object.validateForInsert() } }
            for object in updated { collect(&errors) { try object.validateForUpdate() } }
            for object in deleted { collect(&errors) { try object.validateForDelete() } }
        }
        if !errors.isEmpty {
            throw errors.count == 1 ? errors[0] : NSManagedObject.multipleErrors(errors)
        }
        try checkDetectedConflicts(coordinator: coordinator)
        let groups = try storeGroups(inserted: inserted, updated: updated, deleted: deleted, coordinator: coordinator)
        if groups.count == 1 {
            let outcome = try write(groups[0], coordinator: coordinator)
            finishSave(inserted: inserted, permanentIDs: outcome.permanentIDs, updated: updated, updatedVersions: outcome.updatedVersions,
                       deleted: allDeleted, coordinator: coordinator, isPartial: false)
            return
        }
        // Several stores: each writes its share in one transaction of its own, in the order the stores were added.
        // When one refuses, the shares already written stay saved (the objects become saved objects) and the rest
        // keep their changes.
        var written: [(group: SaveGroup, outcome: SaveOutcome)] = []
        func finish(isPartial: Bool) {
            finishSave(inserted: written.flatMap(\.group.inserted), permanentIDs: written.flatMap(\.outcome.permanentIDs),
                       updated: written.flatMap(\.group.updated), updatedVersions: written.flatMap(\.outcome.updatedVersions),
                       deleted: written.flatMap(\.group.deleted) + (isPartial ? [] : mergedDeletions), coordinator: coordinator,
                       isPartial: isPartial)
        }
        coordinator.forgetAssignments(of: inserted.map(\.objectID))
        for group in groups {
            do {
                written.append((group, try write(group, coordinator: coordinator)))
            } catch {
                if !written.isEmpty { finish(isPartial: true) }
                // The inserts of the refused share and of the shares not tried keep their stores for the next save.
                for unsaved in groups.dropFirst(written.count) {
                    for object in unsaved.inserted where object.objectID.isTemporaryID {
                        coordinator.assign(object.objectID, to: unsaved.persistentStore)
                    }
                }
                throw error
            }
        }
        finish(isPartial: false)
    }

    /// Writes one store's share of a save in one transaction; a conflict that the merge policy resolves is written
    /// again once. Returns the permanent IDs of `group.inserted` and the versions of `group.updated`, in order.
    private func write(_ group: SaveGroup, coordinator: NSPersistentStoreCoordinator) throws -> SaveOutcome {
        let store = group.store
        let (inserted, updated, deleted) = (group.inserted, group.updated, group.deleted)
        // An object whose only changes are to transient properties has nothing for the store: it is saved (its hooks
        // run, it is announced as updated) without a write, and keeps its version.
        let storedUpdates = updated.allSatisfy(\.changes.hasStoredChanges) ? updated : updated.filter(\.changes.hasStoredChanges)
        func versions(of written: [NSManagedObject], _ outcome: SaveOutcome) -> SaveOutcome {
            guard written.count != updated.count else { return outcome }
            let versions = Dictionary(uniqueKeysWithValues: zip(written.map(ObjectIdentifier.init), outcome.updatedVersions))
            return SaveOutcome(permanentIDs: outcome.permanentIDs,
                               updatedVersions: updated.map { versions[ObjectIdentifier($0)] ?? $0.snapshotVersion })
        }
        if inserted.isEmpty, storedUpdates.isEmpty, deleted.isEmpty {
            return SaveOutcome(permanentIDs: [], updatedVersions: updated.map(\.snapshotVersion))
        }
        do {
            let request = SaveRequest(inserted: inserted, updated: storedUpdates, deleted: deleted)
            return versions(of: storedUpdates, try coordinator.withLock { try store.save(request) })
        } catch let conflict as CoreDataError where conflict.code == .managedObjectMerge {
            // The policy gets the conflicts with the store's current rows (the error policy throws them), then the save
            // writes again once; a second conflict is reported with its conflicts.
            let conflicting = (storedUpdates + deleted).filter { conflict.affectedObjectIDs.contains($0.objectID) }
            guard !conflicting.isEmpty else { throw conflict }
            let fresh = try coordinator.withLock { try store.snapshots(for: conflicting.map(\.objectID)) }
            try mergePolicy.resolve(mergeConflicts: mergeConflicts(of: conflicting, storeRows: fresh, coordinator: coordinator))
            // Objects the merge left unchanged are not written and keep the version they were resolved at.
            let rewritten = storedUpdates.filter(\.changes.hasStoredChanges)
            do {
                let outcome = try coordinator.withLock {
                    try store.save(SaveRequest(inserted: inserted, updated: rewritten, deleted: deleted))
                }
                return versions(of: rewritten, outcome)
            } catch let second as CoreDataError where second.code == .managedObjectMerge {
                let left = (rewritten + deleted).filter { second.affectedObjectIDs.contains($0.objectID) }
                guard !left.isEmpty else { throw second }
                let rows = try coordinator.withLock { try store.snapshots(for: left.map(\.objectID)) }
                throw NSMergePolicy.mergeError(mergeConflicts(of: left, storeRows: rows, coordinator: coordinator))
            }
        }
    }

    /// What follows a save's writes: the objects take their permanent IDs and saved state, hooks and notifications
    /// run. `isPartial`: only these objects were saved (a later store refused its share), the others keep their changes.
    private func finishSave(inserted: [NSManagedObject], permanentIDs: [NSManagedObjectID], updated: [NSManagedObject],
                            updatedVersions: [Int64], deleted: [NSManagedObject], coordinator: NSPersistentStoreCoordinator,
                            isPartial: Bool) {
        didSave(inserted: inserted, permanentIDs: permanentIDs, updated: updated, updatedVersions: updatedVersions,
                deleted: deleted, coordinator: coordinator, isPartial: isPartial)
        coordinator.statistics.record { $0.saves += 1 }
        if !isPartial { conflictDetectedObjects.removeAll() }
        keepSavedObjectsUntilEndOfWork(inserted, updated)
        for object in [inserted, updated, deleted].joined() { object.didSave() }
        // Saved deletions turn into faults, as Apple's do.
        for object in deleted { object.turnIntoFaultCallingHooks() }
        postDidSave(inserted: inserted, updated: updated, deleted: deleted)
    }

    /// The saved objects the context stops holding stay alive until the current unit of work ends, as Apple's
    /// autoreleased ones do (see `ObjectLifetimeScope`).
    private func keepSavedObjectsUntilEndOfWork(_ inserted: [NSManagedObject], _ updated: [NSManagedObject]) {
        ObjectLifetimeScope.keepUntilEndOfWork(inserted)
        ObjectLifetimeScope.keepUntilEndOfWork(updated)
    }

    /// A save without object changes still writes the metadata `setMetadata(_:for:)` changed, as Apple's does: each
    /// such store writes it in a transaction of its own.
    private func saveMetadataOnly() throws {
        guard let coordinator = persistentStoreCoordinator else { return }
        let pending = coordinator.withLock {
            coordinator.persistentStores.filter { $0.hasUnsavedMetadata && !$0.isReadOnly && $0.writeRefusal == nil }
        }
        for store in pending {
            let rowStore = try coordinator.rowStore(store)
            _ = try coordinator.withLock { try rowStore.save(SaveRequest(inserted: [], updated: [], deleted: [])) }
        }
    }

    /// `willSave()` of every object a save writes, before validation. Plain `NSManagedObject`s are skipped (their
    /// hook is empty); a batched save of many objects then costs nothing more.
    private func callWillSave<Objects: Sequence<NSManagedObject>>(_ inserted: Objects, _ updated: Objects, _ deleted: Objects) {
        for object in [AnySequence(inserted), AnySequence(updated), AnySequence(deleted)].joined()
        where type(of: object) != NSManagedObject.self {
            object.willSave()
        }
    }

    /// Assigns permanent IDs before a save, so they can be handed to other contexts early.
    public func obtainPermanentIDs(for objects: [NSManagedObject]) throws {
        // IDs are allocated with the save itself; saving only the insertions would change semantics, so this
        // allocates keys now and the save reuses them.
        // Only this context's objects: one that left it (its insertion undone, rolled back) keeps its temporary ID.
        let temporary = objects.filter { $0.objectID.isTemporaryID && $0.managedObjectContext === self }
        guard !temporary.isEmpty, let coordinator = persistentStoreCoordinator else { return }
        // Each object's keys come from the store it will be saved to (several stores may hold its entity).
        var byStore: [(store: any RowStore, objects: [NSManagedObject])] = []
        if coordinator.hasSeveralStores {
            for object in temporary {
                let store = try coordinator.store(for: object.objectID)
                if let index = byStore.firstIndex(where: { $0.store === store }) {
                    byStore[index].objects.append(object)
                } else {
                    byStore.append((store, [object]))
                }
            }
        } else {
            byStore = [(try coordinator.store(for: temporary[0].entity), temporary)]
        }
        for (store, objects) in byStore {
            let ids = try coordinator.withLock { try store.reservePrimaryKeys(for: objects) }
            coordinator.forgetAssignments(of: objects.map(\.objectID))
            rekey(objects, to: ids)
        }
    }

    private func collect(_ errors: inout [CoreDataError], _ body: () throws -> Void) {
        do {
            try body()
        } catch let error as CoreDataError {
            errors += error.code == .validationMultipleErrors ? error.detailedErrors : [error]
        } catch {
            errors.append(CoreDataError(.managedObjectValidation, "\(error)", underlyingError: error))
        }
    }

    /// Brings the objects in line with what the store now holds: `permanentIDs` and `updatedVersions` follow the
    /// order of `inserted` and `updated`.
    private func didSave(inserted: [NSManagedObject], permanentIDs: [NSManagedObjectID], updated: [NSManagedObject],
                         updatedVersions: [Int64], deleted: [NSManagedObject], coordinator: NSPersistentStoreCoordinator,
                         isPartial: Bool) {
        rekey(inserted, to: permanentIDs)
        // Relationship values still hold temporary IDs of objects saved together; replace them. Only objects with
        // relationships can hold IDs, so a save without any skips building the table.
        let holdsIDs: (NSManagedObject) -> Bool = { !$0.slots.persistentRelationships.isEmpty }
        var replacements: [NSManagedObjectID: NSManagedObjectID] = [:]
        if inserted.contains(where: holdsIDs) || updated.contains(where: holdsIDs) {
            replacements.reserveCapacity(inserted.count)
            for object in inserted {
                if let temporary = object.changes.temporaryID { replacements[temporary] = object.objectID }
            }
        }
        var savedRows: [(id: NSManagedObjectID, snapshot: Snapshot)] = []
        savedRows.reserveCapacity(inserted.count + updated.count)
        func saved(_ object: NSManagedObject, version: Int64) {
            if holdsIDs(object) { object.replaceObjectIDs(replacements) }
            object.snapshotVersion = version
            object.changes.reset()
            if let values = object.storedValues {
                savedRows.append((object.objectID, Snapshot(values: values, version: version)))
            }
        }
        for object in inserted { saved(object, version: 1) }
        for (object, version) in zip(updated, updatedVersions) { saved(object, version: version) }
        coordinator.rowCache.store(contentsOf: savedRows)
        // A fault changed only through an inverse was written without its values, so the cache cannot get its new
        // version; an older snapshot of the row it holds must go, or the next fault would fill at a stale version.
        coordinator.rowCache.remove(contentsOf: updated.lazy.filter { $0.storedValues == nil }.map(\.objectID))
        coordinator.rowCache.remove(contentsOf: deleted.lazy.map(\.objectID))
        for object in deleted {
            registry.removeValue(forKey: object.objectID)
            object.changes.reset()
            object.managedObjectContext = nil
        }
        if isPartial {
            for object in [inserted, updated, deleted].joined() { changedObjects.remove(object) }
        } else {
            changedObjects.removeAll()
        }
    }

    /// Files `objects` under `ids` (their permanent IDs), remembering each one's temporary ID for the save's
    /// notifications. All are refiled at once: a save refiles every object it inserted.
    func rekey(_ objects: [NSManagedObject], to ids: [NSManagedObjectID]) {
        let changing = zip(objects, ids).filter { $0.0.objectID != $0.1 }
        guard !changing.isEmpty else { return }
        let refiled = changing.map(\.0)
        // The old entries go while the objects still carry the IDs they were filed under.
        registry.removeEntries(of: refiled)
        for (object, id) in changing {
            if object.changes.temporaryID == nil { object.changes.temporaryID = object.objectID }
            object.objectID = id
        }
        registry.insert(contentsOf: refiled)
    }
}

extension NSManagedObject {
    /// Rewrites relationship values that refer to objects whose IDs changed in a save.
    func replaceObjectIDs(_ replacements: [NSManagedObjectID: NSManagedObjectID]) {
        guard !replacements.isEmpty else { return }
        // Written back only when something changed: most objects hold no temporary IDs, and writing the arrays
        // back would copy them.
        if let values = storedValues {
            var replaced = values
            var changed = false
            for index in values.indices {
                if case .toOne(let id) = values[index], id.isTemporaryID, let replacement = replacements[id] {
                    replaced[index] = .toOne(replacement)
                    changed = true
                }
            }
            if changed { storedValues = replaced }
        }
        for name in Array(toMany.keys) {
            toMany[name]!.replaceIDs(replacements)
        }
    }
}
