/// What a context passes to the designated initializer of the object it is creating: the object's ID and slots, and
/// whether to register it (fetched objects and faults) or leave it for `insert(_:)`.
/// Unowned-unsafe: the materializing initializer holds both for the duration of the call, so passing them costs no
/// retain and release per fetched object.
struct ObjectUnderConstruction {
    unowned(unsafe) let objectID: NSManagedObjectID
    unowned(unsafe) let slots: PropertySlots
    let registers: Bool
}
