import CoreDataModel
import Foundation
import UndoManagement

/// Undo and redo: every change registers its inverse with the context's undo manager, and
/// `processPendingChanges()` ends the event, so each user action (with the cascades and inverse updates it caused)
/// is one undo group. Contexts have no undo manager unless one is set, as Apple's background contexts.
extension NSManagedObjectContext {
    /// Registers `inverse` to run on `object` when the current change is undone.
    func registerUndo(for object: NSManagedObject, _ inverse: @escaping (NSManagedObject) -> Void) {
        guard let undoManager, undoManager.isUndoRegistrationEnabled else { return }
        undoManager.registerUndo(withTarget: object, handler: inverse)
    }

    /// Undoes the last group of changes (one user action).
    public func undo() {
        processPendingChanges()
        undoManager?.undo()
        processPendingChanges()
    }

    /// Redoes the last undone group.
    public func redo() {
        processPendingChanges()
        undoManager?.redo()
        processPendingChanges()
    }

    /// Undo of an insertion: the object leaves the context (redo inserts it again).
    func undoInsertion(of object: NSManagedObject) {
        // It leaves with its values (an inserted object turned into a fault holds them aside), for the redo.
        if object.storedValues == nil { fulfillFault(for: object) }
        changedObjects.remove(object)
        registry.removeValue(forKey: object.objectID)
        object.changes.isInserted = false
        object.managedObjectContext = nil
        // The redo holds the object: nothing else may (the context lists it no longer, and the undo manager's targets
        // are weak), and an undone insertion must come back on redo.
        registerUndo(for: object) { [weak self, object] _ in
            self?.insert(object, awakening: false)
            object.awake(fromSnapshotEvents: .undoInsertion)
        }
    }

    /// Undo of a deletion: the object is no longer deleted (redo deletes it again). The cascades and nullified
    /// inverses of the deletion were registered in the same group and are undone with it.
    func undoDeletion(of object: NSManagedObject) {
        object.changes.isDeleted = false
        pendingDeletions.removeAll { $0 === object }
        if !object.hasChanges { changedObjects.remove(object) }
        registerUndo(for: object) { [weak self] object in self?.delete(object) }
        object.awake(fromSnapshotEvents: .undoDeletion)
    }
}
