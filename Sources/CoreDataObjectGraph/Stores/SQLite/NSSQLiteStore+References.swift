import CoreDataModel
import CoreDataSQLiteFormat
import SQLiteDatabase

/// Relationships whose stored keys do not lead to a row of their destination: a key pointing at a row of another
/// entity (which would otherwise be read under the wrong entity's names, or trap on a key that entity lacks), or at
/// no row at all. Such a reference becomes an error that names the relationship, the row and what was found there.
extension NSSQLiteStore {
    /// The error for `source`'s `relationship` whose stored key `key` leads to `found` (nil: no row) instead of an
    /// object of the relationship's destination.
    func brokenReference(from source: NSManagedObjectID, relationship: NSRelationshipDescription, key: Int64,
                         found: NSEntityDescription?) -> CoreDataError {
        let destination = relationship.destinationEntity?.entityName ?? "?"
        let table = relationship.destinationEntity.flatMap { layout.table(forEntity: $0.entityName)?.name } ?? "its table"
        let what = found.map { "which is of entity \($0.entityName), not \(destination)" }
            ?? "which does not exist (CoreData could not fulfill a fault)"
        return CoreDataError(
            .objectInaccessibleException,
            "\(source.entity.entityName) p\(source.primaryKey)'s relationship \(relationship.name) refers to row \(key) of \(table), \(what); "
                + "the store's references are damaged",
            affectedObjectIDs: [source])
    }

    /// Why no row of `id`'s entity could fill its fault: the row with its key is missing, or belongs to another entity
    /// of the same table.
    public func missingRowReason(for id: NSManagedObjectID) -> String? {
        guard let entityTable = layout.table(forEntity: id.entity.entityName) else { return "its entity has no table in the store" }
        let table = entityTable.name
        let number = try? run(builder.keyColumn(.entity, table: entityTable), [.integer(id.primaryKey)]) { statement in
            var number: Int64?
            try statement.forEachRow { row in number = row.int64(at: 0) }
            return number
        }
        guard let found = number.flatMap({ $0 }) else { return "there is no row \(id.primaryKey) in \(table)" }
        let name = entity(number: Int(found))?.entityName ?? "Z_ENT \(found), which the model does not know"
        return "row \(id.primaryKey) of \(table) is of entity \(name), not \(id.entity.entityName)"
    }
}
