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
    var committedToMany: [String: [NSManagedObjectID]] {
        get { committedToManyStorage ?? [:] }
        _modify {
            var dictionary = committedToManyStorage ?? [:]
            committedToManyStorage = nil
            defer { committedToManyStorage = dictionary.isEmpty ? nil : dictionary }
            yield &dictionary
        }
    }
    /// Nil rather than empty while no to-many relationship changed: every object starts with this, and an empty
    /// dictionary cost each new object a call and a retain of the empty singleton.
    private var committedToManyStorage: [String: [NSManagedObjectID]]?
    /// The temporary ID an inserted object had before it got a permanent one.
    var temporaryID: NSManagedObjectID?
    /// A transient property was set: the object has changes (and counts as updated) that a save does not write.
    var hasTransientChanges = false
    /// The deletion came from a merge of another context's save (`mergeChanges(fromContextDidSave:)`): the row is
    /// gone from the store already, so the next save has nothing to write for it.
    var isDeletedByMerge = false

    var hasChanges: Bool {
        isInserted || isDeleted || !changedSlots.isEmpty || committedToManyStorage != nil || hasTransientChanges
    }

    /// Whether the store has anything to write for the object besides its insertion or deletion.
    var hasStoredChanges: Bool { !changedSlots.isEmpty || committedToManyStorage != nil }

    /// Only transient properties changed: a refresh reloads the object and its transient values start over.
    var hasOnlyTransientChanges: Bool { hasTransientChanges && !isInserted && !isDeleted && !hasStoredChanges }

    /// Forgets the changes once they are saved (or rolled back).
    mutating func reset() {
        self = ObjectChanges()
    }
}
