import CoreDataModel
import Foundation
import UndoManagement

extension NSManagedObjectContext {
    /// Objects inserted since the last save.
    public var insertedObjects: Set<NSManagedObject> { Set(changedObjects.values.filter { $0.isInserted && !$0.isDeleted }) }
    /// Objects with saved rows and unsaved changes.
    public var updatedObjects: Set<NSManagedObject> { Set(changedObjects.values.filter(\.isUpdated)) }
    /// Objects deleted since the last save (inserted-then-deleted objects are simply forgotten).
    public var deletedObjects: Set<NSManagedObject> { Set(changedObjects.values.filter { $0.isDeleted && !$0.isInserted }) }
    public var hasChanges: Bool { changedObjects.values.contains { $0.hasChanges } }

    /// Registers a new object of `entity`, with its default values and a temporary ID until it is saved, and calls
    /// its `awakeFromInsert()`.
    public func insert(_ object: NSManagedObject) {
        insert(object, awakening: true)
    }

    /// `insert(_:)`; a redo of an undone insertion passes false, as the object was awake already.
    func insert(_ object: NSManagedObject, awakening: Bool) {
        assertOnQueue()
        precondition(object.managedObjectContext == nil || object.managedObjectContext === self,
                     "an object belongs to one context; insert a new object instead")
        object.managedObjectContext = self
        if object.storedValues == nil { object.storedValues = object.slots.defaultValues }
        object.changes.isInserted = true
        registry.insert(object, for: object.objectID)
        trackChange(of: object)
        noteUnposted(object)
        if undoManager != nil {
            registerUndo(for: object) { [weak self] object in self?.undoInsertion(of: object) }
        }
        if retainsRegisteredObjects { retainedObjects.insert(object) }
        if awakening { object.awakeFromInsert() }
    }

    /// Marks `object` deleted; its delete rules apply at the next `processPendingChanges()` or save (at the save only
    /// when `propagatesDeletesAtEndOfEvent` is false).
    public func delete(_ object: NSManagedObject) {
        guard object.managedObjectContext === self, !object.isDeleted else { return }
        if object.storedValues == nil { fulfillFault(for: object) }
        object.changes.isDeleted = true
        trackChange(of: object)
        pendingDeletions.append(object)
        noteUnposted(object)
        if undoManager != nil {
            registerUndo(for: object) { [weak self] object in self?.undoDeletion(of: object) }
        }
    }

    /// Applies delete rules: nullify removes the deleted objects from their destinations' inverses, cascade deletes
    /// the destinations too. Deny is checked when saving.
    public func processPendingChanges() {
        defer {
            undoManager?.endEvent()
            postPendingObjectsDidChange()
        }
        // Cascades append to the list while it is walked; an index keeps that linear.
        // With `propagatesDeletesAtEndOfEvent` off, deletions wait (still pending) for the save.
        let propagates = propagatesDeletesAtEndOfEvent || isSavingDeletes
        var next = 0
        defer { if propagates { pendingDeletions.removeAll() } }
        while propagates, next < pendingDeletions.count {
            let object = pendingDeletions[next]
            next += 1
            object.prepareForDeletion()
            for relationship in object.slots.persistentRelationships {
                let destinations = object.objectIDs(forRelationshipNamed: relationship.name).map { self.object(with: $0) }
                applyDeleteRule(of: relationship, deleting: object, destinations: destinations)
            }
        }
    }

    /// The delete rule of `relationship` for the deleted `object` and the objects it relates to: cascade deletes them,
    /// nullify (and cascade) removes `object` from their inverses; deny is checked when saving.
    func applyDeleteRule(of relationship: NSRelationshipDescription, deleting object: NSManagedObject,
                         destinations: [NSManagedObject]) {
        switch relationship.deleteRule {
        case .cascadeDeleteRule:
            for destination in destinations where !destination.isDeleted { delete(destination) }
        case .nullifyDeleteRule:
            break
        case .denyDeleteRule, .noActionDeleteRule:
            return
        }
        guard let inverse = relationship.inverseRelationship else { return }
        for destination in destinations where !destination.isDeleted {
            destination.removeFromInverse(inverse, object: object)
        }
    }

    /// Throws away every unsaved change: inserted objects leave, deleted ones come back, values return to their
    /// last saved state.
    public func rollback() {
        undoManager?.removeAllActions()
        pendingDeletions.removeAll()
        var restored: [NSManagedObject] = []
        defer { for object in restored { object.awake(fromSnapshotEvents: .rollback) } }
        for object in changedObjects.values {
            if object.isInserted {
                // It leaves the context: no later objects-did-change may announce it (a main-queue context's
                // run-loop turn would have listed it as updated).
                unpostedChanges.remove(object)
                registry.removeValue(forKey: object.objectID)
                object.managedObjectContext = nil
                object.turnIntoFault()
            } else {
                if let committed = object.changes.committedStoredValues { object.storedValues = committed }
                for (name, ids) in object.changes.committedToMany { object.toMany[name] = ToManyIDs(ids) }
                restored.append(object)
            }
            object.changes.reset()
        }
        changedObjects.removeAll()
    }

    /// Called by objects when a value changes, so the context keeps them until they are saved.
    func objectDidChange(_ object: NSManagedObject) {
        trackChange(of: object)
        noteUnposted(object)
    }

    /// Posts objects-did-change for what changed since the last `processPendingChanges()`.
    private func postPendingObjectsDidChange() {
        guard !unpostedChanges.isEmpty else { return }
        // One pass over the objects instead of a copy and three filters.
        var inserted: [NSManagedObject] = [], updated: [NSManagedObject] = [], deleted: [NSManagedObject] = []
        for object in unpostedChanges.values {
            if object.isDeleted {
                deleted.append(object)
            } else if object.isInserted {
                inserted.append(object)
            } else {
                updated.append(object)
            }
        }
        unpostedChanges.removeAll()
        // Observers read each object's changes for this event (`changedValuesForCurrentEvent()`) while it is posted.
        let outer = announcedObjects
        announcedObjects = AnnouncedObjects([inserted, updated, deleted])
        defer { announcedObjects = outer }
        postObjectsDidChange(inserted: inserted, updated: updated, deleted: deleted)
    }

    /// Keeps `object` until the next save. Saves write objects in the order they were first inserted or changed
    /// (`changedObjects` keeps that order), so inserted objects get primary keys in insertion order and the same
    /// sequence of edits always writes the same file.
    func trackChange(of object: NSManagedObject) {
        changedObjects.insert(object)
    }
}

extension NSEntityDescription {
    /// Creates an object of the named entity, of the class registered for it (`NSManagedObject.register(_:forEntityName:)`),
    /// and inserts it into `context` (Apple's factory).
    public static func insertNewObject(forEntityName entityName: String, into context: NSManagedObjectContext) -> NSManagedObject {
        guard let coordinator = context.persistentStoreCoordinator,
              let entity = context.entity(named: entityName, in: coordinator.managedObjectModel) else {
            preconditionFailure("+entityForName: could not locate an entity named '\(entityName)' in this model.")
        }
        let (type, slots) = context.objectShape(for: entity, coordinator: coordinator)
        let object = type.init(entity: entity, objectID: NSManagedObjectID(temporaryFor: entity), context: context, slots: slots, registers: false)
        context.insert(object)
        return object
    }
}

/// The objects an objects-did-change notification announces; the set to look them up in is built only if an observer
/// asks (`changedValuesForCurrentEvent()`).
final class AnnouncedObjects {
    private let groups: [[NSManagedObject]]
    private lazy var identifiers = Set(groups.joined().map(ObjectIdentifier.init))
    init(_ groups: [[NSManagedObject]]) { self.groups = groups }
    func contains(_ object: NSManagedObject) -> Bool { identifiers.contains(ObjectIdentifier(object)) }
}
