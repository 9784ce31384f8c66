import CoreDataModel

// Where the context calls the lifecycle hooks declared (empty, overridable) in `Storage/NSManagedObject.swift`:
// `awakeFromInsert` in `insert(_:)`, `awakeFromFetch` wherever a fault fills from a row or a fetch fills an object,
// `awake(fromSnapshotEvents:)` in undo, rollback, refresh and merge policies, `prepareForDeletion` in
// `processPendingChanges()`, `willSave`/`didSave` around a save, and the fault hooks below.
extension NSManagedObject {
    /// `awakeFromFetch()`, skipped for plain `NSManagedObject`s, whose hook is empty: filling a fault is the hot
    /// path of every read, and comparing the class costs less than the dynamic call.
    @inline(__always)
    final func awakeFromFetchUnlessPlain() {
        if type(of: self) != NSManagedObject.self { awakeFromFetch() }
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
}
