import Predicates

/// A fetch request stored in a model (Xcode's model-level `fetchRequest`, or one given to Apple's
/// `setFetchRequestTemplate(_:forName:)`), kept as data: what a fetch request template describes of its fetch.
public struct FetchRequestTemplate: Sendable, Hashable {
    public var name: String
    public var entityName: String
    public var predicateFormat: String?
    public var fetchLimit: Int?
    /// The sort order of the results (none: the store's order).
    public var sortDescriptors: [Predicates.NSSortDescriptor]
    public var fetchOffset: Int
    public var fetchBatchSize: Int
    /// Whether the fetch includes objects of the entity's subentities (Apple's default, true).
    public var includesSubentities: Bool

    public init(name: String, entityName: String, predicateFormat: String?, fetchLimit: Int? = nil,
                sortDescriptors: [Predicates.NSSortDescriptor] = [], fetchOffset: Int = 0, fetchBatchSize: Int = 0,
                includesSubentities: Bool = true) {
        self.name = name
        self.entityName = entityName
        self.predicateFormat = predicateFormat
        self.fetchLimit = fetchLimit
        self.sortDescriptors = sortDescriptors
        self.fetchOffset = fetchOffset
        self.fetchBatchSize = fetchBatchSize
        self.includesSubentities = includesSubentities
    }
}
