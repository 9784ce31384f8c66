import CoreDataModel
import CoreDataObjectGraph
import CoreDataSQLiteFormat
import Foundation
import SQLiteDatabase

/// Stored to-one keys that lead to no row of their destination (a damaged store): found by one anti-join in SQL, so
/// `query`'s SQL path, whose joins would read them as NULL, can report them as reading objects does.
enum DanglingReferences {
    /// At most this many distinct broken keys are returned; one is enough to stop the command.
    static let limit = 100

    /// The destination IDs `entity`'s `relationship` refers to that have no row of the destination's entities.
    static func find(entity: NSEntityDescription, relationship name: String, context: NSManagedObjectContext,
                     storePath: String) throws -> [NSManagedObjectID] {
        guard let relationship = entity.relationshipsByName[name], let destination = relationship.destinationEntity,
              let model = context.persistentStoreCoordinator?.managedObjectModel else { return [] }
        let layout = StoreLayout(model: model)
        guard let source = layout.table(forEntity: entity.name), let target = layout.table(forEntity: destination.name),
              let key = layout.columns(forProperty: name, ofEntity: entity.name)?.value else { return [] }
        let keyColumn = "s.\"" + key.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        var sourceFilter = ""
        if let numbers = layout.numbering.range(of: entity.name), source.rootEntityName != entity.name {
            sourceFilter = " AND s.Z_ENT BETWEEN \(numbers.lowerBound) AND \(numbers.upperBound)"
        }
        var targetFilter = ""
        if let numbers = layout.numbering.range(of: destination.name), target.rootEntityName != destination.name {
            targetFilter = " AND d.Z_ENT BETWEEN \(numbers.lowerBound) AND \(numbers.upperBound)"
        }
        let sql = """
            SELECT DISTINCT \(keyColumn) FROM \(source.sqlName) s
            WHERE \(keyColumn) IS NOT NULL\(sourceFilter)
              AND NOT EXISTS (SELECT 1 FROM \(target.sqlName) d WHERE d.Z_PK = \(keyColumn)\(targetFilter)) LIMIT \(limit)
            """
        let connection = try Connection(path: storePath, mode: .readOnly, busyTimeout: .seconds(5))
        guard let coordinator = context.persistentStoreCoordinator, let store = coordinator.persistentStores.first else { return [] }
        return try connection.query(sql).compactMap { row in
            guard case .integer(let key)? = row.first else { return nil }
            return coordinator.managedObjectID(forURIRepresentation: URL(string: "x-coredata://\(store.identifier)/\(destination.name)/p\(key)")!)
        }
    }
}
