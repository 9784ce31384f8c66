import CoreDataModel
import Foundation

/// How a save resolves its conflicts: optimistic-locking conflicts (``NSMergeConflict``, objects whose rows changed in
/// the store since they were read) and uniqueness-constraint conflicts (``NSConstraintConflict``).
///
/// A save hands the conflicts it finds to its context's policy through ``resolve(mergeConflicts:)``, which passes each
/// kind to ``resolve(optimisticLockingConflicts:)`` or ``resolve(constraintConflicts:)``. A subclass overrides any of
/// them (and calls `super` for the built-in behaviour of its ``mergeType``); the save then writes again, and fails
/// with the conflicts left when a second try still conflicts.
open class NSMergePolicy: NSObject, @unchecked Sendable {
    public enum MergeType: UInt, Sendable {
        /// Fail the save with the conflicts listed (the default).
        case errorMergePolicyType = 0
        /// Property by property, the store's value wins where both changed; other local changes are kept.
        case mergeByPropertyStoreTrumpMergePolicyType = 1
        /// Property by property, the local value wins where both changed; the store's other changes are kept.
        case mergeByPropertyObjectTrumpMergePolicyType = 2
        /// The local object is written as it is, over whatever the store holds.
        case overwriteMergePolicyType = 3
        /// The local changes to conflicting objects are discarded in favour of the store.
        case rollbackMergePolicyType = 4
    }

    private let type: MergeType

    /// The policy's built-in behaviour, which the base implementations of the `resolve` methods follow.
    open var mergeType: MergeType { type }

    /// A policy that resolves conflicts as `ty` says.
    public init(merge ty: MergeType) {
        type = ty
        super.init()
    }

    public static let error = NSMergePolicy(merge: .errorMergePolicyType)
    public static let mergeByPropertyStoreTrump = NSMergePolicy(merge: .mergeByPropertyStoreTrumpMergePolicyType)
    public static let mergeByPropertyObjectTrump = NSMergePolicy(merge: .mergeByPropertyObjectTrumpMergePolicyType)
    public static let overwrite = NSMergePolicy(merge: .overwriteMergePolicyType)
    public static let rollback = NSMergePolicy(merge: .rollbackMergePolicyType)

    /// Resolves a save's conflicts: the ``NSMergeConflict``s go to ``resolve(optimisticLockingConflicts:)``, the
    /// ``NSConstraintConflict``s to ``resolve(constraintConflicts:)``. An override should call `super` as well.
    open func resolve(mergeConflicts list: [Any]) throws {
        let locking = list.compactMap { $0 as? NSMergeConflict }
        let constraints = list.compactMap { $0 as? NSConstraintConflict }
        if !locking.isEmpty { try resolve(optimisticLockingConflicts: locking) }
        if !constraints.isEmpty { try resolve(constraintConflicts: constraints) }
    }

    /// Resolves optimistic-locking conflicts as ``mergeType`` says: the error policy throws
    /// `NSManagedObjectMergeError` listing them; the others bring each object to the store's row, its values merged
    /// per property, so that the save's second write succeeds. A row deleted in the store stays in conflict.
    open func resolve(optimisticLockingConflicts list: [NSMergeConflict]) throws {
        guard !list.isEmpty else { return }
        if mergeType == .errorMergePolicyType { throw Self.mergeError(list) }
        for conflict in list {
            let object = conflict.sourceObject
            let row = conflict.knowsStoreRow ? conflict.storeRow : try object.managedObjectContext?.currentStoreRow(of: object)
            guard let row else { continue }
            merge(object, with: row)
        }
    }

    /// Resolves uniqueness-constraint conflicts as ``mergeType`` says: the error policy throws
    /// `NSManagedObjectConstraintMergeError` listing them; the others merge each conflict's objects into one (the
    /// database object where there is one), whose values follow the policy, and delete the rest.
    open func resolve(constraintConflicts list: [NSConstraintConflict]) throws {
        guard !list.isEmpty else { return }
        if mergeType == .errorMergePolicyType { throw Self.constraintError(list) }
        for conflict in list { mergeDuplicates(of: conflict) }
    }

    /// Gives `object` the store's row as the policy says: its version becomes the row's, and its values are merged per
    /// property. An object without changes of its own (marked by `detectConflicts(for:)`) takes the row as it is.
    private func merge(_ object: NSManagedObject, with fresh: Snapshot) {
        guard var values = object.storedValues else { return }
        let committed = object.changes.committedStoredValues ?? values
        switch object.hasChanges ? mergeType : .rollbackMergePolicyType {
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

    /// `NSManagedObjectMergeError` for `conflicts`, as Apple's: the conflicts under `"conflictList"`, the objects' IDs
    /// under `NSAffectedObjectsErrorKey`.
    static func mergeError(_ conflicts: [NSMergeConflict]) -> CoreDataError {
        let ids = conflicts.map(\.sourceObject.objectID)
        var error = CoreDataError(
            .managedObjectMerge,
            "optimistic locking failure: \(ids.count) object(s) changed or were deleted in the store since they were read: "
                + conflicts.map { "\($0.sourceObject.objectID.uriRepresentation().absoluteString) (version \($0.oldVersionNumber), "
                    + ($0.newVersionNumber == 0 ? "deleted in the store)" : "now \($0.newVersionNumber))") }.joined(separator: ", "),
            affectedObjectIDs: ids)
        error.conflicts = conflicts
        return error
    }

    /// `NSManagedObjectConstraintMergeError` for `conflicts`, the conflicts under `"conflictList"`.
    static func constraintError(_ conflicts: [NSConstraintConflict]) -> CoreDataError {
        var error = CoreDataError(
            .managedObjectConstraintMerge,
            "uniqueness constraint violated: " + conflicts.map(\.description).joined(separator: "; "),
            affectedObjectIDs: conflicts.flatMap(\.conflictingObjects).map(\.objectID))
        error.conflicts = conflicts
        return error
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
