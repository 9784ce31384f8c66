import CoreDataModel
import CoreDataObjectGraph

/// How objects are named on screen: `Recipe p12` (entity and primary key, as in Core Data's object URIs), or
/// `Recipe (new)` for an object not saved yet.
package enum ObjectLabel {
    package static func short(_ id: NSManagedObjectID) -> String {
        if id.isTemporaryID { return "\(id.entity.name) (new)" }
        return "\(id.entity.name) p\(id.primaryKey)"
    }
}
