import Foundation

/// How a save resolves objects whose rows changed in the store since they were read (optimistic locking).
public final class NSMergePolicy: Sendable {
    public enum MergeType: Sendable {
        /// Fail the save with the conflicts listed (the default).
        case errorMergePolicyType
        /// Property by property, the store's value wins where both changed; other local changes are kept.
        case mergeByPropertyStoreTrumpMergePolicyType
        /// Property by property, the local value wins where both changed; the store's other changes are kept.
        case mergeByPropertyObjectTrumpMergePolicyType
        /// The local object is written as it is, over whatever the store holds.
        case overwriteMergePolicyType
        /// The local changes to conflicting objects are discarded in favour of the store.
        case rollbackMergePolicyType
    }

    public let mergeType: MergeType

    public init(merge type: MergeType) {
        self.mergeType = type
    }

    public static let error = NSMergePolicy(merge: .errorMergePolicyType)
    public static let mergeByPropertyStoreTrump = NSMergePolicy(merge: .mergeByPropertyStoreTrumpMergePolicyType)
    public static let mergeByPropertyObjectTrump = NSMergePolicy(merge: .mergeByPropertyObjectTrumpMergePolicyType)
    public static let overwrite = NSMergePolicy(merge: .overwriteMergePolicyType)
    public static let rollback = NSMergePolicy(merge: .rollbackMergePolicyType)

    /// Adjusts conflicting objects so that a second write succeeds as the policy says: each object's version
    /// becomes the store's, and its values are merged per property. Objects whose row is gone stay in conflict.
    func resolve(_ objects: [NSManagedObject], storeSnapshots: [NSManagedObjectID: Snapshot]) {
        for object in objects {
            guard let fresh = storeSnapshots[object.objectID], var values = object.storedValues else { continue }
            let committed = object.changes.committedStoredValues ?? values
            switch mergeType {
            case .errorMergePolicyType:
                return
            case .overwriteMergePolicyType:
                // Every property is written, so the row becomes exactly this object.
                object.changes.changedSlots = SlotSet(values.indices)
            case .mergeByPropertyObjectTrumpMergePolicyType:
                for slot in values.indices where !object.changes.changedSlots.contains(slot) && slot < fresh.values.count {
                    values[slot] = fresh.values[slot]
                }
            case .mergeByPropertyStoreTrumpMergePolicyType:
                for slot in values.indices where slot < fresh.values.count {
                    let storeChanged = fresh.values[slot] != committed[slot]
                    if storeChanged || !object.changes.changedSlots.contains(slot) {
                        values[slot] = fresh.values[slot]
                        object.changes.changedSlots.remove(slot)
                    }
                }
            case .rollbackMergePolicyType:
                values = fresh.values
                object.changes.changedSlots.removeAll()
                object.changes.committedToMany.removeAll()
            }
            object.storedValues = values
            object.changes.committedStoredValues = fresh.values
            object.snapshotVersion = fresh.version
            object.awake(fromSnapshotEvents: .mergePolicy)
        }
    }
}

// Apple's global names of the shared policies, which code assigns verbatim
// (`context.mergePolicy = NSMergeByPropertyObjectTrumpMergePolicy`). Apple types them `Any`; here they are the shared
// policies themselves, so the assignment type-checks against `mergePolicy`.

/// The default policy: a conflicting save fails, listing the conflicts.
public let NSErrorMergePolicy = NSMergePolicy.error
/// Per property, a value changed in the store wins over the object's change.
public let NSMergeByPropertyStoreTrumpMergePolicy = NSMergePolicy.mergeByPropertyStoreTrump
/// Per property, the object's change wins over the store's.
public let NSMergeByPropertyObjectTrumpMergePolicy = NSMergePolicy.mergeByPropertyObjectTrump
/// The object's whole state replaces the store's row.
public let NSOverwriteMergePolicy = NSMergePolicy.overwrite
/// The object's changes are discarded for the store's row.
public let NSRollbackMergePolicy = NSMergePolicy.rollback
