import CoreDataModel

// Where the context calls the lifecycle hooks declared (empty, overridable) in `Storage/NSManagedObject.swift`:
// `awakeFromInsert` in `insert(_:)`, `awakeFromFetch` wherever a fault fills from a row or a fetch fills an object,
// `awake(fromSnapshotEvents:)` in undo, rollback, refresh and merge policies, `prepareForDeletion` in
// `processPendingChanges()`, `willSave`/`didSave` around a save, and the fault hooks below.
extension NSManagedObject {
    /// `awakeFromFetch()`, skipped for plain `NSManagedObject`s, whose hook is empty: filling a fault is the hot
    /// path of every read, and comparing the class costs less than the dynamic call. Skipped too for an inserted
    /// object turned into a fault: it takes its own values back when it fills, it was not fetched.
    @inline(__always)
    final func awakeFromFetchUnlessPlain() {
        if type(of: self) != NSManagedObject.self, !isInserted { awakeFromFetch() }
    }

    /// Turns the object back into a fault between `willTurnIntoFault()` and `didTurnIntoFault()`; an object that is
    /// a fault already is left alone, as Apple's is.
    final func turnIntoFaultCallingHooks() {
        guard storedValues != nil else {
            turnIntoFault()
            return
        }
        let plain = type(of: self) == NSManagedObject.self
        if !plain { willTurnIntoFault() }
        turnIntoFault()
        if !plain { didTurnIntoFault() }
    }

    /// Turns an inserted object into a fault, between the fault hooks, as Apple's `refresh(_:mergeChanges: false)`
    /// does. It has no row to reload from, so its stored values wait in `pendingValues` (where a fetched fault keeps
    /// its row) and come back when it fires; every read of a fault fills it from there first. Its transient values
    /// are disposed of; its to-many lists stay, as nothing else holds them. It is still inserted.
    final func turnInsertedObjectIntoFault() {
        guard let values = storedValues else { return }
        let plain = type(of: self) == NSManagedObject.self
        if !plain { willTurnIntoFault() }
        storedValues = nil
        pendingValues = values
        sideState?.releaseTransientState()
        if !plain { didTurnIntoFault() }
    }
}
