import CoreDataModel
import Foundation

/// What the codecs need of a model, computed once per decode or encode: each entity's stored attributes and
/// relationships, by name and by case-folded name (the XML store writes names folded), and the binary store's
/// attribute positions.
final class StoreFileSchema {
    /// One entity's stored properties.
    final class EntityPlan {
        let entity: NSEntityDescription
        /// Non-transient attributes, inherited ones included, sorted by name: the binary store's value positions.
        let attributes: [NSAttributeDescription]
        /// Non-transient relationships, inherited ones included, in declaration order.
        let relationships: [NSRelationshipDescription]
        /// `attributes` and `relationships` in declaration order (inherited first), for writing XML.
        let declaredAttributes: [NSAttributeDescription]
        let attributesByName: [String: NSAttributeDescription]
        let relationshipsByName: [String: NSRelationshipDescription]
        private let foldedAttributes: [String: [NSAttributeDescription]]
        private let foldedRelationships: [String: [NSRelationshipDescription]]

        init(_ entity: NSEntityDescription) {
            self.entity = entity
            let stored = entity.allProperties.filter { !$0.isTransient }
            declaredAttributes = stored.compactMap { $0 as? NSAttributeDescription }
            attributes = declaredAttributes.sorted { $0.name.unicodeScalars.lexicographicallyPrecedes($1.name.unicodeScalars) }
            relationships = stored.compactMap { $0 as? NSRelationshipDescription }
            attributesByName = Dictionary(attributes.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
            relationshipsByName = Dictionary(relationships.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
            foldedAttributes = Dictionary(grouping: attributes, by: { StoreFileSchema.fold($0.name) })
            foldedRelationships = Dictionary(grouping: relationships, by: { StoreFileSchema.fold($0.name) })
        }

        /// The attribute named `name` exactly, else the one whose folded name matches; nil when none or several do.
        func attribute(folded name: String) -> NSAttributeDescription? {
            if let exact = attributesByName[name] { return exact }
            let matches = foldedAttributes[StoreFileSchema.fold(name)] ?? []
            return matches.count == 1 ? matches[0] : nil
        }

        func relationship(folded name: String) -> NSRelationshipDescription? {
            if let exact = relationshipsByName[name] { return exact }
            let matches = foldedRelationships[StoreFileSchema.fold(name)] ?? []
            return matches.count == 1 ? matches[0] : nil
        }

        /// Whether a folded name matches several properties (the file cannot say which).
        func isAmbiguous(_ name: String) -> Bool {
            let folded = StoreFileSchema.fold(name)
            return (foldedAttributes[folded]?.count ?? 0) + (foldedRelationships[folded]?.count ?? 0) > 1
        }
    }

    let model: NSManagedObjectModel
    private var plans: [ObjectIdentifier: EntityPlan] = [:]
    private let entitiesByName: [String: NSEntityDescription]
    private let foldedEntities: [String: [NSEntityDescription]]

    init(model: NSManagedObjectModel) {
        self.model = model
        entitiesByName = model.entitiesByName
        foldedEntities = Dictionary(grouping: model.entities, by: { StoreFileSchema.fold($0.entityName) })
    }

    /// Case folding as the XML store needs it: names compare without regard to case. Upper-casing first makes a
    /// name and both of its written forms fold alike even where case mapping changes length (`ß` is written `SS`).
    static func fold(_ name: String) -> String { name.uppercased().lowercased() }

    /// The entity named `name` exactly, else the one entity whose folded name matches.
    func entity(named name: String) -> NSEntityDescription? {
        if let exact = entitiesByName[name] { return exact }
        let matches = foldedEntities[StoreFileSchema.fold(name)] ?? []
        return matches.count == 1 ? matches[0] : nil
    }

    /// Whether several entities share `name`'s folded form.
    func isAmbiguousEntity(_ name: String) -> Bool { (foldedEntities[StoreFileSchema.fold(name)]?.count ?? 0) > 1 }

    func plan(for entity: NSEntityDescription) -> EntityPlan {
        if let plan = plans[ObjectIdentifier(entity)] { return plan }
        let plan = EntityPlan(entity)
        plans[ObjectIdentifier(entity)] = plan
        return plan
    }
}
