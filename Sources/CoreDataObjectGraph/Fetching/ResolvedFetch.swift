import CoreDataModel
import Predicates

/// A fetch request resolved against the model and stripped of its result type: what a store executes.
struct ResolvedFetch {
    var entity: NSEntityDescription
    var predicate: PredicateNode?
    var sortDescriptors: [Predicates.NSSortDescriptor]
    var fetchLimit: Int
    var fetchOffset: Int
    var includesSubentities: Bool
    var includesPropertyValues: Bool

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
struct FetchedRow {
    var objectID: NSManagedObjectID
    var snapshot: Snapshot?
}

/// The columns of a dictionary fetch: properties or expressions, grouping, `HAVING` and `DISTINCT`.
struct DictionaryShape {
    enum Column {
        case property(NSPropertyDescription)
        case keyPath(name: String, path: String)
        case expression(name: String, expression: ExpressionNode, resultType: NSAttributeType)

        var name: String {
            switch self {
            case .property(let property): return property.name
            case .keyPath(let name, _): return name
            case .expression(let name, _, _): return name
            }
        }
    }

    var columns: [Column]
    var groupBy: [Column]
    var having: PredicateNode?
    var distinct: Bool
}
