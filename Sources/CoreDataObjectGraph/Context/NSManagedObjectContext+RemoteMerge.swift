import CoreDataModel
import Foundation

extension NSManagedObjectContext {
    /// Merges changes made elsewhere (another process, a batch request, persistent history) into `contexts`, as
    /// Apple's class method: `changeNotificationData` holds, under `NSInsertedObjectsKey`, `NSUpdatedObjectsKey` and
    /// `NSDeletedObjectsKey` (or the `…ObjectIDsKey` spellings), arrays or sets of object IDs, their URI
    /// representations, or managed objects. Each context merges on its own queue, as `mergeChanges(fromContextDidSave:)`
    /// does: updated objects in use are refreshed (keeping unsaved changes), deleted objects are deleted there (in
    /// `deletedObjects` until the next save, which writes nothing for them), and the contexts post objects-did-change.
    /// A URI that names no store of a context's coordinator is skipped there.
    public class func mergeChanges(fromRemoteContextSave changeNotificationData: [AnyHashable: Any], into contexts: [NSManagedObjectContext]) {
        for context in contexts {
            context.performAndWait {
                let ids = { (keys: [String]) -> Set<NSManagedObjectID> in
                    var found: Set<NSManagedObjectID> = []
                    for key in keys { found.formUnion(context.objectIDs(in: changeNotificationData[key])) }
                    return found
                }
                let info: [AnyHashable: Any] = [
                    insertedObjectIDsKey: ids([NSInsertedObjectsKey, insertedObjectIDsKey]),
                    updatedObjectIDsKey: ids([NSUpdatedObjectsKey, updatedObjectIDsKey]),
                    deletedObjectIDsKey: ids([NSDeletedObjectsKey, deletedObjectIDsKey]),
                ]
                context.mergeChanges(fromContextDidSave: Notification(name: didSaveObjectIDsNotification, object: nil, userInfo: info))
            }
        }
    }

    /// The object IDs in one entry of a remote change dictionary: IDs, URIs (resolved by this context's coordinator)
    /// or objects, in an array or a set.
    private func objectIDs(in entry: Any?) -> [NSManagedObjectID] {
        let items: [Any]
        switch entry {
        case let array as [Any]: items = array
        case let set as Set<AnyHashable>: items = Array(set)  // any set of IDs, objects or URLs casts to this
        case let single?: items = [single]
        case nil: items = []
        }
        return items.compactMap { item in
            switch item {
            case let id as NSManagedObjectID: return id
            case let object as NSManagedObject: return object.objectID
            case let uri as URL: return persistentStoreCoordinator?.managedObjectID(forURIRepresentation: uri)
            default: return nil
            }
        }
    }
}
