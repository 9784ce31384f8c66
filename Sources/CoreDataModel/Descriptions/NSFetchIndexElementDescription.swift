/// Apple's index element kinds: an ordinary (binary) index, or an R-tree index for range queries on two values.
public enum NSFetchIndexElementType: UInt, Sendable, Hashable {
    case binary = 0
    case rTree = 1

    /// The name Xcode's model files give the kind (`type="Binary"`, `type="RTree"`).
    public var xcodeName: String {
        switch self {
        case .binary: "Binary"
        case .rTree: "RTree"
        }
    }

    /// The kind Xcode's model files name `name`; nil for any other name.
    public init?(xcodeName name: String) {
        switch name {
        case "Binary": self = .binary
        case "RTree": self = .rTree
        default: return nil
        }
    }
}

/// One element of a fetch index: a property (or an expression), its index kind and its direction.
open class NSFetchIndexElementDescription: @unchecked Sendable, Hashable, CustomStringConvertible {
    /// The library's earlier name for `NSFetchIndexElementType`.
    public typealias CollationType = NSFetchIndexElementType

    /// The indexed property when the element was made from one (Apple's `init(property:collationType:)`), else the
    /// property of `propertyName` in the index's entity once the index belongs to one; nil for an expression.
    public var property: NSPropertyDescription? {
        if let indexedProperty { return indexedProperty }
        guard let declaredPropertyName else { return nil }
        return indexDescription?.entity?.propertiesByName[declaredPropertyName]
    }
    /// The property given to `init(property:collationType:)`.
    let indexedProperty: NSPropertyDescription?
    private let declaredPropertyName: String?
    /// The indexed property's name (its current name when made from a property); nil when the element is an
    /// expression.
    public var propertyName: String? { indexedProperty?.name ?? declaredPropertyName }
    /// The indexed expression, as written in the model, when the element is not a plain property.
    public var expressionFormat: String?
    public var collationType: NSFetchIndexElementType
    public var isAscending: Bool
    /// The index this element belongs to (a weak back reference: the index owns its elements).
    public internal(set) weak var indexDescription: NSFetchIndexDescription?

    /// An element indexing `property` with `collationType`, ascending, as Apple's initialiser.
    public init(property: NSPropertyDescription, collationType: NSFetchIndexElementType) {
        indexedProperty = property
        declaredPropertyName = nil
        self.collationType = collationType
        isAscending = true
    }

    /// An element naming its property (resolved in the index's entity) or giving an expression, as model files do.
    public init(propertyName: String?, expressionFormat: String? = nil, collationType: NSFetchIndexElementType = .binary,
                isAscending: Bool = true) {
        indexedProperty = nil
        declaredPropertyName = propertyName
        self.expressionFormat = expressionFormat
        self.collationType = collationType
        self.isAscending = isAscending
    }

    /// Equal when they index the same property name or expression the same way.
    public static func == (lhs: NSFetchIndexElementDescription, rhs: NSFetchIndexElementDescription) -> Bool {
        lhs === rhs || (lhs.propertyName == rhs.propertyName && lhs.expressionFormat == rhs.expressionFormat
                        && lhs.collationType == rhs.collationType && lhs.isAscending == rhs.isAscending)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(propertyName)
        hasher.combine(expressionFormat)
        hasher.combine(collationType)
        hasher.combine(isAscending)
    }

    open var description: String {
        (propertyName ?? expressionFormat ?? "?") + (collationType == .rTree ? " (R-tree)" : "") + (isAscending ? "" : " descending")
    }
}
