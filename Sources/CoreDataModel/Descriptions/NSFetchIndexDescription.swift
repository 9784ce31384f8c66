/// A fetch index of an entity: a named, ordered list of elements the store indexes together.
public struct NSFetchIndexDescription: Sendable, Hashable {
    public var name: String
    public var elements: [NSFetchIndexElementDescription]
    /// A predicate restricting the index to some rows (a partial index), as written in the model.
    public var partialIndexPredicateFormat: String?

    public init(name: String, elements: [NSFetchIndexElementDescription], partialIndexPredicateFormat: String? = nil) {
        self.name = name
        self.elements = elements
        self.partialIndexPredicateFormat = partialIndexPredicateFormat
    }
}

/// One element of a fetch index: a property (or an expression), its index kind and its direction.
public struct NSFetchIndexElementDescription: Sendable, Hashable {
    public enum CollationType: String, Sendable, Hashable {
        case binary = "Binary"
        case rTree = "RTree"
    }

    /// The indexed property's name; nil when the element is an expression.
    public var propertyName: String?
    /// The indexed expression, as written in the model, when the element is not a plain property.
    public var expressionFormat: String?
    public var collationType: CollationType
    public var isAscending: Bool

    public init(propertyName: String?, expressionFormat: String? = nil, collationType: CollationType = .binary,
                isAscending: Bool = true) {
        self.propertyName = propertyName
        self.expressionFormat = expressionFormat
        self.collationType = collationType
        self.isAscending = isAscending
    }
}

/// A fetch request stored in a model (Xcode's model-level `fetchRequest`), kept as data.
public struct FetchRequestTemplate: Sendable, Hashable {
    public var name: String
    public var entityName: String
    public var predicateFormat: String?
    public var fetchLimit: Int?

    public init(name: String, entityName: String, predicateFormat: String?, fetchLimit: Int? = nil) {
        self.name = name
        self.entityName = entityName
        self.predicateFormat = predicateFormat
        self.fetchLimit = fetchLimit
    }
}

/// An iOS 17 composite attribute type: a named group of attributes stored together.
public struct CompositeDescription: Sendable, Hashable {
    public struct Element: Sendable, Hashable {
        public var name: String
        public var attributeType: NSAttributeType
        public var isOptional: Bool
        public var compositeName: String?
    }

    public var name: String
    public var elements: [Element]
}
