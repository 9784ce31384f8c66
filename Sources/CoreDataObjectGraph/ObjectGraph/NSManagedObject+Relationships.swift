import CoreDataModel
import Foundation

/// Relationship changes and inverse maintenance.
///
/// Every change is made of primitive steps on one object (set a to-one, append to or remove from a to-many, put
/// back into a slot, replace a whole to-many), and each step registers its own inverse step with the undo manager.
/// The steps on a to-many are constant-time (`ToManyIDs`), so adding n objects to a relationship, from either
/// side, costs O(n) and records O(n) undo, and undoing restores the exact order.
extension NSManagedObject {
    func setToOne(_ relationship: NSRelationshipDescription, to destination: NSManagedObject?, maintainingInverse: Bool) {
        guard let slot = slots.index(of: relationship.name) else { return }
        let oldID = objectIDForToOne(relationship.name)
        if oldID == destination?.objectID { return }
        setStoredValue(destination.map { .toOne($0.objectID) } ?? .null, atSlot: slot)
        guard maintainingInverse, let inverse = relationship.inverseRelationship, let context = managedObjectContext else { return }
        if let oldID { context.object(with: oldID).removeFromInverse(inverse, object: self) }
        destination?.addToInverse(inverse, object: self)
    }

    /// Replaces a to-many relationship's destinations with `ids` (repeated IDs count once).
    func setToMany(_ relationship: NSRelationshipDescription, to ids: [NSManagedObjectID], maintainingInverse: Bool) {
        loadToMany(relationship)
        let old = toMany[relationship.name] ?? ToManyIDs()
        let new = ToManyIDs(ids)
        if old == new { return }
        replaceToMany(relationship, with: new)
        guard maintainingInverse, let inverse = relationship.inverseRelationship, let context = managedObjectContext else { return }
        for id in old.ids where !new.contains(id) { context.object(with: id).removeFromInverse(inverse, object: self) }
        for id in new.ids where !old.contains(id) { context.object(with: id).addToInverse(inverse, object: self) }
    }

    /// Makes `object` a destination of this object's `relationship` (the inverse side of a change elsewhere).
    func addToInverse(_ relationship: NSRelationshipDescription, object: NSManagedObject) {
        if relationship.isToMany {
            appendToMany(relationship, object.objectID)
        } else {
            // A to-one inverse moves: the object it pointed to loses this object from its side.
            if let previous = objectIDForToOne(relationship.name), previous != object.objectID,
               let inverse = relationship.inverseRelationship, let context = managedObjectContext {
                context.object(with: previous).removeFromInverse(inverse, object: self)
            }
            setToOne(relationship, to: object, maintainingInverse: false)
        }
    }

    func removeFromInverse(_ relationship: NSRelationshipDescription, object: NSManagedObject) {
        if relationship.isToMany {
            removeFromToMany(relationship, object.objectID)
        } else if objectIDForToOne(relationship.name) == object.objectID {
            setToOne(relationship, to: nil, maintainingInverse: false)
        }
    }

    // MARK: Primitive to-many steps (no inverse maintenance)

    /// Adds `id` at the end of a to-many relationship; false when it is already there.
    @discardableResult
    func appendToMany(_ relationship: NSRelationshipDescription, _ id: NSManagedObjectID) -> Bool {
        let name = relationship.name
        loadToMany(relationship)
        guard toMany[name]?.contains(id) == false else { return false }
        willChangeToMany(name)
        toMany[name]!.append(id)
        managedObjectContext?.registerUndo(for: self) { object in object.removeFromToMany(relationship, id) }
        didChangeToMany(name)
        return true
    }

    /// Removes `id` from a to-many relationship; false when it is not there.
    @discardableResult
    func removeFromToMany(_ relationship: NSRelationshipDescription, _ id: NSManagedObjectID) -> Bool {
        let name = relationship.name
        loadToMany(relationship)
        guard toMany[name]?.contains(id) == true else { return false }
        willChangeToMany(name)
        let slot = toMany[name]!.remove(id)!
        managedObjectContext?.registerUndo(for: self) { object in object.restoreToMany(relationship, id, toSlot: slot) }
        didChangeToMany(name)
        if toMany[name]!.isSparse { replaceToMany(relationship, with: toMany[name]!.compacted()) }
        return true
    }

    /// Puts `id` back where `removeFromToMany` took it from (undo of a removal).
    func restoreToMany(_ relationship: NSRelationshipDescription, _ id: NSManagedObjectID, toSlot slot: Int) {
        let name = relationship.name
        loadToMany(relationship)
        guard toMany[name]?.contains(id) == false else { return }
        willChangeToMany(name)
        toMany[name]!.restore(id, toSlot: slot)
        managedObjectContext?.registerUndo(for: self) { object in object.removeFromToMany(relationship, id) }
        didChangeToMany(name)
    }

    /// Replaces a to-many relationship's storage; undo puts back the previous storage, slots and all.
    func replaceToMany(_ relationship: NSRelationshipDescription, with new: ToManyIDs) {
        let name = relationship.name
        loadToMany(relationship)
        let old = toMany[name] ?? ToManyIDs()
        willChangeToMany(name)
        managedObjectContext?.registerUndo(for: self) { object in object.replaceToMany(relationship, with: old) }
        toMany[name] = new
        didChangeToMany(name)
    }

    /// Remembers the relationship as last saved, before its first change.
    private func willChangeToMany(_ name: String) {
        beginEventIfNeeded()
        eventToManyChanges.insert(name)
        if changes.committedToMany[name] == nil { changes.committedToMany[name] = toMany[name]?.ids ?? [] }
    }

    /// A relationship changed back to what was saved is no change (undo relies on this).
    private func didChangeToMany(_ name: String) {
        if let committed = changes.committedToMany[name], toMany[name]?.hasMembers(committed) ?? committed.isEmpty {
            changes.committedToMany.removeValue(forKey: name)
        }
        managedObjectContext?.objectDidChange(self)
    }
}
