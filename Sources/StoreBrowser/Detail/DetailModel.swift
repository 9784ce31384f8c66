import CoreDataModel
import CoreDataObjectGraph
import Foundation
import PropertyListCoding
import StoreAccess
import UndoManagement

/// One row of the detail pane: a property of the object, its value as lines, and whether it is edited.
package struct DetailField: Equatable {
    package enum Kind: Equatable {
        case attribute(NSAttributeType)
        case toOne(destination: String)
        case toMany(destination: String, count: Int)
    }

    package var key: String
    package var kind: Kind
    /// The value, one or more lines (long values are wrapped by the view).
    package var value: String
    /// The value before the unsaved edit, when the field has one.
    package var committedValue: String?
    /// The destination objects of a relationship (one for a to-one).
    package var destinations: [NSManagedObjectID] = []

    package var isPending: Bool { committedValue != nil }

    package var typeLabel: String {
        switch kind {
        case .attribute(let type): type.xcodeName
        case .toOne(let destination): "→ " + destination
        case .toMany(let destination, let count): "→→ \(destination) (\(count))"
        }
    }
}

/// The object shown in the detail pane, in a child context of the browser's context: edits wait there, `accept()`
/// saves them into the parent (one undo group there), and dropping the model discards them.
package final class DetailModel {
    package let objectID: NSManagedObjectID
    let child: NSManagedObjectContext
    let object: NSManagedObject
    /// Whether the object was inserted in this pane (accepting inserts it into the browser's context).
    package let isNew: Bool
    package private(set) var fields: [DetailField] = []
    package var selection = 0
    package var top = 0
    /// The failures of the last validation (`a`), shown on their fields until the next edit.
    var failures: [ValidationFailure] = []
    /// How relationship values name their objects.
    let labels: ObjectLabel

    /// Opens the object with `id` in a new child of `parent`.
    init(objectID id: NSManagedObjectID, parent: NSManagedObjectContext, labels: ObjectLabel = ObjectLabel()) throws {
        let child = Self.makeChild(of: parent)
        self.child = child
        self.labels = labels
        objectID = id
        object = try child.performAndWait { try child.existingObject(with: id) }
        isNew = false
        reload()
    }

    /// Inserts a new object of `entity` into a new child of `parent`.
    init(inserting entity: NSEntityDescription, parent: NSManagedObjectContext, labels: ObjectLabel = ObjectLabel()) {
        let child = Self.makeChild(of: parent)
        self.child = child
        self.labels = labels
        object = child.performAndWait { NSManagedObject(entity: entity, insertInto: child) }
        objectID = object.objectID
        isNew = true
        reload()
    }

    private static func makeChild(of parent: NSManagedObjectContext) -> NSManagedObjectContext {
        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = parent
        child.name = "detail"
        let undoManager = UndoManager()
        child.performAndWait { child.undoManager = undoManager }
        return child
    }

    package var entity: NSEntityDescription { object.entity }
    package var title: String { ObjectIDText.short(objectID) }
    package var selectedField: DetailField? { fields.indices.contains(selection) ? fields[selection] : nil }

    /// Whether the child holds edits not yet accepted.
    package var hasChanges: Bool { child.performAndWait { child.hasChanges } }

    /// The failure messages for the field `key` of the pane's object.
    package func failures(forField key: String) -> [String] {
        failures.filter { $0.objectID == objectID && $0.key == key }.map { $0.problem + ($0.rule.map { " (\($0))" } ?? "") }
    }

    /// Validates every object the pane changed, as a save would (inserts for insert, the rest for update), and
    /// keeps the failures for the fields. Returns them.
    @discardableResult
    func validate() -> [ValidationFailure] {
        failures = child.performAndWait {
            var found: [ValidationFailure] = []
            for changed in child.insertedObjects.sorted(by: { $0 === object && $1 !== object }) {
                do { try changed.validateForInsert() } catch { found += ValidationReport.failures(in: error) }
            }
            for changed in child.updatedObjects.sorted(by: { $0 === object && $1 !== object }) {
                do { try changed.validateForUpdate() } catch { found += ValidationReport.failures(in: error) }
            }
            return found
        }
        return failures
    }

    /// Re-reads every field from the child context.
    func reload() {
        failures.removeAll()
        // Labels are read in the child, so a label shows the child's own edits of the destination.
        let ids = child.performAndWait { Self.relationshipIDs(of: object) }
        let names = (try? child.performAndWait { try labels.labels(for: ids, in: child) }) ?? [:]
        fields = child.performAndWait { Self.fields(of: object, names: names) }
        selection = min(selection, max(0, fields.count - 1))
    }

    // MARK: Editing

    /// Sets the selected attribute from `text` (`NULL` clears it); throws naming the field and the expected form.
    func setSelected(fromText text: String, session: StoreSession) throws {
        guard let field = selectedField else { return }
        try child.performAndWait {
            switch entity.propertiesByName[field.key] {
            case let attribute as NSAttributeDescription:
                if attribute.isReadOnly { throw StoreAccessError("\(entity.entityName).\(attribute.name) is derived and cannot be set") }
                let value = try ValueParsing.value(text, for: attribute, entity: entity.entityName)
                record("Edit \(field.key)") { object.setPropertyValue(value, forKey: field.key) }
            case let relationship as NSRelationshipDescription where !relationship.isToMany:
                let id = try ValueParsing.objectID(text, for: relationship, in: session)
                let destination = try id.map { try child.existingObject(with: $0) }
                record("Set \(field.key)") { object.setValue(destination, forKey: field.key) }
            default:
                throw StoreAccessError("\(entity.entityName).\(field.key) is a to-many relationship: pick objects to add or remove")
            }
        }
        reload()
    }

    /// Sets the selected field to nil.
    func clearSelected() throws {
        guard let field = selectedField else { return }
        try child.performAndWait {
            if case .toMany = field.kind {
                throw StoreAccessError("\(entity.entityName).\(field.key) is a to-many relationship: remove its objects one by one")
            }
            if let attribute = entity.attributesByName[field.key], attribute.isReadOnly {
                throw StoreAccessError("\(entity.entityName).\(field.key) is derived and cannot be set")
            }
            record("Clear \(field.key)") { object.setValue(nil, forKey: field.key) }
        }
        reload()
    }

    /// Makes the object picked for the selected relationship its destination (to-one), or adds it to or removes it
    /// from the relationship (to-many).
    func pick(_ id: NSManagedObjectID) throws {
        guard let field = selectedField, let relationship = entity.relationshipsByName[field.key] else { return }
        try child.performAndWait {
            let destination = try child.existingObject(with: id)
            guard destination.entity.isKind(of: relationship.destinationEntity ?? destination.entity) else {
                throw StoreAccessError("\(field.key) takes \(relationship.destinationEntityName) objects, not \(destination.entity.entityName)")
            }
            if relationship.isToMany {
                var members = (object.propertyValue(forKey: field.key) as? Set<NSManagedObject>)
                    ?? Set((object.propertyValue(forKey: field.key) as? [NSManagedObject]) ?? [])
                let adding = !members.contains(destination)
                if adding { members.insert(destination) } else { members.remove(destination) }
                let ordered = relationship.isOrdered
                let current = object.propertyValue(forKey: field.key) as? [NSManagedObject] ?? []
                record("\(adding ? "Add to" : "Remove from") \(field.key)") {
                    if ordered {
                        object.setValue(adding ? current + [destination] : current.filter { $0 != destination }, forKey: field.key)
                    } else {
                        object.setValue(members, forKey: field.key)
                    }
                }
            } else {
                record("Set \(field.key)") { object.setValue(destination, forKey: field.key) }
            }
        }
        reload()
    }

    /// Undoes the last edit in the pane.
    func undo() {
        child.performAndWait { child.undo() }
        reload()
    }

    func redo() {
        child.performAndWait { child.redo() }
        reload()
    }

    /// Saves the child's edits into the parent: they become the browser context's unsaved changes, one undo group
    /// there, named after the object. The browser validates first (`validate()`); the store validates again
    /// when it is written, as in Core Data.
    func accept(into parent: NSManagedObjectContext) throws {
        let name = isNew ? "Insert \(entity.entityName)" : "Edit \(title)"
        parent.performAndWait {
            parent.processPendingChanges()
            parent.undoManager?.beginUndoGrouping()
        }
        defer {
            parent.performAndWait {
                parent.processPendingChanges()
                parent.undoManager?.setActionName(name)
                parent.undoManager?.endUndoGrouping()
            }
        }
        try child.performAndWait { try child.save() }
    }

    private func record(_ actionName: String, _ change: () -> Void) {
        child.undoManager?.beginUndoGrouping()
        change()
        child.processPendingChanges()
        child.undoManager?.setActionName(actionName)
        child.undoManager?.endUndoGrouping()
    }

    // MARK: Fields

    /// The destinations the fields name: to-ones (now and as committed) and the first of each to-many.
    private static func relationshipIDs(of object: NSManagedObject) -> [NSManagedObjectID] {
        let changed = object.changedValues()
        let committed = object.isInserted ? [:] : object.committedValues(forKeys: Array(changed.keys))
        var ids: [NSManagedObjectID] = []
        for case let relationship as NSRelationshipDescription in object.entity.allProperties {
            if relationship.isToMany {
                ids += object.objectIDs(forRelationshipNamed: relationship.name).prefix(8)
            } else {
                if let id = object.objectIDForToOne(relationship.name) { ids.append(id) }
                if let old = committed[relationship.name] as? NSManagedObject { ids.append(old.objectID) }
            }
        }
        return ids
    }

    private static func fields(of object: NSManagedObject, names: [NSManagedObjectID: String]) -> [DetailField] {
        /// `Ana Lima (Chef p2)`: the label, and the ID where the label is not it.
        func label(_ id: NSManagedObjectID) -> String {
            let idText = ObjectIDText.short(id)
            guard let text = names[id], text != idText else { return idText }
            return "\(text) (\(idText))"
        }
        let changed = object.changedValues()
        let committed = object.isInserted ? [:] : object.committedValues(forKeys: Array(changed.keys))
        var fields: [DetailField] = []
        for property in object.entity.allProperties {
            let key = property.name
            var field: DetailField
            switch property {
            case let attribute as NSAttributeDescription:
                field = DetailField(key: key, kind: .attribute(attribute.attributeType),
                                    value: DetailValueText.text(object.propertyValue(forKey: key), type: attribute.attributeType))
                if changed[key] != nil {
                    field.committedValue = DetailValueText.text(committed[key].flatMap { $0 is NSNull ? nil : $0 },
                                                                type: attribute.attributeType)
                }
            case let relationship as NSRelationshipDescription where relationship.isToMany:
                let ids = object.objectIDs(forRelationshipNamed: key)
                field = DetailField(key: key, kind: .toMany(destination: relationship.destinationEntityName, count: ids.count),
                                    value: ids.prefix(8).map(label).joined(separator: ", ")
                                        + (ids.count > 8 ? ", … (\(ids.count - 8) more)" : ""),
                                    destinations: ids)
                if changed[key] != nil { field.committedValue = "changed" }
            case let relationship as NSRelationshipDescription:
                let id = object.objectIDForToOne(key)
                field = DetailField(key: key, kind: .toOne(destination: relationship.destinationEntityName),
                                    value: id.map(label) ?? "", destinations: id.map { [$0] } ?? [])
                if changed[key] != nil {
                    let old = (committed[key] as? NSManagedObject).map { label($0.objectID) } ?? ""
                    field.committedValue = old
                }
            default:
                continue
            }
            fields.append(field)
        }
        return fields
    }
}
