import CoreDataModel
import Foundation

// Apple's spellings that code uses verbatim: the notification names as `Notification.Name` members, the keys of
// the object-ID notifications, and the type names of the concurrency and merge types.

/// Apple's name for `NSManagedObjectContext.ConcurrencyType`.
public typealias NSManagedObjectContextConcurrencyType = NSManagedObjectContext.ConcurrencyType
/// Apple's name for `NSMergePolicy.MergeType`.
public typealias NSMergePolicyType = NSMergePolicy.MergeType

/// The objects a refresh turned back into faults or updated, in an objects-did-change notification.
public let NSRefreshedObjectsKey = "refreshed"
/// The objects that became inaccessible, in an objects-did-change notification.
public let NSInvalidatedObjectsKey = "invalidated"
/// Present when every object of the context was invalidated (a reset).
public let NSInvalidatedAllObjectsKey = "invalidatedAll"

extension NSManagedObjectContext {
    /// Posted at the start of `save()`, before validation, with no user info.
    public static let willSaveObjectsNotification = Notification.Name("NSManagedObjectContextWillSaveNotification")
    /// Posted after a save with the saved objects' IDs only (keys of `NotificationKey`): observers on any queue
    /// may use them.
    public static let didSaveObjectIDsNotification = Notification.Name("NSManagedObjectContextDidSaveObjectIDsNotification")
    /// `objectsDidChangeNotification`, by Apple's newer Swift name.
    public static let didChangeObjectsNotification = objectsDidChangeNotification
    /// Posted after `mergeChanges(fromContextDidSave:)` with the merged objects' IDs (keys of `NotificationKey`).
    public static let didMergeChangesObjectIDsNotification = Notification.Name("NSManagedObjectContextDidMergeChangesObjectIDsNotification")

    /// The user-info keys of context notifications, as Apple names them.
    public struct NotificationKey: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        public static let insertedObjects = NotificationKey(rawValue: NSInsertedObjectsKey)
        public static let updatedObjects = NotificationKey(rawValue: NSUpdatedObjectsKey)
        public static let deletedObjects = NotificationKey(rawValue: NSDeletedObjectsKey)
        public static let refreshedObjects = NotificationKey(rawValue: NSRefreshedObjectsKey)
        public static let invalidatedObjects = NotificationKey(rawValue: NSInvalidatedObjectsKey)
        public static let invalidatedAllObjects = NotificationKey(rawValue: NSInvalidatedAllObjectsKey)
        public static let insertedObjectIDs = NotificationKey(rawValue: "inserted_objectIDs")
        public static let updatedObjectIDs = NotificationKey(rawValue: "updated_objectIDs")
        public static let deletedObjectIDs = NotificationKey(rawValue: "deleted_objectIDs")
        public static let refreshedObjectIDs = NotificationKey(rawValue: "refreshed_objectIDs")
        public static let invalidatedObjectIDs = NotificationKey(rawValue: "invalidated_objectIDs")
    }

    /// Posts the object-ID form of a save or a merge.
    func postObjectIDs(_ name: Notification.Name, inserted: Set<NSManagedObjectID>, updated: Set<NSManagedObjectID>,
                       deleted: Set<NSManagedObjectID>) {
        NotificationCenter.default.post(name: name, object: self, userInfo: [
            NotificationKey.insertedObjectIDs.rawValue: inserted,
            NotificationKey.updatedObjectIDs.rawValue: updated,
            NotificationKey.deletedObjectIDs.rawValue: deleted,
        ])
    }
}

extension Notification.Name {
    /// `NSManagedObjectContext.didSaveObjectsNotification`, by Apple's older name.
    public static let NSManagedObjectContextDidSave = NSManagedObjectContext.didSaveObjectsNotification
    /// `NSManagedObjectContext.objectsDidChangeNotification`, by Apple's older name.
    public static let NSManagedObjectContextObjectsDidChange = NSManagedObjectContext.objectsDidChangeNotification
    /// `NSManagedObjectContext.willSaveObjectsNotification`, by Apple's older name.
    public static let NSManagedObjectContextWillSave = NSManagedObjectContext.willSaveObjectsNotification
    /// `NSManagedObjectContext.didSaveObjectIDsNotification`, by Apple's older name.
    public static let NSManagedObjectContextDidSaveObjectIDs = NSManagedObjectContext.didSaveObjectIDsNotification
    /// `NSManagedObjectContext.didMergeChangesObjectIDsNotification`, by Apple's older name.
    public static let NSManagedObjectContextDidMergeChangesObjectIDs = NSManagedObjectContext.didMergeChangesObjectIDsNotification
}

extension NSEntityDescription {
    /// The entity called `entityName` in the model of `context`'s coordinator; nil when there is none.
    public static func entity(forEntityName entityName: String, in context: NSManagedObjectContext) -> NSEntityDescription? {
        guard let model = context.persistentStoreCoordinator?.managedObjectModel else { return nil }
        return context.entity(named: entityName, in: model)
    }
}
