import CoreDataModel
import Foundation

/// The stored state of one object as a store last returned it: its attribute values and to-one destinations,
/// indexed by the entity's property slots, and its optimistic-locking version (`Z_OPT`).
public struct Snapshot: @unchecked Sendable {
    /// One value per stored property of the entity, in `PropertySlots` order; nil is NULL.
    public var values: [StoredValue]
    public var version: Int64

    public init(values: [StoredValue], version: Int64) {
        self.values = values
        self.version = version
    }
}

/// A stored property value: an attribute value, a to-one destination, or nothing.
public enum StoredValue: @unchecked Sendable, Equatable {
    case null
    case attribute(AttributeValue)
    case toOne(NSManagedObjectID)
    /// A value an external-storage reference points to, read when first accessed.
    case externalData(reference: String)

    public var attributeValue: AttributeValue? {
        if case .attribute(let value) = self { return value }
        return nil
    }
}

/// The stored properties of an entity (attributes with columns and to-one relationships) in a fixed order, so
/// snapshots and objects index values by position instead of hashing names on every access.
public final class PropertySlots: @unchecked Sendable {
    public let entity: NSEntityDescription
    /// Stored properties in slot order.
    public let properties: [NSPropertyDescription]
    private let indexByName: [String: Int]

    public init(entity: NSEntityDescription) {
        self.entity = entity
        let stored = entity.allProperties.filter { property in
            switch property {
            case let attribute as NSAttributeDescription:
                return (!attribute.isTransient || attribute is NSDerivedAttributeDescription)
                    && attribute.attributeType.sqliteColumnType != nil
            case let relationship as NSRelationshipDescription:
                return !relationship.isToMany && !relationship.isTransient
            default:
                return false
            }
        }
        self.properties = stored
        self.indexByName = Dictionary(stored.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    public func index(of name: String) -> Int? { indexByName[name] }
    public var count: Int { properties.count }
}
