import CoreDataModel
import CoreDataObjectGraph
import Foundation
import Predicates

/// The name people know an object by: the value of its entity's display key (`Ana Lima` for a chef), so that
/// relationships read as names rather than as `Chef p2` (issue 21). One rule for the browser and the commands.
///
/// An entity's display key is, in order: an attribute named `name`, `title` or `displayName`; a string attribute
/// that a single-attribute uniqueness constraint makes unique; the first string attribute in model order. An
/// entity with none of these, and an object whose value is nil or empty, is written by its ID (`Chef p2`).
/// ``overrides`` (`:label ENTITY KEY`) take precedence, for the entity and its subentities.
package struct ObjectLabel: Sendable, Equatable {
    /// The keys named by the user, by entity name.
    package var overrides: [String: String]

    package init(overrides: [String: String] = [:]) {
        self.overrides = overrides
    }

    /// The attribute names tried first, in order.
    package static let preferredKeys = ["name", "title", "displayName"]

    /// The display key of `entity` by the default rule, or nil when it has no candidate.
    package static func defaultKey(for entity: NSEntityDescription) -> String? {
        let attributes = entity.allProperties.compactMap { $0 as? NSAttributeDescription }.filter { !$0.isTransient }
        let strings = attributes.filter { $0.attributeType == .stringAttributeType }
        if let preferred = preferredKeys.first(where: { key in strings.contains { $0.name == key } }) { return preferred }
        let constrained = Set(entity.uniquenessConstraintNames.filter { $0.count == 1 }.map { $0[0] })
        if let unique = strings.first(where: { constrained.contains($0.name) }) { return unique.name }
        return strings.first?.name
    }

    /// The display key of `entity`: the user's choice for it or an ancestor, else the default rule.
    package func key(for entity: NSEntityDescription) -> String? {
        var current: NSEntityDescription? = entity
        while let candidate = current {
            if let key = overrides[candidate.entityName], entity.attributesByName[key] != nil {
                return key
            }
            current = candidate.superentity
        }
        return Self.defaultKey(for: entity)
    }

    /// Checks that `key` can label `entity` (one of its stored attributes), for `:label` and `--label`.
    package static func validate(_ key: String, for entity: NSEntityDescription) throws {
        guard let attribute = entity.attributesByName[key], !attribute.isTransient else {
            let names = entity.allProperties.compactMap { $0 as? NSAttributeDescription }.map(\.name)
            throw StoreAccessError("\(entity.entityName) has no attribute \"\(key)\" to label its objects by; it has: "
                                   + names.joined(separator: ", "))
        }
    }

    /// The label of `object`: its display key's value, or its ID when that is nil or empty. Reading the value may
    /// fire the object's fault; call it on the object's context queue.
    package func text(for object: NSManagedObject) -> String {
        guard let key = key(for: object.entity) else { return Self.idText(object.objectID) }
        let value = ValueFormatting.text(object.propertyValue(forKey: key))
        return value.isEmpty ? Self.idText(object.objectID) : value
    }

    /// The labels of `ids`, read with one fetch per entity and chunk (`SELF IN %@`), not one fault per object.
    /// IDs whose objects are gone keep their ID text. Call it on the context's queue.
    package func labels(for ids: [NSManagedObjectID], in context: NSManagedObjectContext) throws -> [NSManagedObjectID: String] {
        var result: [NSManagedObjectID: String] = [:]
        for (_, group) in Dictionary(grouping: ids, by: { $0.entity.entityName }) {
            guard let entity = group.first?.entity, key(for: entity) != nil else {
                for id in group { result[id] = Self.idText(id) }
                continue
            }
            var index = 0
            while index < group.count {
                let chunk = Array(group[index..<min(group.count, index + 500)])
                index += chunk.count
                let request = NSFetchRequest<NSManagedObject>(entityName: entity.entityName)
                request.predicate = Predicates.NSPredicate(format: "SELF IN %@", argumentArray: [chunk.filter { !$0.isTemporaryID }])
                request.returnsObjectsAsFaults = false
                for object in try context.fetch(request) { result[object.objectID] = text(for: object) }
                for id in chunk where result[id] == nil {
                    result[id] = (try? context.existingObject(with: id)).map(text(for:)) ?? Self.idText(id)
                }
            }
        }
        return result
    }

    /// An object by its ID: `Recipe p12` (entity and primary key, as in Core Data's object URIs), or `Recipe (new)`
    /// for an object not saved yet.
    package static func idText(_ id: NSManagedObjectID) -> String {
        if id.isTemporaryID { return "\(id.entity.entityName) (new)" }
        return "\(id.entity.entityName) p\(id.primaryKey)"
    }
}
