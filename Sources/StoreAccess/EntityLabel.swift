import CoreDataModel
import CoreDataObjectGraph

/// `ObjectLabel`'s rule resolved for one entity, as the commands use it while streaming rows: the label
/// attribute read in SQL, then `label(value:primaryKey:entityName:)` per row (`Entity pN` when the value is empty).
package struct EntityLabel: Sendable {
    /// The entity the rule was resolved for.
    package let entityName: String
    /// The attribute whose value labels an object, if the entity has one.
    package let attributeName: String?

    package init(entity: NSEntityDescription) {
        entityName = entity.entityName
        attributeName = Self.attributeName(for: entity)
    }

    /// The label attribute of `entity` (`ObjectLabel.defaultKey(for:)`).
    package static func attributeName(for entity: NSEntityDescription) -> String? {
        ObjectLabel.defaultKey(for: entity)
    }

    /// The label of the object with `primaryKey` whose label attribute holds `value` (nil: absent or NULL), with
    /// `entityName` the object's own entity when it is known to be a subentity.
    package func label(value: String?, primaryKey: Int64, entityName: String? = nil) -> String {
        if let value, !value.isEmpty { return value }
        return "\(entityName ?? self.entityName) p\(primaryKey)"
    }

    /// The label of `object`, reading its label attribute (which fulfils a fault).
    package static func label(of object: NSManagedObject) -> String {
        let entity = object.objectID.entity
        let value = attributeName(for: entity).flatMap { object.value(forKey: $0) as? String }
        if let value, !value.isEmpty { return value }
        return "\(entity.entityName) p\(object.objectID.primaryKey)"
    }
}
