import CoreDataModel
import Foundation

/// Copies every object of one store into the store of another coordinator through two contexts, as
/// `migratePersistentStore` needs: each object's stored attributes, then every relationship, each set from the side
/// that keeps its order. It goes through contexts only, so it works for any store type either side.
struct StoreCopier {
    let source: NSPersistentStoreCoordinator
    let sourceStore: NSPersistentStore
    let destination: NSPersistentStoreCoordinator

    func copyObjects() throws {
        let entities = source.managedObjectModel.entities(forConfigurationName: sourceStore.configurationName).filter { !$0.isAbstract }
        for entity in entities where try source.store(for: entity) !== sourceStore {
            throw CoreDataError(.persistentStoreOperation,
                                "entity \(entity.name) is held by another store of the coordinator, so its objects cannot be read from "
                                    + "\(sourceStore.url?.path ?? "the store being migrated")")
        }
        let reader = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        reader.persistentStoreCoordinator = source
        let writer = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        writer.persistentStoreCoordinator = destination
        try reader.performAndWait {
            try writer.performAndWait {
                var copies: [NSManagedObjectID: NSManagedObject] = [:]
                var originals: [NSManagedObject] = []
                for entity in entities {
                    let request = NSFetchRequest<NSManagedObject>(entityName: entity.name)
                    request.includesSubentities = false
                    request.returnsObjectsAsFaults = false
                    request.includesPendingChanges = false
                    for original in try reader.fetch(request) {
                        let copy = NSEntityDescription.insertNewObject(forEntityName: entity.name, into: writer)
                        for attribute in entity.attributesByName.values where Self.isCopied(attribute) {
                            copy.setValue(original.value(forKey: attribute.name), forKey: attribute.name)
                        }
                        copies[original.objectID] = copy
                        originals.append(original)
                    }
                }
                for original in originals {
                    guard let copy = copies[original.objectID] else { continue }
                    for relationship in original.entity.relationshipsByName.values where Self.isSetFromThisSide(relationship) {
                        try copyRelationship(relationship, of: original, to: copy, copies: copies)
                    }
                }
                try writer.save()
            }
        }
    }

    /// Stored attributes only: transient ones are not in the store, and derived ones are computed by it.
    private static func isCopied(_ attribute: NSAttributeDescription) -> Bool {
        !attribute.isTransient && !(attribute is NSDerivedAttributeDescription)
    }

    /// Each relationship is set from one side where the other side's order would otherwise be lost: an ordered to-many
    /// side sets itself and its inverse; a to-many whose inverse is a to-one is set through that to-one.
    private static func isSetFromThisSide(_ relationship: NSRelationshipDescription) -> Bool {
        guard !relationship.isTransient else { return false }
        guard let inverse = relationship.inverseRelationship else { return true }
        if relationship.isToMany && relationship.isOrdered { return true }
        if inverse.isToMany && inverse.isOrdered { return false }
        if relationship.isToMany && !inverse.isToMany { return false }
        return true
    }

    private func copyRelationship(_ relationship: NSRelationshipDescription, of original: NSManagedObject, to copy: NSManagedObject,
                                  copies: [NSManagedObjectID: NSManagedObject]) throws {
        func counterpart(_ object: NSManagedObject) throws -> NSManagedObject {
            guard let found = copies[object.objectID] else {
                throw CoreDataError(.persistentStoreOperation,
                                    "\(original.entity.name) \(original.objectID.uriRepresentation().absoluteString): relationship "
                                        + "\(relationship.name) leads to \(object.objectID.uriRepresentation().absoluteString), which is not in "
                                        + "the store being migrated")
            }
            return found
        }
        if !relationship.isToMany {
            guard let target = original.value(forKey: relationship.name) as? NSManagedObject else { return }
            copy.setValue(try counterpart(target), forKey: relationship.name)
        } else if relationship.isOrdered {
            let targets = copy.mutableOrderedSetValue(forKey: relationship.name)
            for target in original.mutableOrderedSetValue(forKey: relationship.name).allObjects {
                targets.add(try counterpart(target))
            }
        } else {
            let targets = copy.mutableSetValue(forKey: relationship.name)
            for target in original.mutableSetValue(forKey: relationship.name).allObjects {
                targets.add(try counterpart(target))
            }
        }
    }
}
