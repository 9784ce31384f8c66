import CoreDataModel
import CoreDataSQLiteFormat
import Foundation
import SQLiteDatabase

extension NSSQLiteStore: RowStore {
    @discardableResult
    public func executeFetch(_ fetch: ResolvedFetch, forEachRow body: (consuming FetchedRow) throws -> Void) throws -> Int {
        let plan = try selectPlan(for: fetch.entity)
        let query = try statement(for: fetch)
        let decoder = rowDecoder(plan: plan, withValues: fetch.includesPropertyValues)
        return try run(query.select(fetch.includesPropertyValues ? plan.selectList : plan.keySelectList), query.bindings) { statement in
            var count = FetchedRowCount()
            try statement.forEachRow { row in
                try body(try decoder.decode(row))
                count.rowCount += 1
            }
            return count
        }.rowCount
    }

    public func executeCount(_ fetch: ResolvedFetch) throws -> Int {
        let query = try statement(for: fetch)
        return try run(query.count(), query.bindings) { statement in
            _ = try statement.step()
            return statement.int(at: 0)
        }
    }

    /// The fetch as the builder states it, with the key path `columns` of a dictionary fetch.
    func statement(for fetch: ResolvedFetch, columns: [String] = []) throws -> FetchStatement {
        do {
            return try builder.fetch(entityName: fetch.entity.entityName, predicate: fetch.predicate, sortDescriptors: fetch.sortDescriptors,
                                 includesSubentities: fetch.includesSubentities, limit: fetch.fetchLimit, offset: fetch.fetchOffset,
                                 columns: columns)
        } catch {
            throw CoreDataError(.persistentStoreOperation, "the store cannot run this fetch of \(fetch.entity.entityName):\n\(error.caretDiagnostic)",
                                underlyingError: error)
        }
    }

    /// Batch faulting: fetches the snapshots of many objects with one `IN` query per entity table.
    public func snapshots(for ids: [NSManagedObjectID]) throws -> [NSManagedObjectID: Snapshot] {
        var result: [NSManagedObjectID: Snapshot] = [:]
        let byRoot = Dictionary(grouping: ids) { $0.entity.rootEntity.entityName }
        for (rootName, group) in byRoot {
            guard let root = model.entitiesByName[rootName] else { continue }
            let plan = try selectPlan(for: root)
            let decoder = rowDecoder(plan: plan, withValues: true)
            // SQLite limits bound parameters; stay well under the default 32,766.
            for chunk in stride(from: 0, to: group.count, by: 500).map({ Array(group[$0..<min($0 + 500, group.count)]) }) {
                let requested = Dictionary(chunk.map { ($0.primaryKey, $0.entity) }, uniquingKeysWith: { first, _ in first })
                try run(builder.rowsByKey(table: plan.table, selectList: plan.selectList, count: chunk.count), chunk.map { .integer($0.primaryKey) }) { statement in
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
    public func destinations(of id: NSManagedObjectID, relationship: NSRelationshipDescription) throws -> [NSManagedObjectID] {
        guard let destination = relationship.destinationEntity, let source = relationship.entity,
              let destinationTable = layout.table(forEntity: destination.entityName) else {
            throw CoreDataError(.persistentStoreOperation, "relationship \(relationship.name) has no destination table")
        }
        guard let text = builder.destinations(of: relationship) else {
            throw CoreDataError(.persistentStoreOperation,
                                "\(source.entityName).\(relationship.name) has no inverse, so the store does not record it in a way we can read")
        }
        return try run(text, [.integer(id.primaryKey)]) { statement in
            var ids: [NSManagedObjectID] = []
            let store = InternedStoreIdentifier.intern(storeIdentifier)
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
    public func externalData(reference: String) throws -> Data {
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
