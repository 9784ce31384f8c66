import CoreDataModel
import Foundation

/// One optimistic-locking conflict of a save: an object whose row changed in (or left) the store since the object read
/// it. A save hands its conflicts to the context's ``NSMergePolicy``; an error-policy save fails with them under
/// `"conflictList"` in the error's `userInfo`.
///
/// Two layers can disagree, as in Apple's Core Data:
/// - the context and the coordinator's row cache (another context of the same coordinator saved the row): the conflict
///   has a ``cachedSnapshot`` (the row the coordinator now holds) and no ``persistedSnapshot``;
/// - the coordinator and the store (another coordinator or process saved the row): ``cachedSnapshot`` is the row as
///   this coordinator last knew it, ``persistedSnapshot`` the row in the store.
///
/// Snapshots hold every attribute and to-one relationship (destinations as ``NSManagedObjectID``s, nil values as
/// `NSNull`), never to-many relationships. A ``newVersionNumber`` of 0 means the row was deleted.
open class NSMergeConflict: NSObject, @unchecked Sendable {
    /// The object whose save conflicted.
    public let sourceObject: NSManagedObject
    /// The object's values as it last read or saved them (before its unsaved changes); nil for an object without values.
    public let objectSnapshot: [String: Any]?
    /// The row as the coordinator holds it.
    public let cachedSnapshot: [String: Any]?
    /// The row as the store holds it, when the coordinator's copy is out of date too.
    public let persistedSnapshot: [String: Any]?
    /// The row's version in the store now (0: the row was deleted).
    public let newVersionNumber: Int
    /// The version the object read.
    public let oldVersionNumber: Int

    /// The store's row when the save made this conflict (nil: deleted), so the built-in policies resolve against it
    /// without reading it again. `knowsStoreRow` is false for a conflict made through the public initialiser.
    private(set) var storeRow: Snapshot?
    private(set) var knowsStoreRow = false

    /// A conflict of `srcObject` between version `oldvers` (the object's) and `newvers` (the row's now; 0 when it was
    /// deleted), with the coordinator's and the store's values of the row.
    public init(source srcObject: NSManagedObject, newVersion newvers: Int, oldVersion oldvers: Int,
                cachedSnapshot cachesnap: [String: Any]?, persistedSnapshot persnap: [String: Any]?) {
        sourceObject = srcObject
        // What the object read: its committed values while it has unsaved changes, else its values.
        objectSnapshot = (srcObject.changes.committedStoredValues ?? srcObject.storedValues).map(srcObject.snapshotDictionary)
        cachedSnapshot = cachesnap
        persistedSnapshot = persnap
        newVersionNumber = newvers
        oldVersionNumber = oldvers
        super.init()
    }

    /// A conflict found by a save, which read the store's `storeRow` (nil: the row was deleted).
    convenience init(source: NSManagedObject, newVersion: Int, oldVersion: Int, cachedSnapshot: [String: Any]?,
                     persistedSnapshot: [String: Any]?, storeRow: Snapshot?) {
        self.init(source: source, newVersion: newVersion, oldVersion: oldVersion, cachedSnapshot: cachedSnapshot,
                  persistedSnapshot: persistedSnapshot)
        self.storeRow = storeRow
        knowsStoreRow = true
    }

    open override var description: String {
        "NSMergeConflict for \(sourceObject.entity.entityName) \(sourceObject.objectID.uriRepresentation().absoluteString) "
            + "with oldVersion = \(oldVersionNumber) and newVersion = \(newVersionNumber)"
    }
}

extension NSManagedObject {
    /// A row's values as a snapshot dictionary of this object's entity: attributes as `value(forKey:)` returns them,
    /// to-one destinations as their IDs, nil as `NSNull`; `values` follow this object's property slots.
    func snapshotDictionary(_ values: [StoredValue]) -> [String: Any] {
        var result: [String: Any] = [:]
        for (index, property) in slots.properties.enumerated() where index < values.count {
            switch values[index] {
            case .attribute(.data(let data)) where isTransformable(slot: index):
                result[property.name] = transformableValue(data, atSlot: index) ?? NSNull()
            case .attribute(let value): result[property.name] = value.objectValue
            case .toOne(let id): result[property.name] = id
            case .null: result[property.name] = NSNull()
            case .externalData(let reference):
                // The bytes live in a file beside the store, named by the row.
                result[property.name] = managedObjectContext?.externalData(reference: reference, for: self) ?? NSNull()
            }
        }
        return result
    }
}
