import CoreDataModel
import CoreDataObjectGraph
import Foundation
import Predicates
import StoreAccess

/// The conflict pane (issue 21): a write refused by optimistic locking (another process changed the rows since the
/// browser read them) lists each conflicting object and field with three values, named by labels: **mine** (the
/// browser's unsaved value), **theirs** (what the store holds now) and **read** (what the store held when the browser
/// read the object). Each field is resolved as mine or theirs; resolving re-bases the objects on the store's
/// current rows, so the next write succeeds.
///
/// Keeping mine everywhere is `NSMergeByPropertyObjectTrumpMergePolicy`'s outcome: the fields the browser changed
/// win, the other process's other changes are kept. Taking theirs everywhere drops the browser's changes to those
/// objects (a refresh). Objects whose row was deleted meanwhile can only take theirs.
struct ConflictModel {
    enum Side: Equatable {
        case mine, theirs
    }

    struct Field {
        var key: String
        var mine: String
        var theirs: String
        var read: String
        /// The store's current value, to set when taking theirs (an object ID for a to-one; nil for nil).
        var theirValue: Any?
        var choice: Side
        /// The browser changed this field (otherwise only the other process did, and theirs is taken).
        var changedByMe: Bool
    }

    struct Entry {
        var objectID: NSManagedObjectID
        var title: String
        /// The row is gone from the store: only theirs (dropping my changes) is possible.
        var deletedByThem: Bool
        var fields: [Field]
    }

    var entries: [Entry]
    /// The selected field, counted over every entry's fields in order.
    var selection = 0
    var top = 0

    /// Reads the store's current rows of `ids` on a context of its own and compares them with the browser's
    /// objects in `context`. Call it on `context`'s queue.
    init(conflicting ids: [NSManagedObjectID], in context: NSManagedObjectContext, labels: ObjectLabel) throws {
        guard let coordinator = context.persistentStoreCoordinator else { throw StoreAccessError("the store is closed") }
        let reader = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        reader.name = "browser conflict"
        reader.persistentStoreCoordinator = coordinator
        // Fresh rows: a fetch always asks the store, whatever the row cache holds.
        let current: [NSManagedObjectID: NSManagedObject] = try reader.performAndWait {
            var found: [NSManagedObjectID: NSManagedObject] = [:]
            for (name, group) in Dictionary(grouping: ids, by: { $0.entity.entityName }) {
                let request = NSFetchRequest<NSManagedObject>(entityName: name)
                request.predicate = Predicates.NSPredicate(format: "SELF IN %@", argumentArray: [group])
                request.returnsObjectsAsFaults = false
                for object in try reader.fetch(request) { found[object.objectID] = object }
            }
            return found
        }
        entries = ids.sorted { ($0.entity.entityName, $0.primaryKey) < ($1.entity.entityName, $1.primaryKey) }.compactMap { id in
            guard let mine = context.registeredObject(for: id) else { return nil }
            let title = ChangeSummary.name(of: mine, labels: labels)
            guard let theirs = current[id] else {
                return Entry(objectID: id, title: title, deletedByThem: true, fields: [])
            }
            let changed = mine.changedValues()
            let attributeKeys = mine.entity.allProperties.filter { property in
                if let attribute = property as? NSAttributeDescription { return !attribute.isTransient }
                return (property as? NSRelationshipDescription)?.isToMany == false
            }.map(\.name)
            let read = mine.committedValues(forKeys: attributeKeys)
            var fields: [Field] = []
            for key in attributeKeys.sorted() {
                let isRelationship = mine.entity.relationshipsByName[key] != nil
                let theirText: String
                let theirValue: Any?
                let readText: String
                let mineText: String
                if isRelationship {
                    let theirID = reader.performAndWait { theirs.objectIDForToOne(key) }
                    theirValue = theirID
                    theirText = Self.label(theirID, in: context, labels: labels)
                    readText = Self.label((read[key] as? NSManagedObject)?.objectID, in: context, labels: labels)
                    mineText = Self.label(mine.objectIDForToOne(key), in: context, labels: labels)
                } else {
                    let value = reader.performAndWait { theirs.propertyValue(forKey: key) }
                    theirValue = value
                    theirText = ChangeSummary.describe(value)
                    readText = ChangeSummary.describe(read[key])
                    mineText = ChangeSummary.describe(mine.propertyValue(forKey: key))
                }
                let changedByMe = changed[key] != nil
                let changedByThem = theirText != readText
                guard changedByMe || changedByThem else { continue }
                fields.append(Field(key: key, mine: mineText, theirs: theirText, read: readText, theirValue: theirValue,
                                    choice: changedByMe ? .mine : .theirs, changedByMe: changedByMe))
            }
            return Entry(objectID: id, title: title, deletedByThem: false, fields: fields)
        }
    }

    private static func label(_ id: NSManagedObjectID?, in context: NSManagedObjectContext, labels: ObjectLabel) -> String {
        guard let id else { return "nil" }
        return (try? labels.labels(for: [id], in: context))?[id] ?? ObjectLabel.idText(id)
    }

    /// Every field in order, with its entry's index.
    var rows: [(entry: Int, field: Int)] {
        entries.indices.flatMap { entry in entries[entry].fields.indices.map { (entry, $0) } }
    }

    /// Sets the selected field's side; a field only the other process changed always takes theirs (there is no
    /// change of mine to keep). Returns whether the choice was taken.
    @discardableResult
    mutating func choose(_ side: Side) -> Bool {
        let all = rows
        guard all.indices.contains(selection) else { return false }
        let (entry, field) = all[selection]
        guard side == .theirs || entries[entry].fields[field].changedByMe else { return false }
        entries[entry].fields[field].choice = side
        return true
    }

    /// Sets every field's side: mine keeps each field the browser changed (object trump), theirs takes the store's.
    mutating func chooseAll(_ side: Side) {
        for entry in entries.indices {
            for field in entries[entry].fields.indices {
                entries[entry].fields[field].choice = side == .theirs || !entries[entry].fields[field].changedByMe ? .theirs : .mine
            }
        }
    }

    /// The pane's lines: per object a title, per field `key  mine … theirs … read …  ◂ choice`.
    func lines() -> (lines: [String], selectable: [Int]) {
        var lines = ["Another process changed these objects since the browser read them.", ""]
        var selectable: [Int] = []
        let keyWidth = max(8, entries.flatMap(\.fields).map(\.key.count).max() ?? 0)
        for entry in entries {
            lines.append(entry.title + (entry.deletedByThem ? ": deleted by the other process (your changes to it are dropped)" : ""))
            for field in entry.fields {
                selectable.append(lines.count)
                let key = field.key.padding(toLength: keyWidth, withPad: " ", startingAt: 0)
                let choice = field.choice == .mine ? "keep mine" : "take theirs"
                lines.append("  \(key)  mine: \(field.mine)   theirs: \(field.theirs)   read: \(field.read)   → \(choice)")
            }
        }
        return (lines, selectable)
    }

    /// Re-bases every conflicting object on the store's current row and applies the choices, in `context` (call on
    /// its queue): fields kept as mine stay changed, fields taken as theirs get the store's value. An object whose
    /// every field is theirs, or whose row is gone, is refreshed, dropping the browser's changes to it.
    func apply(in context: NSManagedObjectContext) {
        for entry in entries {
            guard let object = context.registeredObject(for: entry.objectID) else { continue }
            if entry.deletedByThem || entry.fields.allSatisfy({ $0.choice == .theirs }) {
                context.refresh(object, mergeChanges: false)
                continue
            }
            // The store's current values and version, with the browser's changes re-applied over them.
            context.refresh(object, mergeChanges: true)
            for field in entry.fields where field.choice == .theirs && field.changedByMe {
                if object.entity.relationshipsByName[field.key] != nil {
                    let destination = (field.theirValue as? NSManagedObjectID).map { context.object(with: $0) }
                    object.setValue(destination, forKey: field.key)
                } else {
                    object.setValue(field.theirValue, forKey: field.key)
                }
            }
        }
    }
}
