import CoreDataModel
import Foundation

/// The checks every object graph passes before it is handed out by a reader or written by a writer: unique
/// references, concrete entities, known properties, values that fit their attributes, and relationships that name
/// existing objects of the right entity, at most one for a to-one.
struct StoreFileGraphCheck {
    let schema: StoreFileSchema
    let file: String
    /// How the format spells a reference in messages (`z102` in XML, `7` in binary).
    let spell: (Int64) -> String
    /// Where object `index` (and its relationship, when named) sits in the file.
    let locate: (_ index: Int, _ relationship: String?) -> StoreFileError.Location

    /// Checks `objects`, which must be sorted by reference (duplicates are then neighbours, and destinations are
    /// found by binary search: no table of 100,000 references is built).
    func check(_ objects: [StoreFileObject]) throws(StoreFileError) {
        var references: [Int64] = []
        references.reserveCapacity(objects.count)
        var lastPlan: StoreFileSchema.EntityPlan?
        for (index, object) in objects.enumerated() {
            guard object.reference > 0 else {
                throw failure(index, nil, "object \(spell(object.reference)) has a reference below 1")
            }
            if index > 0 && objects[index - 1].reference == object.reference {
                throw failure(index, nil, "object \(spell(object.reference)) appears twice (as a \(objects[index - 1].entity.entityName) "
                              + "and as a \(object.entity.entityName))")
            }
            references.append(object.reference)
            guard !object.entity.isAbstract else {
                throw failure(index, nil, "object \(spell(object.reference)) is of the abstract entity \(object.entity.entityName)")
            }
            let plan = lastPlan?.entity === object.entity ? lastPlan! : schema.plan(for: object.entity)
            lastPlan = plan
            for (name, value) in object.attributes {
                guard let attribute = plan.attributesByName[name] else {
                    throw failure(index, nil, "object \(spell(object.reference)) (\(object.entity.entityName)) has a value for "
                                  + "\(name), which is not a stored attribute of the entity")
                }
                if let problem = StoreFileValueCheck.problem(with: value, for: attribute) {
                    throw failure(index, nil, "object \(spell(object.reference)) (\(object.entity.entityName)): \(problem)")
                }
            }
        }
        for (index, object) in objects.enumerated() where !object.relationships.isEmpty {
            let plan = lastPlan?.entity === object.entity ? lastPlan! : schema.plan(for: object.entity)
            lastPlan = plan
            for (name, destinations) in object.relationships {
                try checkRelationship(name, destinations, of: object, at: index, plan: plan, objects: objects, references: references)
            }
        }
    }

    /// The entity of the object with `reference`, by binary search in the sorted references.
    private func entity(of reference: Int64, objects: [StoreFileObject], references: [Int64]) -> NSEntityDescription? {
        var low = 0, high = references.count
        while low < high {
            let middle = (low + high) / 2
            if references[middle] < reference { low = middle + 1 } else { high = middle }
        }
        return low < references.count && references[low] == reference ? objects[low].entity : nil
    }

    private func checkRelationship(_ name: String, _ destinations: [Int64], of object: StoreFileObject, at index: Int,
                                   plan: StoreFileSchema.EntityPlan, objects: [StoreFileObject],
                                   references: [Int64]) throws(StoreFileError) {
        let owner = "object \(spell(object.reference)) (\(object.entity.entityName))"
        guard let relationship = plan.relationshipsByName[name] else {
            throw failure(index, name, "\(owner) names \(name), which is not a stored relationship of the entity")
        }
        guard !destinations.isEmpty else {
            throw failure(index, name, "\(owner) has an empty list for \(name) (an empty relationship is left out)")
        }
        if !relationship.isToMany && destinations.count > 1 {
            throw failure(index, name, "\(owner): the to-one relationship \(name) names \(destinations.count) objects")
        }
        var seen = Set<Int64>(minimumCapacity: destinations.count > 1 ? destinations.count : 0)
        for destination in destinations {
            guard destinations.count == 1 || seen.insert(destination).inserted else {
                throw failure(index, name, "\(owner): relationship \(name) names \(spell(destination)) twice")
            }
            guard let destinationEntity = entity(of: destination, objects: objects, references: references) else {
                throw failure(index, name, "\(owner): relationship \(name) refers to \(spell(destination)), which is not "
                              + "an object of the file")
            }
            if let wanted = relationship.destinationEntity, !destinationEntity.isKind(of: wanted) {
                throw failure(index, name, "\(owner): relationship \(name) refers to \(spell(destination)), a "
                              + "\(destinationEntity.entityName), not a \(wanted.entityName)")
            }
        }
    }

    private func failure(_ index: Int, _ relationship: String?, _ reason: String) -> StoreFileError {
        StoreFileError(file: file, location: locate(index, relationship), reason: reason)
    }
}
