import CoreDataModel
import CoreDataSQLiteFormat
import SQLiteDatabase

extension NSSQLiteStore {
    /// The destinations of a to-many relationship for many sources in one query, with their values: through the
    /// inverse key column (one-to-many) or the join table (many-to-many), in relationship order.
    public func prefetchToMany(_ relationship: NSRelationshipDescription, sourceIDs: [NSManagedObjectID]) throws -> ToManyPrefetch {
        guard let destination = relationship.destinationEntity, let source = relationship.entity else {
            throw CoreDataError(.persistentStoreOperation, "relationship \(relationship.name) has no destination")
        }
        let plan = try selectPlan(for: destination)
        let selectList = plan.selectList(alias: "d")
        let sourceColumnIndex = plan.columns.count + 3
        var result = ToManyPrefetch()
        for chunk in stride(from: 0, to: sourceIDs.count, by: 500).map({ Array(sourceIDs[$0..<min($0 + 500, sourceIDs.count)]) }) {
            guard let sql = builder.prefetch(relationship, selectList: selectList, table: plan.table, count: chunk.count) else {
                throw CoreDataError(.persistentStoreOperation, "\(source.entityName).\(relationship.name) has no inverse to prefetch through")
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
