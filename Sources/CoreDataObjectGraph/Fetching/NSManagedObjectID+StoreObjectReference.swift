import CoreDataModel
import CoreDataSQLiteFormat

/// An object ID given as a predicate constant (`recipe == %@`, `ANY tags == %@`, `SELF IN %@`) compiles to a
/// comparison of primary keys, as `StoreObjectReference` documents; without this, a store refused such fetches.
extension NSManagedObjectID: StoreObjectReference {
    public var entityName: String { entity.name }
}
