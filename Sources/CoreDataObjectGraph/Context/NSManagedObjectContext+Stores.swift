import CoreDataModel
import Foundation

/// One store's share of a save.
struct SaveGroup {
    let store: any RowStore
    var inserted: [NSManagedObject] = []
    var updated: [NSManagedObject] = []
    var deleted: [NSManagedObject] = []

    /// The store as a persistent store (every row store the coordinator hands out is one).
    var persistentStore: NSPersistentStore { store as! NSPersistentStore }
}

extension NSManagedObjectContext {
    /// Makes `object`, inserted and not saved yet, go to `store` when it is saved, rather than to the first store that
    /// holds its entity, as Apple's `assign(_:to:)`. The save refuses, naming both, a store whose configuration does
    /// not include the object's entity; an object that is saved already stays in its store.
    public func assign(_ object: Any, to store: NSPersistentStore) {
        guard let object = object as? NSManagedObject, object.objectID.isTemporaryID,
              let coordinator = persistentStoreCoordinator else { return }
        coordinator.assign(object.objectID, to: store)
    }

    /// The stores a save writes to, each with its objects, in the order the stores were added. With one store every
    /// object goes to it (after checking that it holds each entity, once per entity); with several, each object goes
    /// to its own store (an unsaved one to the store it was assigned to, else the first that holds its entity), and a
    /// relationship between objects of two stores is refused, as Apple's coordinator refuses it.
    func storeGroups(inserted: [NSManagedObject], updated: [NSManagedObject], deleted: [NSManagedObject],
                     coordinator: NSPersistentStoreCoordinator) throws -> [SaveGroup] {
        let written = [inserted, updated, deleted].joined()
        guard coordinator.hasSeveralStores else {
            let store = try coordinator.store(for: written.first!.entity)
            // One lookup per entity, not per object (and no hashing while the entity stays the same).
            var checkedEntities: Set<ObjectIdentifier> = [ObjectIdentifier(written.first!.entity)]
            var lastEntity = written.first!.entity
            for object in written where object.entity !== lastEntity {
                lastEntity = object.entity
                guard checkedEntities.insert(ObjectIdentifier(object.entity)).inserted else { continue }
                _ = try coordinator.store(for: object.entity)
            }
            return [SaveGroup(store: store, inserted: inserted, updated: updated, deleted: deleted)]
        }
        var groups: [SaveGroup] = []
        func group(of object: NSManagedObject) throws -> Int {
            let store = try coordinator.store(for: object.objectID)
            if let index = groups.firstIndex(where: { $0.store === store }) { return index }
            let persistentStore = store as! NSPersistentStore
            guard coordinator.holds(persistentStore, object.entity) else {
                throw CoreDataError(.persistentStoreSave,
                                    "\(object.objectID.uriRepresentation().absoluteString): an object of \(object.entity.entityName) was assigned to "
                                        + "the store at \(persistentStore.url?.path ?? "?"), whose configuration \(persistentStore.configurationName) "
                                        + "does not include that entity", affectedObjectIDs: [object.objectID])
            }
            groups.append(SaveGroup(store: store))
            return groups.count - 1
        }
        // The index first: finding it may add a group, which must not happen while a group is being changed.
        for object in inserted {
            let index = try group(of: object)
            groups[index].inserted.append(object)
        }
        for object in updated {
            let index = try group(of: object)
            groups[index].updated.append(object)
        }
        for object in deleted {
            let index = try group(of: object)
            groups[index].deleted.append(object)
        }
        for object in [inserted, updated].joined() {
            let own = try coordinator.store(for: object.objectID)
            for relationship in object.entity.relationshipsByName.values where !relationship.isTransient {
                for id in object.objectIDs(forRelationshipNamed: relationship.name) where try coordinator.store(for: id) !== own {
                    throw CoreDataError(.persistentStoreSave,
                                        "\(object.entity.entityName).\(relationship.name): \(object.objectID.uriRepresentation().absoluteString) "
                                            + "and \(id.uriRepresentation().absoluteString) are in different stores; a relationship cannot cross "
                                            + "stores (assign both objects to one store, or use a fetched property)",
                                        affectedObjectIDs: [object.objectID])
                }
            }
        }
        let order = coordinator.persistentStores.map(ObjectIdentifier.init)
        return groups.sorted { lhs, rhs in
            (order.firstIndex(of: ObjectIdentifier(lhs.persistentStore)) ?? 0) < (order.firstIndex(of: ObjectIdentifier(rhs.persistentStore)) ?? 0)
        }
    }
}
