import CoreDataModel
import CoreDataSQLiteFormat

/// An object ID given as a predicate constant (`recipe == %@`, `SELF IN %@`) compares by primary key in SQL, as in
/// Apple's Core Data. A temporary ID has no row, so it matches none.
extension NSManagedObjectID: StoreObjectReference {
    public var entityName: String { entity.entityName }
}

/// A managed object given as a predicate constant (`SELF IN %@` with objects, `owner == %@`) compares by its ID's
/// primary key in SQL, as an object ID does.
extension NSManagedObject: StoreObjectReferencing {
    package var storeObjectReference: any StoreObjectReference { objectID }
}
