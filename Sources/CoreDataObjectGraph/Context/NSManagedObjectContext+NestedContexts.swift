import CoreDataModel
import Foundation
import KeyValueCoding
import Predicates

/// Child contexts (`parent`): a child reads through its parent, so it sees the parent's unsaved changes, and its
/// save pushes its changes one level up without touching the store. Throwing a child away cancels its edits —
/// the browser's detail pane works this way.
extension NSManagedObjectContext {
    /// Pushes this child's inserts, updates and deletes into its parent, as the parent's own unsaved changes.
    func pushChangesToParent(_ parent: NSManagedObjectContext) {
        processPendingChanges()
        let objects = Array(changedObjects.values)
        // An inserted object turned into a fault holds its values aside: they go up with it.
        for object in objects where object.isInserted && object.storedValues == nil { fulfillFault(for: object) }
        parent.performAndWait {
            for object in objects {
                let id = object.objectID
                if object.isInserted && object.isDeleted { continue }
                if object.isDeleted {
                    if object.changes.isDeletedByMerge {
                        // The row is gone already: the parent learns of it if it holds the object, and has nothing to
                        // write for it.
                        if let target = parent.registeredObject(for: id) {
                            if target.isDeleted {
                                target.changes.isDeletedByMerge = !target.isInserted
                            } else {
                                parent.markDeletedByMerge(target, announce: true)
                            }
                        }
                    } else {
                        parent.delete(parent.object(with: id))
                    }
                    continue
                }
                let target: NSManagedObject
                if object.isInserted, parent.registeredObject(for: id) == nil {
                    target = NSManagedObject.registeredClass(forEntity: object.entity).init(
                        entity: object.entity, objectID: id, context: nil, slots: object.slots)
                    target.storedValues = object.storedValues
                    parent.insert(target)
                    // The values set in the child are the parent's changes now (`changedValues()` lists them).
                    target.changes.changedSlots = object.changes.changedSlots
                } else {
                    target = parent.object(with: id)
                    for slot in object.changes.changedSlots.sorted() {
                        if let value = object.storedValues?[slot] { target.setStoredValue(value, atSlot: slot) }
                    }
                }
                // Transient values are not stored, but a child's save hands them to the parent's object.
                if !object.transientValues.isEmpty {
                    for (key, value) in object.transientValues { target.transientValues[key] = value }
                    if object.changes.hasTransientChanges { target.changes.hasTransientChanges = true }
                    parent.objectDidChange(target)
                }
                // Both ends of a relationship change arrive here, so inverses are not maintained a second time.
                let toMany = object.isInserted ? Array(object.toMany.keys) : Array(object.changes.committedToMany.keys)
                for name in toMany {
                    guard let relationship = object.entity.relationshipsByName[name] else { continue }
                    target.setToMany(relationship, to: object.toMany[name]?.ids ?? [], maintainingInverse: false)
                }
            }
            parent.processPendingChanges()
        }
        for object in objects {
            if object.isDeleted {
                registry.removeValue(forKey: object.objectID)
                object.managedObjectContext = nil
            }
            object.changes.reset()
        }
        changedObjects.removeAll()
    }

    /// Values for a fault from the nearest ancestor that holds the object (with its unsaved changes); false when
    /// none does, and the store's values apply. Each ancestor is read on its own queue.
    func valuesFromParent(for object: NSManagedObject) -> Bool {
        guard let parent else { return false }
        return parent.performAndWait {
            guard let source = parent.registeredObject(for: object.objectID) else { return parent.valuesFromParent(for: object) }
            if source.isFault { parent.fulfillFault(for: source) }
            guard let values = source.storedValues else { return false }
            object.storedValues = values
            object.snapshotVersion = source.snapshotVersion
            // A to-many this object already loaded stays as it is: it may hold a change made while the object was
            // still a fault (the inverse side of moving a to-one), which the parent's list would undo.
            for (name, ids) in source.toMany where object.toMany[name] == nil { object.toMany[name] = ids }
            return true
        }
    }

    /// The values of `object` in the nearest ancestor that holds it (with its unsaved changes), at that object's
    /// version; nil when none does, and the store's row is the current state. What a child refreshes from.
    func snapshotFromParent(for object: NSManagedObject) -> Snapshot? {
        guard let parent else { return nil }
        return parent.performAndWait {
            guard let source = parent.registeredObject(for: object.objectID) else { return parent.snapshotFromParent(for: object) }
            if source.isFault { parent.fulfillFault(for: source) }
            return source.storedValues.map { Snapshot(values: $0, version: source.snapshotVersion) }
        }
    }

    /// The to-many destinations as the nearest ancestor holding the object sees them; nil when none holds it.
    func toManyFromParent(of object: NSManagedObject, relationship: NSRelationshipDescription) -> [NSManagedObjectID]? {
        guard let parent else { return nil }
        return parent.performAndWait {
            guard let source = parent.registeredObject(for: object.objectID) else {
                return parent.toManyFromParent(of: object, relationship: relationship)
            }
            return source.objectIDs(forRelationshipNamed: relationship.name)
        }
    }
}
