import CoreDataModel
import SQLiteDatabase

/// Every statement a store runs on Core Data's SQLite layout, built in one place.
///
/// The SQLite store, the browser's background counts and the predicate compiler ask this builder for their SQL,
/// so the entity filter (`Z_ENT`), the join-table column that holds each side's keys and the quoting of names
/// are each decided once (DECISIONS #4). Statements come back as text with `?` placeholders; stores prepare
/// each once per plan and bind per row. Names come only from the layout, written through
/// ``StoreLayout/sqlIdentifier(_:)``; every value is a binding, except entity numbers, which come from the layout
/// and are written inline where the planner can use the `Z_ENT` index.
package struct StoreSQL: Sendable {
    package let layout: StoreLayout
    /// Compiles predicates and sort descriptors for fetches (``fetch(entityName:predicate:sortDescriptors:includesSubentities:limit:offset:columns:)``).
    package let compiler: PredicateSQLCompiler

    package init(model: NSManagedObjectModel) {
        compiler = PredicateSQLCompiler(model: model)
        layout = compiler.layout
    }

    /// `name` as SQL (see ``StoreLayout/sqlIdentifier(_:)``).
    @inline(__always)
    package static func name(_ name: String) -> String { SQLFragment.identifier(name) }

    /// `n` placeholders separated by commas, for `IN (…)` lists.
    package static func placeholders(_ count: Int) -> String {
        var text = ""
        text.reserveCapacity(count * 3)
        for index in 0..<count { text += index == 0 ? "?" : ", ?" }
        return text
    }

    // MARK: Entity filter

    /// When a fetch's rows need a `Z_ENT` test.
    package enum EntityFilterPolicy: Sendable {
        /// Whenever the table holds more than one entity, even for a fetch of its whole tree: rows whose `Z_ENT`
        /// the model does not know (a damaged store) are then left out, never decoded. The store's reads.
        case wholeTreeToo
        /// Only when the fetched entities are fewer than the table holds: the predicate compiler's fetches and
        /// counts, where the shortest statement is the clearest (`predicate --sql`) and an index scan suffices.
        case narrowerOnly
    }

    /// `alias.Z_ENT = n` or `alias.Z_ENT BETWEEN first AND last` for the rows of `entityName` (and its
    /// subentities when `includesSubentities`), or nil when `policy` needs none. The one entity filter.
    package func entityFilter(alias: String, entityName: String, includesSubentities: Bool = true,
                              policy: EntityFilterPolicy) -> String? {
        Self.entityFilter(layout: layout, alias: alias, entityName: entityName, includesSubentities: includesSubentities, policy: policy)
    }

    /// ``entityFilter(alias:entityName:includesSubentities:policy:)`` over `layout` (for the predicate compiler,
    /// which holds a layout of its own).
    static func entityFilter(layout: StoreLayout, alias: String, entityName: String, includesSubentities: Bool = true,
                             policy: EntityFilterPolicy) -> String? {
        guard let numbers = layout.numbering.range(of: entityName) else { return nil }
        let own = includesSubentities ? numbers : numbers.lowerBound...numbers.lowerBound
        let rootNumbers = layout.table(forEntity: entityName).flatMap { layout.numbering.range(of: $0.rootEntityName) }
        switch policy {
        case .wholeTreeToo:
            guard let rootNumbers, rootNumbers.count > 1 else { return nil }
        case .narrowerOnly:
            guard own != rootNumbers else { return nil }
        }
        return Self.entityCondition(alias: alias, numbers: own)
    }

    /// `alias.Z_ENT = n` or `alias.Z_ENT BETWEEN first AND last`.
    static func entityCondition(alias: String, numbers: ClosedRange<Int>) -> String {
        numbers.count == 1
            ? "\(alias).Z_ENT = \(numbers.lowerBound)"
            : "\(alias).Z_ENT BETWEEN \(numbers.lowerBound) AND \(numbers.upperBound)"
    }

    // MARK: Selected columns

    /// `alias.Z_PK`, `alias.Z_ENT` (or `soleEntityNumber` as a constant, as Core Data's SQL selects `0` for a
    /// table of one entity) and `alias.Z_OPT`: the first three columns of every select of objects.
    package static func keyColumns(alias: String, soleEntityNumber: Int?) -> [String] {
        ["\(alias).Z_PK", soleEntityNumber.map(String.init) ?? "\(alias).Z_ENT", "\(alias).Z_OPT"]
    }

    /// `columns` of the table aliased `alias`, as SQL.
    package static func columns(_ columns: [String], alias: String) -> [String] {
        columns.map { column($0, alias: alias) }
    }

    /// `alias.column`, as SQL.
    package static func column(_ column: String, alias: String) -> String {
        "\(alias).\(name(column))"
    }

    // MARK: Reads by primary key

    /// `SELECT <selectList> FROM <table> t0 WHERE t0.Z_PK IN (?, …)` for `count` keys: batch faulting.
    package func rowsByKey(table: EntityTable, selectList: [String], count: Int) -> String {
        "SELECT \(selectList.joined(separator: ", ")) FROM \(table.sqlName) t0 WHERE t0.Z_PK IN (\(Self.placeholders(count)))"
    }

    /// `SELECT Z_PK, Z_OPT FROM <table> WHERE Z_PK IN (?, …)`: versions of rows a save never read.
    package func versions(table: EntityTable, count: Int) -> String {
        "SELECT Z_PK, Z_OPT FROM \(table.sqlName) WHERE Z_PK IN (\(Self.placeholders(count)))"
    }

    /// `SELECT <column> FROM <table> WHERE Z_PK = ?` for a key column (`Z_OPT`, `Z_ENT`).
    package func keyColumn(_ column: KeyColumn, table: EntityTable) -> String {
        "SELECT \(column.rawValue) FROM \(table.sqlName) WHERE Z_PK = ?"
    }

    /// The columns every entity table has.
    package enum KeyColumn: String, Sendable {
        case entity = "Z_ENT"
        case version = "Z_OPT"
    }

    /// `SELECT <columns> FROM <table> WHERE Z_PK = ?`: one row's columns (external data references before a save).
    package func columns(_ columns: [String], ofRowIn table: EntityTable) -> String {
        "SELECT \(columns.map(Self.name).joined(separator: ", ")) FROM \(table.sqlName) WHERE Z_PK = ?"
    }

    // MARK: Counts

    /// `SELECT Z_ENT, count(*) FROM <table> GROUP BY Z_ENT`: the rows of each entity of a table.
    package static func rowCountsByEntity(table: EntityTable) -> String {
        "SELECT Z_ENT, count(*) FROM \(table.sqlName) GROUP BY Z_ENT"
    }

    // MARK: Store bookkeeping

    /// `SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?`: the last primary key of an inheritance tree.
    package static let lastPrimaryKey = "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?"
    /// `UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?`: advances it.
    package static let advancePrimaryKey = "UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?"
    /// `UPDATE Z_METADATA SET Z_UUID = ?, Z_PLIST = ?`: the store's metadata row.
    package static let writeMetadata = "UPDATE Z_METADATA SET Z_UUID = ?, Z_PLIST = ?"

    /// Which of `names` are tables of the store: `SELECT name FROM sqlite_master WHERE type = 'table' AND name IN (…)`.
    package static func existingTables(count: Int) -> String {
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name IN (\(placeholders(count)))"
    }
}
