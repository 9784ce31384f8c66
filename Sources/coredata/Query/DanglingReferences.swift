import CoreDataModel
import CoreDataObjectGraph
import CoreDataSQLiteFormat
import Foundation
import SQLiteDatabase

/// Stored to-one keys that lead to no row of their destination (a damaged store), found by one anti-join in SQL on a
/// connection of its own: `query`'s SQL path reads a value joined through such a key as NULL, and runs this when it
/// first meets a NULL there, so that it reports the damage as reading objects does. Healthy data with no NULL in
/// such a column never pays for it.
struct DanglingReferences {
    /// At most this many distinct broken keys are returned; one is enough to stop the command.
    static let limit = 100

    let relationship: String
    let destination: NSEntityDescription
    private let sql: String
    private let storePath: String

    /// The query for `entity`'s to-one `relationship`, or nil when the store's layout has no column for it.
    init?(entity: NSEntityDescription, relationship name: String, model: NSManagedObjectModel, storePath: String) {
        guard let relationship = entity.relationshipsByName[name], let destination = relationship.destinationEntity else { return nil }
        let layout = StoreLayout(model: model)
        guard let source = layout.table(forEntity: entity.entityName), let target = layout.table(forEntity: destination.entityName),
              let key = layout.columns(forProperty: name, ofEntity: entity.entityName)?.value else { return nil }
        let keyColumn = "s.\"" + key.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        var sourceFilter = ""
        if let numbers = layout.numbering.range(of: entity.entityName), source.rootEntityName != entity.entityName {
            sourceFilter = " AND s.Z_ENT BETWEEN \(numbers.lowerBound) AND \(numbers.upperBound)"
        }
        var targetFilter = ""
        if let numbers = layout.numbering.range(of: destination.entityName), target.rootEntityName != destination.entityName {
            targetFilter = " AND d.Z_ENT BETWEEN \(numbers.lowerBound) AND \(numbers.upperBound)"
        }
        sql = """
            SELECT DISTINCT \(keyColumn) FROM \(source.sqlName) s WHERE \(keyColumn) IS NOT NULL\(sourceFilter)
              AND NOT EXISTS (SELECT 1 FROM \(target.sqlName) d WHERE d.Z_PK = \(keyColumn)\(targetFilter)) LIMIT \(Self.limit)
            """
        self.relationship = name
        self.destination = destination
        self.storePath = storePath
    }

    /// The primary keys the relationship refers to that lead to no row of its destination.
    func brokenKeys() throws -> [Int64] {
        let connection = try Connection(path: storePath, mode: .readOnly, busyTimeout: .seconds(5))
        return try connection.query(sql).compactMap { row in
            guard case .integer(let key)? = row.first else { return nil }
            return key
        }
    }
}
