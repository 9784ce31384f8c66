import CoreDataModel
import CoreDataSQLiteFormat
import Predicates
import SQLiteDatabase

extension NSSQLiteStore {
    /// One window of a fetch, `limit` rows from `start`, with property values, in the fetch's order.
    public func fetchWindow(_ fetch: ResolvedFetch, start: FetchWindowStart, limit: Int) throws -> FetchWindow {
        let plan = try selectPlan(for: fetch.entity)
        // A text sort by bytes where they give compare:'s order: SQLite's own speed, and the column's index.
        let query = try sortingTextBinaryWhereSafe(statement(for: fetch))
        // Every compiled sort term (collations included) can be continued by keyset; Z_PK is the last term.
        let position: FetchStatement.WindowStart
        switch start {
        case .offset(let offset): position = .offset(offset)
        case .fromEnd(let offset): position = .fromEnd(offset)
        case .after(let boundary): position = .beyond(keys: boundary.keys, primaryKey: boundary.primaryKey, after: true)
        case .before(let boundary): position = .beyond(keys: boundary.keys, primaryKey: boundary.primaryKey, after: false)
        }
        let window = query.window(plan.selectList, start: position, limit: limit)
        let decoder = rowDecoder(plan: plan, withValues: true)
        var result = try run(window.sql, window.bindings) { statement in
            var rows: [FetchedRow] = []
            var boundaries: [SortBoundary] = []
            try statement.forEachRow { row in
                rows.append(try decoder.decode(row))
                boundaries.append(SortBoundary(keys: window.keyColumns.map { row.value(at: $0) }, primaryKey: row.int64(at: 0)))
            }
            return FetchWindow(rows: rows, first: boundaries.first, last: boundaries.last)
        }
        if window.reversed {
            result.rows.reverse()
            (result.first, result.last) = (result.last, result.first)
        }
        return result
    }
}
