import CoreDataModel
import CoreDataSQLiteFormat
import Predicates
import SQLiteDatabase

/// The clauses of a fetch after `FROM <table> t0`: the entity filter, the predicate, the order and the limits,
/// with every constant as a bound parameter.
struct FetchQuery {
    var joins = ""
    var whereClause = ""
    /// The sort terms, the primary key last: `(expression, ascending)`.
    var orderTerms: [(sql: String, ascending: Bool)] = []
    var limitClause = ""
    var bindings: [SQLiteValue] = []

    /// The SQL of the key path columns asked for (dictionary results), sharing the query's joins.
    var columnTerms: [String] = []

    init(store: NSSQLiteStore, fetch: ResolvedFetch, table: EntityTable, columns: [String] = []) throws {
        var conditions: [String] = []
        let layout = store.layout!
        if let root = fetch.entity.rootEntity as NSEntityDescription?, !root.subentities.isEmpty,
           let number = layout.numbering[fetch.entity.name] {
            if fetch.includesSubentities, let range = layout.numbering.range(of: fetch.entity.name) {
                conditions.append(range.count == 1 ? "t0.Z_ENT = \(number)" : "t0.Z_ENT BETWEEN \(range.lowerBound) AND \(range.upperBound)")
            } else {
                conditions.append("t0.Z_ENT = \(number)")
            }
        }
        let clauses: FetchClauses
        do {
            clauses = try store.compiler.clauses(entityName: fetch.entity.name, predicate: fetch.predicate,
                                                 sortDescriptors: fetch.sortDescriptors, columns: columns)
        } catch {
            throw CoreDataError(.persistentStoreOperation, "the store cannot run this fetch of \(fetch.entity.name):\n\(error.caretDiagnostic)",
                                underlyingError: error)
        }
        joins = clauses.joins
        columnTerms = clauses.columnTerms
        if let condition = clauses.condition {
            conditions.append("(\(condition))")
            bindings += clauses.conditionBindings
        }
        if !conditions.isEmpty { whereClause = " WHERE " + conditions.joined(separator: " AND ") }
        // The primary key breaks ties, so the order is total and pages never overlap.
        orderTerms = clauses.orderTerms + [("t0.Z_PK", true)]
        if fetch.fetchLimit > 0 {
            limitClause = " LIMIT \(fetch.fetchLimit)"
            if fetch.fetchOffset > 0 { limitClause += " OFFSET \(fetch.fetchOffset)" }
        } else if fetch.fetchOffset > 0 {
            limitClause = " LIMIT -1 OFFSET \(fetch.fetchOffset)"
        }
    }

    /// `ORDER BY …`, or the same order reversed (for windows read from the end).
    func orderBy(reversed: Bool = false, includingPrimaryKey: Bool = true) -> String {
        let terms = (includingPrimaryKey ? orderTerms : orderTerms.filter { $0.sql != "t0.Z_PK" })
            .map { "\($0.sql) \($0.ascending != reversed ? "ASC" : "DESC")" }
        return terms.isEmpty ? "" : " ORDER BY " + terms.joined(separator: ", ")
    }
}
