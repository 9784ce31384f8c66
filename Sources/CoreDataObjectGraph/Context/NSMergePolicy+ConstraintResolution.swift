import CoreDataModel
import Foundation

/// The built-in resolution of uniqueness conflicts: the duplicates become one object. With a store-level conflict the
/// object whose row holds the values survives (it keeps its ID and relationships), as Apple's does; with a
/// context-level one, a saved object among the duplicates, else the first inserted.
///
/// - object trump and overwrite: the survivor takes the other objects' values (every property of an inserted object,
///   the changed ones of a saved object), later objects over earlier ones;
/// - store trump: the survivor keeps its values;
/// - rollback: the same, and the others' to-many destinations are not carried over.
///
/// Except under rollback, the others' to-many destinations join the survivor's. The others are then deleted, their
/// relationships cleared first, so their delete rules never reach objects they shared with the survivor.
extension NSMergePolicy {
    func mergeDuplicates(of conflict: NSConstraintConflict) {
        let survivor: NSManagedObject
        var others: [NSManagedObject]
        if let database = conflict.databaseObject {
            (survivor, others) = (database, conflict.conflictingObjects)
        } else {
            guard let chosen = conflict.conflictingObjects.first(where: { !$0.isInserted }) ?? conflict.conflictingObjects.first else { return }
            (survivor, others) = (chosen, conflict.conflictingObjects.filter { $0 !== chosen })
        }
        // An earlier conflict (another constraint) may already have merged some of them.
        guard let context = survivor.managedObjectContext, !survivor.isDeleted else { return }
        others.removeAll { $0 === survivor || $0.isDeleted || $0.managedObjectContext !== context }
        for other in others {
            if mergeType == .mergeByPropertyObjectTrumpMergePolicyType || mergeType == .overwriteMergePolicyType {
                copyValues(from: other, to: survivor)
            }
            if mergeType != .rollbackMergePolicyType { joinToMany(from: other, into: survivor) }
            detach(other)
            context.delete(other)
        }
    }

    /// Attributes and to-one relationships of `source` that `target`'s entity has too.
    private func copyValues(from source: NSManagedObject, to target: NSManagedObject) {
        let changed = source.isInserted ? nil : Set(source.changedValues().keys)
        for (name, property) in target.entity.propertiesByName where !property.isTransient {
            guard changed?.contains(name) ?? true, source.entity.propertiesByName[name] != nil else { continue }
            switch property {
            case is NSAttributeDescription:
                if property is NSDerivedAttributeDescription { continue }
                target.setValue(source.value(forKey: name), forKey: name)
            case let relationship as NSRelationshipDescription where !relationship.isToMany:
                target.setValue(source.value(forKey: name), forKey: name)
            default:
                continue
            }
        }
    }

    /// Adds `source`'s to-many destinations to `target`'s.
    private func joinToMany(from source: NSManagedObject, into target: NSManagedObject) {
        for (name, relationship) in target.entity.relationshipsByName where relationship.isToMany && !relationship.isTransient {
            guard source.entity.relationshipsByName[name]?.isToMany == true else { continue }
            let destinations = members(of: source, relationship)
            guard !destinations.isEmpty else { continue }
            (relationship.isOrdered ? target.mutableOrderedSetValue(forKey: name) : target.mutableSetValue(forKey: name))
                .addObjects(from: destinations)
        }
    }

    /// Clears every relationship of `object`, so that deleting it leaves its destinations as they are.
    private func detach(_ object: NSManagedObject) {
        for (name, relationship) in object.entity.relationshipsByName where !relationship.isTransient {
            if relationship.isToMany {
                let set = relationship.isOrdered ? object.mutableOrderedSetValue(forKey: name) : object.mutableSetValue(forKey: name)
                if set.count > 0 { set.removeAllObjects() }
            } else if object.value(forKey: name) != nil {
                object.setValue(nil, forKey: name)
            }
        }
    }

    private func members(of object: NSManagedObject, _ relationship: NSRelationshipDescription) -> [NSManagedObject] {
        (relationship.isOrdered ? object.mutableOrderedSetValue(forKey: relationship.name) : object.mutableSetValue(forKey: relationship.name))
            .allObjects
    }
}
