import Foundation
import Predicates

/// A relationship from one entity to another: cardinality, inverse, ordering and delete rule.
open class NSRelationshipDescription: NSPropertyDescription, @unchecked Sendable {
    /// The destination entity (a weak reference); resolved by the model once all entities are known.
    public var destinationEntity: NSEntityDescription? {
        get { destinationReference.entity }
        set {
            destinationReference = WeakEntityReference(newValue)
            // Apple's code sets the entity, not its name; the model links by name.
            if let newValue { destinationEntityName = newValue.entityName }
        }
    }
    private var destinationReference = WeakEntityReference(nil)
    /// The destination entity's name, kept so that a model can be built before it is linked.
    public var destinationEntityName: String
    /// The inverse relationship; resolved by the model once all entities are known.
    public weak var inverseRelationship: NSRelationshipDescription? {
        didSet { if let inverseRelationship { inverseRelationshipName = inverseRelationship.name } }
    }
    /// The inverse relationship's name, kept for linking and for version hashes.
    public var inverseRelationshipName: String?
    /// The inverse's declaring entity, as the model file names it (Xcode's `inverseEntity`).
    public var inverseEntityName: String?
    public var minCount: Int = 0
    /// The maximum count; 0 means unbounded, 1 makes a to-one relationship.
    public var maxCount: Int = 0
    public var deleteRule: NSDeleteRule = .nullifyDeleteRule
    /// Whether a to-many relationship keeps its order (an `NSOrderedSet`).
    public var isOrdered: Bool = false

    public init(name: String, destinationEntityName: String) {
        self.destinationEntityName = destinationEntityName
        super.init(name: name)
    }

    /// A to-many relationship has a maximum count other than 1.
    public var isToMany: Bool { maxCount != 1 }

    /// An independent copy that belongs to no entity (Apple's `NSCopying`): same destination and inverse (by
    /// reference and by name, so a model the copy joins links it anew), counts, rule and order.
    open override func copy(with zone: NSZone? = nil) -> Any {
        let copy = NSRelationshipDescription(name: name, destinationEntityName: destinationEntityName)
        copyPropertySettings(into: copy)
        copy.destinationReference = destinationReference
        copy.inverseRelationship = inverseRelationship
        copy.inverseRelationshipName = inverseRelationshipName
        copy.inverseEntityName = inverseEntityName
        copy.minCount = minCount
        copy.maxCount = maxCount
        copy.deleteRule = deleteRule
        copy.isOrdered = isOrdered
        return copy
    }

    open override var description: String {
        "NSRelationshipDescription(\(name) -> \(destinationEntityName)\(isToMany ? " to-many" : ""))"
    }
}

/// A fetched property: a weak, one-way relationship evaluated by a fetch request (never stored).
open class NSFetchedPropertyDescription: NSPropertyDescription, @unchecked Sendable {
    /// The entity the fetch request fetches.
    public var fetchEntityName: String?
    /// The fetch request's predicate, as written in the model.
    public var predicateFormat: String?
    /// The fetch request's sort descriptors (compiled models keep them; Xcode's XML does not).
    public var sortDescriptors: [Predicates.NSSortDescriptor] = []

    public override init(name: String) {
        super.init(name: name)
    }

    /// An independent copy that belongs to no entity (Apple's `NSCopying`).
    open override func copy(with zone: NSZone? = nil) -> Any {
        let copy = NSFetchedPropertyDescription(name: name)
        copyPropertySettings(into: copy)
        copy.fetchEntityName = fetchEntityName
        copy.predicateFormat = predicateFormat
        copy.sortDescriptors = sortDescriptors
        return copy
    }
}
