import CoreDataModel
import CoreDataSQLiteFormat
import Predicates
import SQLiteDatabase

/// Where a window of a batched fetch starts: after an offset, after or before a known row (keyset), or at an
/// offset from the end (the order reversed).
enum FetchWindowStart {
    case offset(Int)
    case after(SortBoundary)
    case before(SortBoundary)
    case fromEnd(Int)
}

/// The sort-key values and primary key of one row, as stored: where a keyset window continues.
struct SortBoundary {
    var keys: [SQLiteValue]
    var primaryKey: Int64
}

/// Rows of a window and the boundaries of its first and last rows.
struct FetchWindow {
    var rows: [FetchedRow]
    var first: SortBoundary?
    var last: SortBoundary?
}

extension NSSQLiteStore {
    /// One window of a fetch, `limit` rows from `start`, with property values, in the fetch's order.
    func fetchWindow(_ fetch: ResolvedFetch, start: FetchWindowStart, limit: Int) throws -> FetchWindow {
        let plan = try selectPlan(for: fetch.entity)
        var query = try FetchQuery(store: self, fetch: fetch, table: plan.table)
        // Every compiled sort term (collations included) can be continued by keyset; Z_PK is the last term.
        let keyset = query.orderTerms.dropLast().map { (column: $0.sql, ascending: $0.ascending) }
        let sortColumns = keyset.map(\.column)
        let selectList = plan.keyColumns(alias: "t0") + plan.valueColumns(alias: "t0") + sortColumns
        let keyOffset = 3 + plan.columns.count
        var reversed = false
        var extra = ""
        var extraBindings: [SQLiteValue] = []
        switch start {
        case .offset(let offset):
            query.limitClause = " LIMIT \(limit)" + (offset > 0 ? " OFFSET \(offset)" : "")
        case .fromEnd(let offset):
            reversed = true
            query.limitClause = " LIMIT \(limit)" + (offset > 0 ? " OFFSET \(offset)" : "")
        case .after(let boundary), .before(let boundary):
            if case .before = start { reversed = true }
            let condition = Self.keysetCondition(keyset, boundary, after: !reversed)
            extra = condition.sql
            extraBindings = condition.bindings
            query.limitClause = " LIMIT \(limit)"
        }
        var whereClause = query.whereClause
        if !extra.isEmpty { whereClause += (whereClause.isEmpty ? " WHERE " : " AND ") + "(\(extra))" }
        let sql = "SELECT \(selectList.joined(separator: ", ")) FROM \(plan.table.sqlName) t0\(query.joins)\(whereClause)\(query.orderBy(reversed: reversed))\(query.limitClause)"
        let decoder = rowDecoder(plan: plan, withValues: true)
        var window = try run(sql, query.bindings + extraBindings) { statement in
            var rows: [FetchedRow] = []
            var boundaries: [SortBoundary] = []
            try statement.forEachRow { row in
                rows.append(try decoder.decode(row))
                boundaries.append(SortBoundary(keys: sortColumns.indices.map { row.value(at: keyOffset + $0) }, primaryKey: row.int64(at: 0)))
            }
            return FetchWindow(rows: rows, first: boundaries.first, last: boundaries.last)
        }
        if reversed {
            window.rows.reverse()
            (window.first, window.last) = (window.last, window.first)
        }
        return window
    }

    /// Rows strictly after (or before) `boundary` in the fetch's order. SQLite sorts NULL first, so NULL is the
    /// smallest value: in ascending order everything non-NULL follows it, in descending order NULLs come last.
    static func keysetCondition(_ keys: [(column: String, ascending: Bool)], _ boundary: SortBoundary, after: Bool)
        -> (sql: String, bindings: [SQLiteValue])
    {
        var alternatives: [String] = []
        var bindings: [SQLiteValue] = []
        var equalities: [String] = []
        var equalityBindings: [SQLiteValue] = []
        for (index, key) in keys.enumerated() {
            let value = boundary.keys[index]
            // "Beyond" in the walking direction: after in ascending order is greater; reversing flips it.
            let greater = key.ascending == after
            var beyond: String?
            var beyondBindings: [SQLiteValue] = []
            if value.isNull {
                beyond = greater ? "\(key.column) IS NOT NULL" : nil
            } else {
                beyond = greater ? "\(key.column) > ?" : "(\(key.column) < ? OR \(key.column) IS NULL)"
                beyondBindings = [value]
            }
            if let beyond {
                alternatives.append((equalities + [beyond]).joined(separator: " AND "))
                bindings += equalityBindings + beyondBindings
            }
            equalities.append("\(key.column) IS ?")
            equalityBindings.append(value)
        }
        alternatives.append((equalities + ["t0.Z_PK \(after ? ">" : "<") ?"]).joined(separator: " AND "))
        bindings += equalityBindings + [.integer(boundary.primaryKey)]
        return (alternatives.map { "(\($0))" }.joined(separator: " OR "), bindings)
    }
}
