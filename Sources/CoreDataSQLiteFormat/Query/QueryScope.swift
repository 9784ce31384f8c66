import CoreDataModel
import Predicates

/// One level of a compiled query: a table alias for an entity's rows and the to-one joins hung on it.
///
/// The fetch itself is the root scope (`t0`); each correlated subquery (`ANY`, `ALL`, `@count`, `SUBQUERY`) has its
/// own, so that its joins stay inside its `FROM`.
final class QueryScope {
    let entity: NSEntityDescription
    let alias: String
    /// `LEFT JOIN …` clauses, in the order they were needed.
    private(set) var joins: [String] = []
    /// Join aliases by the relationship path from this scope that they follow (`"owner"`, `"owner.employer"`).
    private var joinAliases: [String: String] = [:]

    init(entity: NSEntityDescription, alias: String) {
        self.entity = entity
        self.alias = alias
    }

    /// The alias joined for `path`, creating the join with `makeJoin(alias)` the first time.
    func joinAlias(forPath path: String, newAlias: () -> String, makeJoin: (String) -> String) -> String {
        if let existing = joinAliases[path] { return existing }
        let alias = newAlias()
        joinAliases[path] = alias
        joins.append(makeJoin(alias))
        return alias
    }

    /// The joins as one string, each preceded by a space.
    var joinClause: String { joins.map { " " + $0 }.joined() }
}

/// What a value in a compiled comparison is, for choosing SQL operators and encoding constants.
enum ValueKind: Hashable, CustomStringConvertible {
    case string
    /// Integers, floating point, decimals and booleans (stored 0/1): compared by numeric value.
    case number
    /// Seconds since 2001-01-01 in a REAL column.
    case date
    case uuid
    case data
    case url
    /// A primary key of a row of the table of the entity tree rooted at `root`.
    case object(root: String)

    init?(_ type: NSAttributeType) {
        switch type {
        case .stringAttributeType: self = .string
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType, .booleanAttributeType,
             .doubleAttributeType, .floatAttributeType, .decimalAttributeType:
            self = .number
        case .dateAttributeType: self = .date
        case .UUIDAttributeType: self = .uuid
        case .binaryDataAttributeType: self = .data
        case .URIAttributeType: self = .url
        case .transformableAttributeType, .undefinedAttributeType, .objectIDAttributeType, .compositeAttributeType:
            return nil
        }
    }

    var isOrdered: Bool { self == .string || self == .number || self == .date }

    var description: String {
        switch self {
        case .string: "string"
        case .number: "number"
        case .date: "date"
        case .uuid: "UUID"
        case .data: "binary data"
        case .url: "URI"
        case .object(let root): "\(root) object"
        }
    }
}

/// A to-many relationship met while resolving a key path: where it starts and what it leads to.
struct ToManyStep {
    /// The alias of the rows that own the relationship (the scope's alias or a to-one join's).
    var ownerAlias: String
    var relationship: NSRelationshipDescription
    var destination: NSEntityDescription
}

/// An operand of a comparison after resolution.
enum Operand {
    /// A scalar SQL expression (a column, a correlated aggregate) and what it holds.
    case value(SQLFragment, ValueKind)
    /// A constant, encoded once the kind it is compared with is known.
    case constant(ConstantValue)
    /// A key path that crosses a to-many relationship; `rest` is the path after it (possibly a collection
    /// operator such as `@sum`, or empty for the related objects themselves).
    case toMany(ToManyStep, rest: [String])
}
