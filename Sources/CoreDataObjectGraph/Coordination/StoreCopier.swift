import CoreDataModel
import Foundation

/// Copies every object of one store into the store of another coordinator through two contexts, as
/// `migratePersistentStore` needs: each object's stored attributes, then every relationship, each set from the side
/// that keeps its order. It goes through contexts only, so it works for any store type either side.
struct StoreCopier {
    let source: NSPersistentStoreCoordinator
    let sourceStore: NSPersistentStore
    let destination: NSPersistentStoreCoordinator
    /// Told (objects done, objects in all) as objects are read, then as they are written (each counts twice).
    var progress: ((Int, Int) -> Void)?

    /// Copies the objects and returns each one's ID in the source with its ID in the destination, in the order read.
    func copyObjects() throws -> [(old: NSManagedObjectID, new: NSManagedObjectID)] {
        let entities = source.managedObjectModel.configurationEntities(sourceStore.configuration).filter { !$0.isAbstract }
        for entity in entities where try source.store(for: entity) !== sourceStore {
            throw CoreDataError(.persistentStoreOperation,
                                "entity \(entity.entityName) is held by another store of the coordinator, so its objects cannot be read from "
                                    + "\(sourceStore.url?.path ?? "the store being migrated")")
        }
        let reader = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        reader.persistentStoreCoordinator = source
        // Read on the reader's queue into plain records, then write them on the writer's: each context is used on its
        // own queue only.
        let records = try reader.performAndWait { try readRecords(of: entities, in: reader) }
        let writer = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        writer.persistentStoreCoordinator = destination
        let total = 2 * records.count + 1
        progress?(records.count, total)
        let migratedIDs = try writer.performAndWait {
            var copies: [NSManagedObjectID: NSManagedObject] = [:]
            copies.reserveCapacity(records.count)
            for (index, record) in records.enumerated() {
                if index % 1024 == 0 { progress?(records.count + index, total) }
                let copy = NSEntityDescription.insertNewObject(forEntityName: record.entity.entityName, into: writer)
                for (name, value) in record.attributes { copy.setPropertyValue(value, forKey: name) }
                copies[record.id] = copy
            }
            for record in records {
                guard let copy = copies[record.id] else { continue }
                for (relationship, targets) in record.relationships {
                    try link(copy, relationship, to: targets, copies: copies, from: record.id)
                }
            }
            try writer.save()
            return records.compactMap { record in copies[record.id].map { (old: record.id, new: $0.objectID) } }
        }
        progress?(total, total)
        return migratedIDs
    }

    /// One object as read from the source: its ID, stored attribute values, and the IDs each relationship set from its
    /// side leads to, in order.
    private struct Record {
        var id: NSManagedObjectID
        var entity: NSEntityDescription
        var attributes: [(String, Any?)]
        var relationships: [(NSRelationshipDescription, [NSManagedObjectID])]
    }

    private func readRecords(of entities: [NSEntityDescription], in reader: NSManagedObjectContext) throws -> [Record] {
        var records: [Record] = []
        for entity in entities {
            let request = NSFetchRequest<NSManagedObject>(entityName: entity.entityName)
            request.includesSubentities = false
            request.returnsObjectsAsFaults = false
            request.includesPendingChanges = false
            let attributes = entity.attributesByName.values.filter(Self.isCopied).map(\.name).sorted()
            let relationships = entity.relationshipsByName.values.filter(Self.isSetFromThisSide).sorted { $0.name < $1.name }
            for original in try reader.fetch(request) {
                records.append(Record(
                    id: original.objectID, entity: entity,
                    attributes: attributes.map { ($0, original.propertyValue(forKey: $0)) },
                    relationships: relationships.map { relationship in
                        if !relationship.isToMany {
                            return (relationship, (original.value(forKey: relationship.name) as? NSManagedObject).map { [$0.objectID] } ?? [])
                        }
                        let targets = relationship.isOrdered ? original.mutableOrderedSetValue(forKey: relationship.name).allObjects
                            : original.mutableSetValue(forKey: relationship.name).allObjects
                        return (relationship, targets.map(\.objectID))
                    }))
            }
        }
        return records
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

    private func link(_ copy: NSManagedObject, _ relationship: NSRelationshipDescription, to targets: [NSManagedObjectID],
                      copies: [NSManagedObjectID: NSManagedObject], from source: NSManagedObjectID) throws {
        let counterparts = try targets.map { target -> NSManagedObject in
            guard let found = copies[target] else {
                throw CoreDataError(.persistentStoreOperation,
                                    "\(source.uriRepresentation().absoluteString): relationship \(relationship.name) leads to "
                                        + "\(target.uriRepresentation().absoluteString), which is not in the store being migrated")
            }
            return found
        }
        if !relationship.isToMany {
            if let target = counterparts.first { copy.setValue(target, forKey: relationship.name) }
        } else if relationship.isOrdered {
            let set = copy.mutableOrderedSetValue(forKey: relationship.name)
            for target in counterparts { set.add(target) }
        } else {
            let set = copy.mutableSetValue(forKey: relationship.name)
            for target in counterparts { set.add(target) }
        }
    }
}
