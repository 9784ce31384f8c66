import CoreDataModel
import Predicates
import SQLiteDatabase

/// Compiles fetches — an entity, a predicate, sort descriptors — to SQLite SQL against Core Data's store layout.
///
/// ```swift
/// let compiler = PredicateSQLCompiler(model: model)
/// let query = try compiler.fetch(
///     entityName: "Person", predicate: NSPredicate(format: "name BEGINSWITH[cd] %@", "zoë").predicateNode,
///     sortDescriptors: [NSSortDescriptor(key: "name", ascending: true)])
/// try PredicateSQLFunctions.register(on: connection)
/// let rows = try connection.query(query.sql, arguments: query.bindings)
/// ```
///
/// Guarantees:
/// - Every constant of the predicate reaches SQLite as a bound parameter; identifiers come only from the layout.
/// - The rows selected are exactly those for which ``PredicateEvaluator`` accepts the same predicate on the same
///   objects held as dictionaries. String operators with options, `LIKE`, `MATCHES` and string ordering call
///   ``PredicateSQLFunctions``, which run the evaluator's own code.
/// - What SQL cannot express with those semantics is refused with a ``PredicateSQLError``.
public struct PredicateSQLCompiler: Sendable {
    /// What a compiled fetch returns.
    public enum Selection: Sendable, Hashable {
        /// `Z_PK`, `Z_ENT`, `Z_OPT` and the columns of the entity (and of its subentities when they are included).
        case objects
        /// `Z_PK` and `Z_ENT` only.
        case primaryKeys
        /// `COUNT(*)`.
        case count
    }

    public let model: NSManagedObjectModel
    public let layout: StoreLayout

    /// A compiler for stores of `model`, laid out as Core Data lays it out.
    public init(model: NSManagedObjectModel) {
        self.model = model
        self.layout = StoreLayout(model: model)
    }

    /// Compiles a fetch of `entityName` objects matching `predicate` (all of them for nil), in the order of
    /// `sortDescriptors`.
    ///
    /// - Parameter includesSubentities: whether objects of subentities match too, as
    ///   `NSFetchRequest.includesSubentities`.
    public func fetch(
        entityName: String, predicate: PredicateNode?, sortDescriptors: [Predicates.NSSortDescriptor] = [],
        includesSubentities: Bool = true, selection: Selection = .objects
    ) throws(PredicateSQLError) -> SQLQuery {
        let format = predicate?.predicateFormat ?? "TRUEPREDICATE"
        guard let entity = model.entitiesByName[entityName], let table = layout.table(forEntity: entityName),
              let numbers = layout.numbering.range(of: entityName)
        else {
            throw PredicateSQLError(
                construct: "entity", constructFormat: entityName, predicateFormat: format,
                reason: "the model has no entity named '\(entityName)'")
        }
        let compilation = PredicateCompilation(layout: layout, model: model, rootEntity: entity, predicateFormat: format)
        let condition = try predicate.map { node throws(PredicateSQLError) in try compilation.compile(node) }
        // A count has no order, and needs no join for one.
        let ordering = selection == .count ? nil : try compilation.orderBy(sortDescriptors)

        let ownNumbers = includesSubentities ? numbers : numbers.lowerBound...numbers.lowerBound
        let columns = resultColumns(of: table, entity: entity, entityNumbers: ownNumbers, selection: selection)
        let root = compilation.root
        let selected = selection == .count ? columns : columns.map { "\(root.alias).\(SQLFragment.identifier($0))" }
        var statement = SQLFragment(
            "SELECT " + selected.joined(separator: ", ") + " FROM \(SQLFragment.identifier(table.name)) \(root.alias)" + root.joinClause)
        var conditions: [SQLFragment] = []
        // No Z_ENT test when the fetched entities are all the table holds.
        if let filter = StoreSQL.entityFilter(layout: layout, alias: root.alias, entityName: entityName,
                                              includesSubentities: includesSubentities, policy: .narrowerOnly) {
            conditions.append(SQLFragment(filter))
        }
        if let condition, condition.fragment.sql != "1" { conditions.append(condition.fragment.parenthesized) }
        if !conditions.isEmpty { statement = statement + " WHERE " + SQLFragment.joined(conditions, separator: " AND ") }
        if let ordering { statement = statement + " ORDER BY " + ordering }
        return SQLQuery(sql: statement.sql, bindings: statement.bindings, resultColumns: columns)
    }

    /// Compiles a fetch from an ``NSPredicate``.
    public func fetch(
        entityName: String, predicate: Predicates.NSPredicate, sortDescriptors: [Predicates.NSSortDescriptor] = [],
        includesSubentities: Bool = true, selection: Selection = .objects
    ) throws(PredicateSQLError) -> SQLQuery {
        try fetch(
            entityName: entityName, predicate: predicate.predicateNode, sortDescriptors: sortDescriptors,
            includesSubentities: includesSubentities, selection: selection)
    }

    /// The least string greater than every string that starts with `prefix`: the prefix with its last code point
    /// incremented (skipping the surrogate range), dropping trailing U+10FFFF; nil when there is none.
    ///
    /// `BEGINSWITH` without options compiles to `column >= prefix AND column < successor`, a range an index serves.
    public static func prefixSuccessor(_ prefix: String) -> String? {
        var scalars = Array(prefix.unicodeScalars)
        while let last = scalars.popLast() {
            var next = last.value + 1
            if next == 0xD800 { next = 0xE000 }
            if let successor = Unicode.Scalar(next) {
                scalars.append(successor)
                var result = String.UnicodeScalarView()
                result.append(contentsOf: scalars)
                return String(result)
            }
        }
        return nil
    }

    /// The columns an object fetch reads: the bookkeeping columns, then the table's columns that belong to the
    /// entity, its ancestors and (when included) its descendants, in table order.
    private func resultColumns(
        of table: EntityTable, entity: NSEntityDescription, entityNumbers: ClosedRange<Int>, selection: Selection
    ) -> [String] {
        switch selection {
        case .count: return ["COUNT(*)"]
        case .primaryKeys: return ["Z_PK", "Z_ENT"]
        case .objects: break
        }
        var owners = Set<String>()
        var ancestor: NSEntityDescription? = entity
        while let current = ancestor { owners.insert(current.entityName); ancestor = current.superentity }
        for name in layout.numbering.namesInNumberOrder where entityNumbers.contains(layout.numbering[name] ?? 0) {
            owners.insert(name)
        }
        var columns = ["Z_PK", "Z_ENT", "Z_OPT"]
        for column in table.columns {
            switch column.role {
            case .attribute(let owner, _), .toOneKey(let owner, _), .toOneEntityNumber(let owner, _),
                 .toOneOrderKey(let owner, _):
                if owners.contains(owner) { columns.append(column.name) }
            case .primaryKey, .entityNumber, .optimisticLockVersion:
                continue
            }
        }
        return columns
    }
}

/// The state of one compilation: aliases handed out, the root scope and its joins, the `SUBQUERY` variables in
/// scope, and the running cost estimate used to put cheap tests first.
final class PredicateCompilation {
    let layout: StoreLayout
    let model: NSManagedObjectModel
    let root: QueryScope
    /// The canonical format of the predicate, for locating refused constructs.
    let predicateFormat: String
    /// Scopes of the `SUBQUERY` variables being compiled.
    var variables: [String: QueryScope] = [:]
    /// A rough cost of the SQL generated so far (functions, subqueries), compared between sibling terms.
    var cost = 0
    private var aliasCount = 0

    init(layout: StoreLayout, model: NSManagedObjectModel, rootEntity: NSEntityDescription, predicateFormat: String) {
        self.layout = layout
        self.model = model
        self.predicateFormat = predicateFormat
        self.root = QueryScope(entity: rootEntity, alias: "t0")
    }

    func newAlias() -> String {
        aliasCount += 1
        return "t\(aliasCount)"
    }

    func refusal(_ construct: String, _ format: String, _ reason: String) -> PredicateSQLError {
        PredicateSQLError(construct: construct, constructFormat: format, predicateFormat: predicateFormat, reason: reason)
    }

    /// The entity restriction needed for rows of `entity` in its table (``StoreSQL``'s entity filter): none when
    /// the entity's subtree is the whole table.
    func entityRestriction(alias: String, entity: NSEntityDescription) -> String? {
        StoreSQL.entityFilter(layout: layout, alias: alias, entityName: entity.entityName, policy: .narrowerOnly)
    }

    // MARK: Predicates

    /// A compiled condition and its estimated cost.
    struct Condition {
        var fragment: SQLFragment
        var cost: Int
    }

    /// Compiles a predicate to a condition that is true exactly when the evaluator says true; it may be NULL
    /// where the evaluator says false (SQL's NULL-as-unknown is absorbed by `AND`/`OR` and turned into true by
    /// `NOT`'s `IS NOT 1`).
    func compile(_ predicate: PredicateNode) throws(PredicateSQLError) -> Condition {
        let start = cost
        let fragment: SQLFragment
        switch predicate {
        case .constant(let value):
            fragment = value ? .alwaysTrue : .alwaysFalse
        case .comparison(let comparison):
            fragment = try compile(comparison)
        case .and(let subpredicates), .or(let subpredicates):
            let isAnd = if case .and = predicate { true } else { false }
            if subpredicates.isEmpty { fragment = isAnd ? .alwaysTrue : .alwaysFalse; break }
            var terms: [Condition] = []
            for subpredicate in subpredicates { terms.append(try compile(subpredicate)) }
            // Cheap tests first: SQLite evaluates terms left to right and stops at the first decisive one.
            let ordered = terms.enumerated().sorted { ($0.element.cost, $0.offset) < ($1.element.cost, $1.offset) }
            fragment = SQLFragment.joined(
                ordered.map { $0.element.fragment.parenthesized }, separator: isAnd ? " AND " : " OR ")
        case .not(let subpredicate):
            // IS NOT 1 makes an unknown (NULL) operand true, as the evaluator's false negated.
            fragment = try compile(subpredicate).fragment.parenthesized + " IS NOT 1"
        case .block:
            throw refusal("block predicate", predicate.predicateFormat,
                          "a predicate made from a Swift closure runs only in memory; SQL cannot call it")
        }
        return Condition(fragment: fragment, cost: cost - start)
    }

    // MARK: Sorting

    /// `ORDER BY` terms for sort descriptors on attributes and to-one key paths; strings sort with the collation
    /// that runs the descriptor's own comparison. Nil values sort first ascending and last descending, as
    /// ``Predicates/NSSortDescriptor`` orders them.
    func orderBy(_ descriptors: [Predicates.NSSortDescriptor]) throws(PredicateSQLError) -> String? {
        guard !descriptors.isEmpty else { return nil }
        var terms: [String] = []
        for descriptor in descriptors {
            let format = descriptor.description
            guard let key = descriptor.key else {
                throw PredicateSQLError(
                    construct: "sort descriptor", constructFormat: format, predicateFormat: format,
                    reason: "sorting on SELF has no column; sort on an attribute")
            }
            let operand = try resolve(keyPath: key, in: root, format: format, construct: "sort key")
            guard case .value(let column, let kind) = operand, column.bindings.isEmpty else {
                throw PredicateSQLError(
                    construct: "sort descriptor", constructFormat: format, predicateFormat: format,
                    reason: "'\(key)' crosses a to-many relationship; sort keys must be attributes or to-one paths")
            }
            var term = column.sql
            if kind == .string { term += " COLLATE " + PredicateSQLFunctions.collationName(for: descriptor.comparison) }
            terms.append(term + (descriptor.ascending ? "" : " DESC"))
        }
        return terms.joined(separator: ", ")
    }
}
