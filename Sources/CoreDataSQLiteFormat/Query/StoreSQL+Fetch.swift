import CoreDataModel
import Predicates
import SQLiteDatabase

/// A fetch of one entity's rows as a store runs it: `FROM <table> t0`, the joins its predicate and sort need, the
/// entity filter, the predicate, the order (the primary key last, so the order is total and pages never overlap)
/// and the limits, with every constant bound. Its statements select what the store asks for: objects, a count,
/// a window, dictionary columns.
package struct FetchStatement: Sendable {
    /// The fetched table, as SQL.
    package var table: String
    /// `LEFT JOIN`s, each with a leading space.
    package var joins: String
    /// ` WHERE …` (the entity filter and the predicate), or empty.
    package var whereClause: String
    /// The values of the predicate's placeholders, in order.
    package var bindings: [SQLiteValue]
    /// The sort terms, `t0.Z_PK` last.
    package var orderTerms: [(sql: String, ascending: Bool)]
    package var limit: Int
    package var offset: Int
    /// The SQL of each key path column asked for (dictionary results), sharing the joins.
    package var columnTerms: [String]

    /// The sort terms without the primary key: the columns a keyset window continues from.
    package var keysetTerms: [(sql: String, ascending: Bool)] { Array(orderTerms.dropLast()) }

    /// ` LIMIT n OFFSET m`, ` LIMIT -1 OFFSET m` or nothing.
    package var limitClause: String { Self.limitClause(limit: limit, offset: offset) }

    static func limitClause(limit: Int, offset: Int) -> String {
        if limit > 0 { return " LIMIT \(limit)" + (offset > 0 ? " OFFSET \(offset)" : "") }
        return offset > 0 ? " LIMIT -1 OFFSET \(offset)" : ""
    }

    /// ` ORDER BY …`, or the same order reversed (windows read from the end).
    package func orderBy(reversed: Bool = false, includingPrimaryKey: Bool = true) -> String {
        let terms = includingPrimaryKey ? orderTerms : orderTerms.filter { $0.sql != "t0.Z_PK" }
        guard !terms.isEmpty else { return "" }
        return " ORDER BY " + terms.map { "\($0.sql) \($0.ascending != reversed ? "ASC" : "DESC")" }.joined(separator: ", ")
    }

    /// `SELECT <selectList> FROM …` in the fetch's order and limits: a fetch of objects or IDs.
    package func select(_ selectList: [String]) -> String {
        "SELECT \(selectList.joined(separator: ", ")) FROM \(table) t0\(joins)\(whereClause)\(orderBy())\(limitClause)"
    }

    /// `SELECT COUNT(*)` of the rows the fetch returns (its limits applied, through a subquery when it has them).
    package func count() -> String {
        guard limit > 0 || offset > 0 else { return "SELECT COUNT(*) FROM \(table) t0\(joins)\(whereClause)" }
        return "SELECT COUNT(*) FROM (SELECT t0.Z_PK FROM \(table) t0\(joins)\(whereClause)\(limitClause))"
    }

    /// Where a window of a batched fetch starts.
    package enum WindowStart: Sendable {
        case offset(Int)
        /// At an offset from the end: the order is reversed, so the rows come back last first.
        case fromEnd(Int)
        /// Strictly after (`after: true`) or before a row, given its sort-key values and primary key (keyset).
        case beyond(keys: [SQLiteValue], primaryKey: Int64, after: Bool)
    }

    /// A window of `limit` rows from `start`, selecting `selectList` then the keyset terms not already in it (the
    /// row's boundary, at `keyColumns`), and whether its rows come back in reverse order. Bindings: the fetch's,
    /// then the keyset's. A sort column selected twice would be carried twice through SQLite's sorter.
    package func window(_ selectList: [String], start: WindowStart, limit: Int)
        -> (sql: String, bindings: [SQLiteValue], reversed: Bool, keyColumns: [Int])
    {
        let keyset = keysetTerms
        var selected = selectList
        var keyColumns: [Int] = []
        for term in keyset {
            if let index = selectList.firstIndex(of: term.sql) {
                keyColumns.append(index)
            } else {
                keyColumns.append(selected.count)
                selected.append(term.sql)
            }
        }
        let columns = selected.joined(separator: ", ")
        var whereClause = self.whereClause
        var bindings = self.bindings
        let reversed: Bool
        let limitClause: String
        switch start {
        case .offset(let offset), .fromEnd(let offset):
            if case .fromEnd = start { reversed = true } else { reversed = false }
            limitClause = " LIMIT \(limit)" + (offset > 0 ? " OFFSET \(offset)" : "")
        case .beyond(let keys, let primaryKey, let after):
            reversed = !after
            let condition = Self.keysetCondition(keyset, keys: keys, primaryKey: primaryKey, after: after)
            whereClause += (whereClause.isEmpty ? " WHERE " : " AND ") + "(\(condition.sql))"
            bindings += condition.bindings
            limitClause = " LIMIT \(limit)"
        }
        return ("SELECT \(columns) FROM \(table) t0\(joins)\(whereClause)\(orderBy(reversed: reversed))\(limitClause)", bindings, reversed,
                keyColumns)
    }

    /// Rows strictly after (or before) a row in the fetch's order. SQLite sorts NULL first, so NULL is the smallest
    /// value: in ascending order everything non-NULL follows it, in descending order NULLs come last.
    static func keysetCondition(_ terms: [(sql: String, ascending: Bool)], keys: [SQLiteValue], primaryKey: Int64, after: Bool)
        -> (sql: String, bindings: [SQLiteValue])
    {
        var alternatives: [String] = []
        var bindings: [SQLiteValue] = []
        var equalities: [String] = []
        var equalityBindings: [SQLiteValue] = []
        for (index, term) in terms.enumerated() {
            let value = keys[index]
            // "Beyond" in the walking direction: after in ascending order is greater; reversing flips it.
            let greater = term.ascending == after
            var beyond: String?
            var beyondBindings: [SQLiteValue] = []
            if value.isNull {
                beyond = greater ? "\(term.sql) IS NOT NULL" : nil
            } else {
                beyond = greater ? "\(term.sql) > ?" : "(\(term.sql) < ? OR \(term.sql) IS NULL)"
                beyondBindings = [value]
            }
            if let beyond {
                alternatives.append((equalities + [beyond]).joined(separator: " AND "))
                bindings += equalityBindings + beyondBindings
            }
            equalities.append("\(term.sql) IS ?")
            equalityBindings.append(value)
        }
        alternatives.append((equalities + ["t0.Z_PK \(after ? ">" : "<") ?"]).joined(separator: " AND "))
        bindings += equalityBindings + [.integer(primaryKey)]
        let condition = alternatives.map { "(\($0))" }.joined(separator: " OR ")
        // Walking up from a value, every row beyond is at least that value: said outright, the first sort column's
        // index is searched from there in order, where the OR alone makes SQLite gather every row beyond and sort.
        if let first = terms.first, first.ascending == after, !keys[0].isNull {
            return ("\(first.sql) >= ? AND (\(condition))", [keys[0]] + bindings)
        }
        return (condition, bindings)
    }

    /// Dictionary results: `SELECT [DISTINCT] <columns> FROM … [GROUP BY …]`, ordered (by the primary key too
    /// unless grouped or distinct, whose rows have no single key) and limited.
    package func dictionaries(_ columns: [String], distinct: Bool, groupBy: [String]) -> String {
        var sql = "SELECT \(distinct ? "DISTINCT " : "")\(columns.joined(separator: ", ")) FROM \(table) t0\(joins)\(whereClause)"
        if !groupBy.isEmpty { sql += " GROUP BY " + groupBy.joined(separator: ", ") }
        return sql + orderBy(includingPrimaryKey: groupBy.isEmpty && !distinct) + limitClause
    }
}

extension StoreSQL {
    /// The fetch of `entityName`'s rows (and its subentities' when `includesSubentities`) matching `predicate`,
    /// in the order of `sortDescriptors`, with `columns` key paths compiled for dictionary results. The entity
    /// filter is the store's (``EntityFilterPolicy/wholeTreeToo``).
    package func fetch(entityName: String, predicate: PredicateNode?, sortDescriptors: [Predicates.NSSortDescriptor],
                       includesSubentities: Bool, limit: Int = 0, offset: Int = 0, columns: [String] = [])
        throws(PredicateSQLError) -> FetchStatement
    {
        let format = predicate?.predicateFormat ?? "TRUEPREDICATE"
        guard let table = layout.table(forEntity: entityName) else {
            throw PredicateSQLError(construct: "entity", constructFormat: entityName, predicateFormat: format,
                                    reason: "the model has no entity named '\(entityName)'")
        }
        let clauses = try compiler.clauses(entityName: entityName, predicate: predicate, sortDescriptors: sortDescriptors,
                                           columns: columns)
        var conditions: [String] = []
        if let filter = entityFilter(alias: "t0", entityName: entityName, includesSubentities: includesSubentities,
                                     policy: .wholeTreeToo) {
            conditions.append(filter)
        }
        if let condition = clauses.condition { conditions.append("(\(condition))") }
        return FetchStatement(
            table: table.sqlName, joins: clauses.joins,
            whereClause: conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND "),
            bindings: clauses.condition == nil ? [] : clauses.conditionBindings,
            orderTerms: clauses.orderTerms + [("t0.Z_PK", true)],
            limit: limit, offset: offset, columnTerms: clauses.columnTerms)
    }
}
