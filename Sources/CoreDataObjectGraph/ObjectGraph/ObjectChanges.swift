/// What changed in an object since it was fetched or last saved: enough to write an `UPDATE` of only the changed
/// columns, to tell `changedValues()` and `committedValues(forKeys:)`, and to roll back.
struct ObjectChanges {
    var isInserted = false
    var isDeleted = false
    /// Stored values before the first change (nil while nothing stored has changed).
    var committedStoredValues: [StoredValue]?
    /// Slots whose value changed.
    var changedSlots = SlotSet()
    /// To-many relationships before their first change, by name.
    var committedToMany: [String: [NSManagedObjectID]] = [:]
    /// The temporary ID an inserted object had before it got a permanent one.
    var temporaryID: NSManagedObjectID?

    var hasChanges: Bool {
        isInserted || isDeleted || !changedSlots.isEmpty || !committedToMany.isEmpty
    }

    /// Forgets the changes once they are saved (or rolled back).
    mutating func reset() {
        self = ObjectChanges()
    }
}
