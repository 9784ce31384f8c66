import CoreDataModel
import Predicates

/// A fetch request resolved against the model and stripped of its result type: what a store executes
/// (``RowStore``).
public struct ResolvedFetch {
    /// The entity fetched; with ``includesSubentities``, its subentities' objects too.
    public var entity: NSEntityDescription
    /// The predicate's syntax tree, or nil for every object.
    public var predicate: PredicateNode?
    /// The order; rows that tie (and fetches without descriptors) go by primary key.
    public var sortDescriptors: [Predicates.NSSortDescriptor]
    /// At most this many rows; 0 for no limit.
    public var fetchLimit: Int
    /// Rows skipped first.
    public var fetchOffset: Int
    public var includesSubentities: Bool
    /// Whether rows carry snapshots, or only object IDs.
    public var includesPropertyValues: Bool

    /// A fetch of `entity` with the request's defaults: no predicate, no order, no window, subentities and values.
    public init(entity: NSEntityDescription, predicate: PredicateNode? = nil, sortDescriptors: [Predicates.NSSortDescriptor] = [],
                fetchLimit: Int = 0, fetchOffset: Int = 0, includesSubentities: Bool = true, includesPropertyValues: Bool = true) {
        self.entity = entity
        self.predicate = predicate
        self.sortDescriptors = sortDescriptors
        self.fetchLimit = fetchLimit
        self.fetchOffset = fetchOffset
        self.includesSubentities = includesSubentities
        self.includesPropertyValues = includesPropertyValues
    }

    init<Result>(_ request: NSFetchRequest<Result>, entity: NSEntityDescription) {
        self.entity = entity
        self.predicate = request.predicate?.predicateNode
        self.sortDescriptors = request.sortDescriptors ?? []
        self.fetchLimit = request.fetchLimit
        self.fetchOffset = request.fetchOffset
        self.includesSubentities = request.includesSubentities
        self.includesPropertyValues = request.includesPropertyValues
    }
}

/// One row of a fetch: the object's ID, and its snapshot when property values were fetched.
public struct FetchedRow {
    public var objectID: NSManagedObjectID
    public var snapshot: Snapshot?

    public init(objectID: NSManagedObjectID, snapshot: Snapshot?) {
        self.objectID = objectID
        self.snapshot = snapshot
    }
}

/// The columns of a dictionary fetch: properties or expressions, grouping, `HAVING` and `DISTINCT`.
public struct DictionaryShape {
    /// One column: a property of the entity, a key path through to-one relationships, or an expression (an aggregate
    /// such as `sum:(amount)`, or a key path) with the attribute type of its result.
    public enum Column {
        case property(NSPropertyDescription)
        case keyPath(name: String, path: String)
        case expression(name: String, expression: ExpressionNode, resultType: NSAttributeType)

        /// The key the column has in each result.
        public var name: String {
            switch self {
            case .property(let property): return property.name
            case .keyPath(let name, _): return name
            case .expression(let name, _, _): return name
            }
        }
    }

    /// `propertiesToFetch` (every stored attribute when the request names none).
    public var columns: [Column]
    /// `propertiesToGroupBy`.
    public var groupBy: [Column]
    /// `havingPredicate`, evaluated on the grouped rows.
    public var having: PredicateNode?
    /// `returnsDistinctResults`.
    public var distinct: Bool
}
