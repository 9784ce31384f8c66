import CoreDataModel
import CoreDataObjectGraph
import Foundation
import StoreAccess

/// What writing the context would change, for the confirmation before `:w`: inserted objects with their values,
/// updated ones with `old → new` per key, deleted ones. Objects are named by their labels (`Chef Ana Lima`,
/// `chef: Ana Lima → Bo Chen`), never by address (issue 21); an object without a label by its ID.
enum ChangeSummary {
    static let maximumLines = 500

    /// `Chef Ana Lima`: the entity and the label, or the ID text (`Chef p2`) when the object has no label.
    static func name(of object: NSManagedObject, labels: ObjectLabel) -> String {
        let label = labels.text(for: object)
        return label == ObjectLabel.idText(object.objectID) ? label : "\(object.entity.entityName) \(label)"
    }

    static func lines(for context: NSManagedObjectContext, labels: ObjectLabel = ObjectLabel()) -> [String] {
        var lines: [String] = []
        let byLabel: (NSManagedObject, NSManagedObject) -> Bool = {
            ($0.entity.entityName, $0.objectID.primaryKey) < ($1.entity.entityName, $1.objectID.primaryKey)
        }
        for object in context.insertedObjects.sorted(by: byLabel) {
            lines.append("+ insert \(name(of: object, labels: labels))")
            // Every value the new object has (an object saved in from a child context reports no changed values).
            for property in object.entity.allProperties.sorted(by: { $0.name < $1.name }) {
                if let attribute = property as? NSAttributeDescription, attribute.isTransient { continue }
                let value = object.propertyValue(forKey: property.name)
                if value == nil || value is NSNull || (value as? Set<NSManagedObject>)?.isEmpty == true
                    || (value as? [NSManagedObject])?.isEmpty == true { continue }
                lines.append("    \(property.name) = \(describe(value, labels: labels))")
            }
        }
        let reader = committedReader(for: context)
        for object in context.updatedObjects.sorted(by: byLabel) {
            lines.append("~ update \(name(of: object, labels: labels))")
            let changed = object.changedValues()
            let committed = object.committedValues(forKeys: Array(changed.keys))
            for key in changed.keys.sorted() {
                if let relationship = object.entity.relationshipsByName[key], relationship.isToMany {
                    lines.append("    \(key): " + toManyChange(of: object, key: key, ordered: relationship.isOrdered,
                                                              reader: reader, labels: labels))
                } else {
                    lines.append("    \(key): \(describe(committed[key], labels: labels)) → \(describe(changed[key], labels: labels))")
                }
            }
        }
        for object in context.deletedObjects.sorted(by: byLabel) {
            lines.append("- delete \(name(of: object, labels: labels))")
        }
        if lines.count > maximumLines {
            let hidden = lines.count - maximumLines
            lines = Array(lines.prefix(maximumLines)) + ["… \(hidden) more lines"]
        }
        return lines
    }

    /// A to-many change against the committed destinations: what was added and what was removed (an ordered
    /// relationship whose members stayed the same says it was reordered).
    static func toManyChange(of object: NSManagedObject, key: String, ordered: Bool,
                             reader: NSManagedObjectContext?, labels: ObjectLabel = ObjectLabel()) -> String {
        let current = object.objectIDs(forRelationshipNamed: key)
        let committed = reader.flatMap { reader in
            reader.performAndWait { () -> [NSManagedObjectID]? in
                (try? reader.existingObject(with: object.objectID))?.objectIDs(forRelationshipNamed: key)
            }
        } ?? []
        let committedSet = Set(committed)
        let currentSet = Set(current)
        let added = current.filter { !committedSet.contains($0) }
        let removed = committed.filter { !currentSet.contains($0) }
        var parts: [String] = []
        let names = object.managedObjectContext.flatMap { try? labels.labels(for: Array((added + removed).prefix(16)), in: $0) } ?? [:]
        func list(_ ids: [NSManagedObjectID]) -> String {
            let shown = ids.prefix(8).map { names[$0] ?? ObjectLabel.idText($0) }
            return shown.joined(separator: ", ") + (ids.count > 8 ? ", … (\(ids.count - 8) more)" : "")
        }
        if !added.isEmpty { parts.append("added " + list(added)) }
        if !removed.isEmpty { parts.append("removed " + list(removed)) }
        if parts.isEmpty { return ordered && current != committed ? "reordered" : "unchanged" }
        return parts.joined(separator: "; ") + " (\(committed.count) → \(current.count))"
    }

    /// A context on the same coordinator that sees only what the store holds: the committed side of a to-many.
    private static func committedReader(for context: NSManagedObjectContext) -> NSManagedObjectContext? {
        guard let coordinator = context.persistentStoreCoordinator else { return nil }
        let reader = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        reader.persistentStoreCoordinator = coordinator
        return reader
    }

    static func describe(_ value: Any?, labels: ObjectLabel = ObjectLabel()) -> String {
        switch value {
        case nil, is NSNull: return "nil"
        case let object as NSManagedObject: return labels.text(for: object)
        case let id as NSManagedObjectID: return ObjectLabel.idText(id)
        case let string as String: return "\"\(string)\""
        case let objects as Set<NSManagedObject>: return "{" + objects.map { labels.text(for: $0) }.sorted().joined(separator: ", ") + "}"
        case let objects as [NSManagedObject]: return "[" + objects.map { labels.text(for: $0) }.joined(separator: ", ") + "]"
        default: return ValueFormatting.text(value)
        }
    }
}
