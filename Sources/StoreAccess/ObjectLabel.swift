import CoreDataModel
import CoreDataObjectGraph

/// The short text that names an object where a relationship points at it (a query's cell, a JSON reference's
/// `label`): the value of the destination's label attribute, or `Entity pN` when it has none or it is empty.
///
/// The label attribute of an entity is the first string attribute named `name`, `title` or `displayName`; else a
/// string attribute that a uniqueness constraint makes unique on its own; else the first string attribute; else
/// none. One rule for the commands and the browser alike.
package struct ObjectLabel: Sendable {
    /// The entity the rule was resolved for.
    package let entityName: String
    /// The attribute whose value labels an object, if the entity has a string attribute.
    package let attributeName: String?

    package init(entity: NSEntityDescription) {
        entityName = entity.name
        attributeName = Self.attributeName(for: entity)
    }

    /// The label attribute of `entity` (see the type's description), or nil when it has no string attribute.
    package static func attributeName(for entity: NSEntityDescription) -> String? {
        let strings = entity.allProperties.compactMap { $0 as? NSAttributeDescription }
            .filter { $0.attributeType == .stringAttributeType && !$0.isTransient }
        let names = Set(strings.map(\.name))
        for preferred in ["name", "title", "displayName"] where names.contains(preferred) { return preferred }
        for constraint in entity.uniquenessConstraints where constraint.count == 1 && names.contains(constraint[0]) {
            return constraint[0]
        }
        return strings.first?.name
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
        return "\(entity.name) p\(object.objectID.primaryKey)"
    }
}
