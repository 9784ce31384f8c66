import CoreDataModel
import Foundation
import Predicates

/// What a fetch request can return: managed objects, object IDs, dictionaries or a count.
public protocol NSFetchRequestResult {}

extension NSManagedObject: NSFetchRequestResult {}
extension NSManagedObjectID: NSFetchRequestResult {}
extension NSNumber: NSFetchRequestResult {}
extension Dictionary: NSFetchRequestResult where Key == String, Value == Any {}
/// Apple's spelling of dictionary results, `NSFetchRequest<NSDictionary>`: Foundation dictionaries built from the
/// same rows as ``FetchedDictionary`` (with Foundation's bridging of every value; `FetchedDictionary` reads faster).
extension NSDictionary: NSFetchRequestResult {}

/// The shape of a fetch's results, with Apple's raw values.
public struct NSFetchRequestResultType: OptionSet, Sendable, Hashable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    public static let managedObjectResultType = NSFetchRequestResultType([])
    public static let managedObjectIDResultType = NSFetchRequestResultType(rawValue: 1)
    public static let dictionaryResultType = NSFetchRequestResultType(rawValue: 2)
    public static let countResultType = NSFetchRequestResultType(rawValue: 4)
}

/// A description of what to fetch from the stores: an entity, a predicate, an order, limits, and the shape of the
/// results. Every option of Apple's `NSFetchRequest` is here; the SQLite store turns them into one query.
open class NSFetchRequest<ResultType: NSFetchRequestResult>: NSPersistentStoreRequest, NSCopying {
    public var entityName: String?
    /// The entity, when set directly or resolved from `entityName` by a context.
    public var entity: NSEntityDescription?
    public var predicate: Predicates.NSPredicate?
    public var sortDescriptors: [Predicates.NSSortDescriptor]?
    /// At most this many results; 0 means no limit.
    public var fetchLimit: Int = 0
    public var fetchOffset: Int = 0
    /// With a batch size, results load in batches of this size as they are used; 0 loads everything.
    public var fetchBatchSize: Int = 0
    public var resultType: NSFetchRequestResultType = .managedObjectResultType
    /// Whether objects of subentities are fetched too.
    public var includesSubentities: Bool = true
    /// Whether property values are fetched into the row cache (false fetches object IDs only).
    public var includesPropertyValues: Bool = true
    /// Whether fetched objects are returned as faults (their values then come from the row cache).
    public var returnsObjectsAsFaults: Bool = true
    /// Whether unsaved changes of the context take part in the results.
    public var includesPendingChanges: Bool = true
    /// Relationship key paths whose destinations are fetched along, instead of fault by fault.
    public var relationshipKeyPathsForPrefetching: [String]?
    /// For dictionary results: property names, property descriptions or `NSExpressionDescription`s.
    public var propertiesToFetch: [Any]?
    /// For dictionary results: property names, property descriptions or expression descriptions to group by.
    public var propertiesToGroupBy: [Any]?
    /// For grouped dictionary results: a predicate on the groups (SQL `HAVING`).
    public var havingPredicate: Predicates.NSPredicate?
    /// For dictionary results: whether equal rows are returned once.
    public var returnsDistinctResults: Bool = false
    /// Whether objects the context has already filled take the store's current values when fetched again (objects
    /// with unsaved changes keep them, over the fresh values); false keeps the values they have, as by default.
    public var shouldRefreshRefetchedObjects: Bool = false

    // The stores the fetch reads are `affectedStores`, inherited: nil reads every store that holds the entity.

    public override init() {}

    public init(entityName: String) {
        self.entityName = entityName
        super.init()
        // A request typed for a subclass (`NSFetchRequest<Recipe>`) makes the class known, so its objects are Recipes.
        if let subclass = ResultType.self as? NSManagedObject.Type, subclass != NSManagedObject.self {
            subclass.noteSubclass(entityName: entityName)
        }
    }

    /// Fetches in the context whose `perform` or `performAndWait` block is running, as Apple's `execute()`; called
    /// outside such a block it throws, naming `NSManagedObjectContext.fetch(_:)` as the way to fetch there.
    public func execute() throws -> [ResultType] {
        guard let context = ContextInPerform.current else {
            throw CoreDataError(.persistentStoreOperation,
                                "NSFetchRequest.execute() for \(resolvedEntityName ?? "?") was called outside a block given to a context's "
                                    + "perform or performAndWait, so there is no context to fetch in; use context.fetch(request)")
        }
        return try context.fetch(self)
    }

    open override var requestType: NSPersistentStoreRequestType { .fetchRequestType }

    /// Whether `object` is a fetch request that fetches the same (NSFetchRequest+Equality.swift).
    open override func isEqual(_ object: Any?) -> Bool { fetchesTheSame(as: object) }

    open override var hash: Int { contentHash }

    /// The request's results, for `NSPersistentStoreCoordinator.execute(_:with:)`.
    override func executedThroughCoordinator(in context: NSManagedObjectContext) throws -> Any {
        try context.fetch(self)
    }

    /// The entity name, whether given by name or by description.
    public var resolvedEntityName: String? { entity?.entityName ?? entityName }

    open override var description: String {
        var text = "<NSFetchRequest: entity: \(resolvedEntityName ?? "nil")"
        if let predicate { text += ", predicate: \(predicate.predicateFormat)" }
        if let sortDescriptors, !sortDescriptors.isEmpty {
            text += ", sort: " + sortDescriptors.map { "\($0.key ?? "SELF") \($0.ascending ? "ASC" : "DESC")" }.joined(separator: ", ")
        }
        return text + ">"
    }
}

/// An expression fetched under a name in dictionary results: `count:(name)`, `max:(price)`, ….
open class NSExpressionDescription: @unchecked Sendable {
    public var name: String
    public var expression: Predicates.NSExpression?
    public var expressionResultType: NSAttributeType = .undefinedAttributeType

    public init(name: String = "", expression: Predicates.NSExpression? = nil, resultType: NSAttributeType = .undefinedAttributeType) {
        self.name = name
        self.expression = expression
        self.expressionResultType = resultType
    }
}
