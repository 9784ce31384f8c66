import CoreDataModel
import CoreDataSQLiteFormat
import Foundation
import SQLiteDatabase

extension NSSQLiteStore: RowStore {
    @discardableResult
    func executeFetch(_ fetch: ResolvedFetch, forEachRow body: (consuming FetchedRow) throws -> Void) throws -> Int {
        let plan = try selectPlan(for: fetch.entity)
        let selectList = (plan.keyColumns(alias: "t0") + (fetch.includesPropertyValues ? plan.valueColumns(alias: "t0") : []))
        let query = try FetchQuery(store: self, fetch: fetch, table: plan.table)
        let sql = "SELECT \(selectList.joined(separator: ", ")) FROM \(plan.table.sqlName) t0\(query.joins)\(query.whereClause)\(query.orderBy())\(query.limitClause)"
        let decoder = rowDecoder(plan: plan, withValues: fetch.includesPropertyValues)
        return try run(sql, query.bindings) { statement in
            var count = FetchedRowCount()
            try statement.forEachRow { row in
                try body(try decoder.decode(row))
                count.rowCount += 1
            }
            return count
        }.rowCount
    }

    func executeCount(_ fetch: ResolvedFetch) throws -> Int {
        guard let table = layout.table(forEntity: fetch.entity.name) else {
            throw CoreDataError(.persistentStoreOperation, "the store has no table for entity \(fetch.entity.name)")
        }
        let query = try FetchQuery(store: self, fetch: fetch, table: table)
        var sql = "SELECT COUNT(*) FROM \(table.sqlName) t0\(query.joins)\(query.whereClause)"
        if fetch.fetchLimit > 0 || fetch.fetchOffset > 0 {
            // A limited count counts the rows the limited fetch would return.
            sql = "SELECT COUNT(*) FROM (SELECT t0.Z_PK FROM \(table.sqlName) t0\(query.joins)\(query.whereClause)\(query.limitClause))"
        }
        return try run(sql, query.bindings) { statement in
            _ = try statement.step()
            return statement.int(at: 0)
        }
    }

    /// Batch faulting: fetches the snapshots of many objects with one `IN` query per entity table.
    func snapshots(for ids: [NSManagedObjectID]) throws -> [NSManagedObjectID: Snapshot] {
        var result: [NSManagedObjectID: Snapshot] = [:]
        let byRoot = Dictionary(grouping: ids) { $0.entity.rootEntity.name }
        for (rootName, group) in byRoot {
            guard let root = model.entitiesByName[rootName] else { continue }
            let plan = try selectPlan(for: root)
            let decoder = rowDecoder(plan: plan, withValues: true)
            // SQLite limits bound parameters; stay well under the default 32,766.
            for chunk in stride(from: 0, to: group.count, by: 500).map({ Array(group[$0..<min($0 + 500, group.count)]) }) {
                let placeholders = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
                let requested = Dictionary(chunk.map { ($0.primaryKey, $0.entity) }, uniquingKeysWith: { first, _ in first })
                let columns = (plan.keyColumns(alias: "t0") + plan.valueColumns(alias: "t0")).joined(separator: ", ")
                let sql = "SELECT \(columns) FROM \(plan.table.sqlName) t0 WHERE t0.Z_PK IN (\(placeholders))"
                try run(sql, chunk.map { .integer($0.primaryKey) }) { statement in
                    try statement.forEachRow { row in
                        let fetched = try decoder.decode(row)
                        // A row of another entity than the ID asked for (a damaged reference) must not fill its fault.
                        guard let snapshot = fetched.snapshot, requested[fetched.objectID.primaryKey] === fetched.objectID.entity else { return }
                        result[fetched.objectID] = snapshot
                    }
                }
            }
        }
        return result
    }

    /// The destinations of a to-many relationship: through the inverse's key column for one-to-many, through the
    /// join table (in order, when ordered) for many-to-many.
    func destinations(of id: NSManagedObjectID, relationship: NSRelationshipDescription) throws -> [NSManagedObjectID] {
        guard let destination = relationship.destinationEntity, let source = relationship.entity,
              let destinationTable = layout.table(forEntity: destination.name) else {
            throw CoreDataError(.persistentStoreOperation, "relationship \(relationship.name) has no destination table")
        }
        let sql: String
        if let join = layout.joinTable(forRelationship: relationship.name, ofEntity: source.name) {
            // Which join column holds this side's keys depends on which side declared the table's relationship.
            let declaredHere = join.relationshipName == relationship.name && source.isKind(of: model.entitiesByName[join.entityName] ?? source)
            let mine = declaredHere ? join.sourceKeyColumn : join.destinationKeyColumn
            let theirs = declaredHere ? join.destinationKeyColumn : join.sourceKeyColumn
            let order = (declaredHere ? join.relationshipOrderColumn : join.inverseOrderColumn).map { "j.\(StoreLayout.sqlIdentifier($0)), " } ?? ""
            // A left join, so a key that leads to no row shows (its Z_ENT is null) instead of vanishing.
            sql = "SELECT j.\(StoreLayout.sqlIdentifier(theirs)), d.Z_ENT FROM \(join.sqlName) j LEFT JOIN \(destinationTable.sqlName) d "
                + "ON d.Z_PK = j.\(StoreLayout.sqlIdentifier(theirs)) WHERE j.\(StoreLayout.sqlIdentifier(mine)) = ? "
                + "ORDER BY \(order)j.\(StoreLayout.sqlIdentifier(theirs))"
        } else if let inverse = relationship.inverseRelationship, !inverse.isToMany, let owner = inverse.entity,
                  let columns = layout.columns(forProperty: inverse.name, ofEntity: owner.name) {
            let order = relationship.isOrdered ? (columns.orderKey.map { "d.\(StoreLayout.sqlIdentifier($0)), " } ?? "") : ""
            var filter = "d.\(StoreLayout.sqlIdentifier(columns.value)) = ?"
            if let range = layout.numbering.range(of: destination.name), destination.rootEntity.subentities.count > 0 {
                filter += " AND d.Z_ENT BETWEEN \(range.lowerBound) AND \(range.upperBound)"
            }
            sql = "SELECT d.Z_PK, d.Z_ENT FROM \(destinationTable.sqlName) d WHERE \(filter) ORDER BY \(order)d.Z_PK"
        } else {
            throw CoreDataError(.persistentStoreOperation,
                                "\(source.name).\(relationship.name) has no inverse, so the store does not record it in a way we can read")
        }
        return try run(sql, [.integer(id.primaryKey)]) { statement in
            var ids: [NSManagedObjectID] = []
            let store = InternedStoreIdentifier.intern(identifier)
            try statement.forEachRow { row in
                let key = row.int64(at: 0)
                guard !row.isNull(at: 1) else { throw brokenReference(from: id, relationship: relationship, key: key, found: nil) }
                let number = Int(row.int64(at: 1))
                guard let entity = entity(number: number) else {
                    throw CoreDataError(.persistentStoreOperation, "\(url?.path ?? "store"): row \(key) of \(destinationTable.name) has Z_ENT \(number), which the model does not know")
                }
                // A destination of another entity would be read under the wrong entity's names (or trap on a key it lacks).
                guard entity.isKind(of: destination) else { throw brokenReference(from: id, relationship: relationship, key: key, found: entity) }
                ids.append(NSManagedObjectID(entity: entity, store: store, primaryKey: key))
            }
            return ids
        }
    }

    /// The bytes of an externally stored value: `.<StoreName>_SUPPORT/_EXTERNAL_DATA/<reference>` beside the store.
    func externalData(reference: String) throws -> Data {
        guard let url else { throw CoreDataError(.persistentStoreOperation, "an in-memory store keeps no external data") }
        guard !reference.contains("/"), !reference.contains(".."), !reference.isEmpty else {
            throw CoreDataError(.persistentStoreOperation, "\(url.path): invalid external data reference \"\(reference)\"")
        }
        let file = externalDataDirectory(for: url).appendingPathComponent(reference)
        guard let data = FileManager.default.contents(atPath: file.path) else {
            throw CoreDataError(.persistentStoreOperation, "\(file.path): the externally stored value has gone missing")
        }
        return data
    }

    func externalDataDirectory(for url: URL) -> URL {
        let base = url.deletingPathExtension().lastPathComponent
        return url.deletingLastPathComponent().appendingPathComponent(".\(base)_SUPPORT/_EXTERNAL_DATA", isDirectory: true)
    }

    /// Runs one statement with its bindings, logging it as Core Data's SQL debug levels do and counting it.
    func run<T>(_ sql: String, _ bindings: [SQLiteValue], _ body: (Statement) throws -> T) throws -> T {
        SQLDebugLog.statement(sql, bindings: bindings, store: url?.path)
        let start = ContinuousClock.now
        do {
            let (statement, cached) = try fetchStatements.checkOut(sql, on: connection)
            defer { fetchStatements.checkIn(statement, cached: cached) }
            try statement.bind(bindings)
            let result = try body(statement)
            let steps = statement.statusCounter(.virtualMachineSteps, reset: true)
            let elapsed = ContinuousClock.now - start
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            let rows = (result as? any RowCounted)?.rowCount ?? 1
            SQLDebugLog.finished(rows: rows, seconds: seconds, store: url?.path)
            persistentStoreCoordinator?.statistics.record { counts in
                counts.rowsFetched += rows
                counts.statements += 1
                counts.virtualMachineSteps += steps
                counts.lastFetchDuration = seconds
                counts.lastFetchRowCount = rows
            }
            return result
        } catch let error as SQLiteError {
            throw CoreDataError(.sqlite, "\(url?.path ?? "store"): \(error.description)", underlyingError: error)
        }
    }
}

/// Results that know how many rows they hold, for the SQL log and the statistics.
protocol RowCounted {
    var rowCount: Int { get }
}

/// How many rows a fetch handed on one by one.
struct FetchedRowCount: RowCounted {
    var rowCount = 0
}

extension Array: RowCounted {
    var rowCount: Int { count }
}

extension Dictionary: RowCounted {
    var rowCount: Int { count }
}

extension FetchWindow: RowCounted {
    var rowCount: Int { rows.count }
}
