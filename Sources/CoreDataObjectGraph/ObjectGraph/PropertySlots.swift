import CoreDataModel
import Foundation

/// The stored properties of an entity (attributes with columns and to-one relationships) in a fixed order, so
/// snapshots and objects index values by position instead of hashing names on every access.
public final class PropertySlots: @unchecked Sendable {
    public let entity: NSEntityDescription
    /// Stored properties in slot order.
    public let properties: [NSPropertyDescription]
    /// The properties' names in slot order (reading a description's `name` is a dynamic call), and their slots.
    private let names: NameLookup

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
        self.names = NameLookup(names: stored.map(\.name))
        let storedAttributes: [NSAttributeDescription?] = stored.map { property in
            guard let attribute = property as? NSAttributeDescription, !attribute.isTransient else { return nil }
            return attribute
        }
        self.storedAttributes = storedAttributes
        self.storedAttributeTypes = storedAttributes.map { $0?.attributeType ?? .undefinedAttributeType }
        self.defaultValues = stored.map { property in
            (property as? NSAttributeDescription)?.attributeDefault.map { .attribute($0) } ?? .null
        }
        self.externalStorageSlots = stored.indices.filter { slot in
            guard let attribute = stored[slot] as? NSAttributeDescription else { return false }
            return attribute.allowsExternalBinaryDataStorage && !(attribute is NSDerivedAttributeDescription)
        }
        self.persistentRelationships = entity.allProperties.compactMap { property in
            guard let relationship = property as? NSRelationshipDescription, !relationship.isTransient else { return nil }
            return relationship
        }
        self.validatedProperties = entity.allProperties.filter { property in
            if property.isTransient { return false }
            if let attribute = property as? NSAttributeDescription {
                return !(attribute is NSDerivedAttributeDescription) && attribute.hasValidationConstraints
            }
            return (property as? NSRelationshipDescription)?.hasValidationConstraints ?? false
        }
    }

    /// The slot of the stored property called `name`, or nil when the entity stores no such property.
    @inline(__always)
    public func index(of name: String) -> Int? {
        names.position(of: name)
    }
    public var count: Int { properties.count }

    // What the hot paths would otherwise derive from the model on every call (reading a description's property is a
    // dynamic call across modules): computed once, when a coordinator first needs the entity's slots.

    /// The attribute in each slot when it is a persistent attribute (what `setValue` converts and stores directly);
    /// nil for to-one relationships and transient derived attributes.
    let storedAttributes: [NSAttributeDescription?]
    /// The type of each slot's attribute in `storedAttributes` (`.undefinedAttributeType` where there is none).
    let storedAttributeTypes: [NSAttributeType]
    /// The value each slot starts with in an inserted object: the attribute's default, or nil.
    let defaultValues: [StoredValue]
    /// The entity's relationships that are not transient, to-one and to-many (delete rules walk them).
    let persistentRelationships: [NSRelationshipDescription]
    /// The slots of attributes whose values may live in external files (a save looks for the files it replaces).
    let externalStorageSlots: [Int]
    /// The properties whose values can fail validation (mandatory, bounded, patterned or counted), in the entity's
    /// order; saving validates only these.
    let validatedProperties: [NSPropertyDescription]
}
