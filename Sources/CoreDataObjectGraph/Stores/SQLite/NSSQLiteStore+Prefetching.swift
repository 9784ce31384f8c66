import CoreDataModel
import CoreDataSQLiteFormat
import SQLiteDatabase

extension NSSQLiteStore {
    /// The destinations of a to-many relationship for many sources in one query, with their values: through the
    /// inverse key column (one-to-many) or the join table (many-to-many), in relationship order.
    func prefetchToMany(_ relationship: NSRelationshipDescription, sourceIDs: [NSManagedObjectID]) throws -> ToManyPrefetch {
        guard let destination = relationship.destinationEntity, let source = relationship.entity else {
            throw CoreDataError(.persistentStoreOperation, "relationship \(relationship.name) has no destination")
        }
        let plan = try selectPlan(for: destination)
        let columns = (plan.keyColumns(alias: "d") + plan.valueColumns(alias: "d")).joined(separator: ", ")
        let sourceColumnIndex = plan.columns.count + 3
        var result = ToManyPrefetch()
        for chunk in stride(from: 0, to: sourceIDs.count, by: 500).map({ Array(sourceIDs[$0..<min($0 + 500, sourceIDs.count)]) }) {
            let placeholders = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
            let sql: String
            if let join = layout.joinTable(forRelationship: relationship.name, ofEntity: source.name) {
                let declaredHere = join.relationshipName == relationship.name
                let mine = declaredHere ? join.sourceKeyColumn : join.destinationKeyColumn
                let theirs = declaredHere ? join.destinationKeyColumn : join.sourceKeyColumn
                let order = (declaredHere ? join.relationshipOrderColumn : join.inverseOrderColumn)
                    .map { "j.\(StoreLayout.sqlIdentifier($0)), " } ?? ""
                let (mineSQL, theirsSQL) = (StoreLayout.sqlIdentifier(mine), StoreLayout.sqlIdentifier(theirs))
                sql = "SELECT \(columns), j.\(mineSQL) FROM \(join.sqlName) j JOIN \(plan.table.sqlName) d ON d.Z_PK = j.\(theirsSQL) "
                    + "WHERE j.\(mineSQL) IN (\(placeholders)) ORDER BY j.\(mineSQL), \(order)d.Z_PK"
            } else if let inverse = relationship.inverseRelationship, !inverse.isToMany, let owner = inverse.entity,
                      let key = layout.columns(forProperty: inverse.name, ofEntity: owner.name) {
                let order = relationship.isOrdered ? (key.orderKey.map { "d.\(StoreLayout.sqlIdentifier($0)), " } ?? "") : ""
                let keySQL = StoreLayout.sqlIdentifier(key.value)
                sql = "SELECT \(columns), d.\(keySQL) FROM \(plan.table.sqlName) d WHERE d.\(keySQL) IN (\(placeholders)) "
                    + "ORDER BY d.\(keySQL), \(order)d.Z_PK"
            } else {
                throw CoreDataError(.persistentStoreOperation, "\(source.name).\(relationship.name) has no inverse to prefetch through")
            }
            let sourcesByKey = Dictionary(chunk.map { ($0.primaryKey, $0) }, uniquingKeysWith: { first, _ in first })
            let decoder = rowDecoder(plan: plan, withValues: true)
            try run(sql, chunk.map { .integer($0.primaryKey) }) { statement in
                try statement.forEachRow { row in
                    let fetched = try decoder.decode(row)
                    guard let owner = sourcesByKey[row.int64(at: sourceColumnIndex)] else { return }
                    guard fetched.objectID.entity.isKind(of: destination) else {
                        throw brokenReference(from: owner, relationship: relationship, key: fetched.objectID.primaryKey, found: fetched.objectID.entity)
                    }
                    result.destinations[owner, default: []].append(fetched.objectID)
                    if let snapshot = fetched.snapshot { result.snapshots[fetched.objectID] = snapshot }
                }
            }
        }
        return result
    }
}
