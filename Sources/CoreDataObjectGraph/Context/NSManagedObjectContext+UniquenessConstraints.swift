import CoreDataModel
import Foundation
import Predicates

/// Uniqueness constraints at save time, as Apple's Core Data checks them: objects about to be saved must not share a
/// constraint's values with each other or with a row already in the store. Conflicts go to the context's merge policy
/// as ``NSConstraintConflict``s before anything is written.
extension NSManagedObjectContext {
    /// Finds the save's constraint conflicts and hands them to the merge policy; throws
    /// `NSManagedObjectConstraintMergeError` for those still there after the policy returns. A model without constraints
    /// costs one look at its entities.
    func resolveUniquenessConflicts(coordinator: NSPersistentStoreCoordinator) throws {
        let conflicts = try uniquenessConflicts(coordinator: coordinator)
        guard !conflicts.isEmpty else { return }
        try mergePolicy.resolve(mergeConflicts: conflicts)
        // The policy may have deleted or changed objects: their deletions propagate before the second look.
        processPendingChanges()
        let left = try uniquenessConflicts(coordinator: coordinator)
        if !left.isEmpty { throw NSMergePolicy.constraintError(left) }
    }

    /// One constraint of one entity. Only constraints of stored attributes are checked: one naming a relationship
    /// never matches (see `constraintValues`).
    private struct Constraint: Hashable {
        let entity: ObjectIdentifier
        let names: [String]
    }

    /// The constraint conflicts of the objects the next save inserts or updates.
    func uniquenessConflicts(coordinator: NSPersistentStoreCoordinator) throws -> [NSConstraintConflict] {
        // Most models declare no constraint: their saves stop here.
        guard coordinator.managedObjectModel.entities.contains(where: { !$0.uniquenessConstraintNames.isEmpty }) else { return [] }
        var groups: [Constraint: (entity: NSEntityDescription, objects: [NSManagedObject])] = [:]
        var order: [Constraint] = []
        var deletedIDs: Set<NSManagedObjectID> = []
        for object in changedObjects.values {
            if object.isDeleted {
                deletedIDs.insert(object.objectID)
                continue
            }
            guard object.isInserted || object.changes.hasStoredChanges else { continue }
            var entity: NSEntityDescription? = object.entity
            while let declaring = entity {
                for names in declaring.uniquenessConstraintNames where !names.isEmpty {
                    let key = Constraint(entity: ObjectIdentifier(declaring), names: names)
                    if groups[key] == nil { order.append(key) }
                    groups[key, default: (declaring, [])].objects.append(object)
                }
                entity = declaring.superentity
            }
        }
        var conflicts: [NSConstraintConflict] = []
        for key in order {
            guard let (entity, objects) = groups[key] else { continue }
            conflicts += try constraintConflicts(of: objects, constraint: key.names, entity: entity, deletedIDs: deletedIDs,
                                                 coordinator: coordinator)
        }
        return conflicts
    }

    /// The conflicts of `objects` (the save's inserted and changed objects of `entity` or its subentities) over one
    /// constraint: among themselves, then with the store's rows.
    private func constraintConflicts(of objects: [NSManagedObject], constraint names: [String], entity: NSEntityDescription,
                                     deletedIDs: Set<NSManagedObjectID>, coordinator: NSPersistentStoreCoordinator) throws -> [NSConstraintConflict] {
        var byValues: [[AttributeValue]: [NSManagedObject]] = [:]
        var valueOrder: [[AttributeValue]] = []
        for object in objects {
            // A NULL in any of the properties never conflicts, as in the store's unique index.
            guard let values = constraintValues(of: object, names) else { continue }
            if byValues[values] == nil { valueOrder.append(values) }
            byValues[values, default: []].append(object)
        }
        var conflicts: [NSConstraintConflict] = []
        for values in valueOrder {
            let sharing = byValues[values]!
            if sharing.count > 1 {
                conflicts.append(NSConstraintConflict(constraint: names, database: nil, databaseSnapshot: nil, conflicting: sharing,
                                                      conflictingSnapshots: sharing.map(Self.savedSnapshot)))
            }
        }
        // The store's rows with the same values, other than rows this save deletes or rewrites (those are among
        // `objects`, checked above with their new values). Only new values can meet such a row: a saved object that
        // kept its values holds its own row.
        let saving = Set(objects.lazy.filter { !$0.objectID.isTemporaryID }.map(\.objectID))
        let isNew: (NSManagedObject) -> Bool = { object in
            object.isInserted || names.contains { name in
                object.slots.index(of: name).map(object.changes.changedSlots.contains) ?? false
            }
        }
        let checked = valueOrder.filter { byValues[$0]!.contains(where: isNew) }
        // Looked up in batches (an import inserts thousands): `IN` for one property, ORed comparisons for several.
        let batch = names.count == 1 ? 500 : 50
        for start in stride(from: 0, to: checked.count, by: batch) {
            let chunk = checked[start..<min(start + batch, checked.count)]
            let predicate: Predicates.NSPredicate
            if names.count == 1 {
                predicate = try Predicates.NSPredicate(parsing: "%K IN %@", argumentArray: [names[0], chunk.map { $0[0].objectValue }])
            } else {
                let clause = "(" + names.map { _ in "%K == %@" }.joined(separator: " AND ") + ")"
                var arguments: [Any?] = []
                for values in chunk {
                    for (name, value) in zip(names, values) { arguments += [name, value.objectValue] }
                }
                predicate = try Predicates.NSPredicate(parsing: Array(repeating: clause, count: chunk.count).joined(separator: " OR "),
                                            argumentArray: arguments)
            }
            let fetch = ResolvedFetch(entity: entity, predicate: predicate.predicateNode)
            for store in try coordinator.stores(holding: entity, among: nil) {
                let rows = try coordinator.withLock { try store.executeFetch(fetch) }
                for row in rows where !saving.contains(row.objectID) && !deletedIDs.contains(row.objectID) {
                    let databaseObject = object(with: row.objectID)
                    guard let snapshot = row.snapshot, let values = rowValues(snapshot, of: databaseObject, names),
                          let sharing = byValues[values] else { continue }
                    let dictionary = databaseObject.snapshotDictionary(snapshot.values)
                    for conflicting in sharing {
                        conflicts.append(NSConstraintConflict(
                            constraint: names, database: databaseObject, databaseSnapshot: dictionary, conflicting: [conflicting],
                            conflictingSnapshots: [Self.savedSnapshot(conflicting)]))
                    }
                }
            }
        }
        return conflicts
    }

    /// The values of the constraint's properties, nil when one is nil or is not a stored attribute.
    private func constraintValues(of object: NSManagedObject, _ names: [String]) -> [AttributeValue]? {
        if object.storedValues == nil { fulfillFault(for: object) }
        guard let stored = object.storedValues else { return nil }
        var values: [AttributeValue] = []
        for name in names {
            guard let slot = object.slots.index(of: name), slot < stored.count, case .attribute(let value) = stored[slot] else { return nil }
            values.append(value)
        }
        return values
    }

    /// The constraint's values in a row of `object`'s entity.
    private func rowValues(_ row: Snapshot, of object: NSManagedObject, _ names: [String]) -> [AttributeValue]? {
        var values: [AttributeValue] = []
        for name in names {
            guard let slot = object.slots.index(of: name), slot < row.values.count, case .attribute(let value) = row.values[slot] else { return nil }
            values.append(value)
        }
        return values
    }

    /// An object's values as last fetched or saved, empty for one never saved (Apple's `conflictingSnapshots`).
    private static func savedSnapshot(_ object: NSManagedObject) -> [AnyHashable: Any] {
        guard !object.isInserted, let committed = object.changes.committedStoredValues ?? object.storedValues else { return [:] }
        return Dictionary(uniqueKeysWithValues: object.snapshotDictionary(committed).map { (AnyHashable($0.key), $0.value) })
    }
}
