import Foundation
import Predicates

/// Lightweight migration: the mapping Core Data infers between two model versions, refusing what Apple's guide
/// says it cannot infer.
extension NSMappingModel {
    /// The mapping Core Data would infer from `sourceModel` to `destinationModel`. Entities and properties are
    /// matched by their renaming identifier (the element's name in the earlier version), else by name. Throws
    /// (`NSInferredMappingModelError`'s reason, entity and property) for what Apple does not infer: an attribute
    /// whose type changed, an attribute that became a relationship or back, a relationship whose destination is no
    /// longer the migrated destination, two source entities migrated into one, and two hierarchies merged into one.
    public static func inferredMappingModel(forSourceModel sourceModel: NSManagedObjectModel,
                                            destinationModel: NSManagedObjectModel) throws(MigrationMappingError) -> NSMappingModel {
        var mappings: [NSEntityMapping] = []
        var sourceOfDestination: [String: NSEntityDescription] = [:]
        var claimedBy: [String: String] = [:]
        let destinations = destinationModel.entities.sorted { $0.entityName < $1.entityName }
        for destination in destinations {
            let key = destination.renamingIdentifier ?? destination.entityName
            guard let source = sourceModel.entitiesByName[key] ?? sourceModel.entitiesByName[destination.entityName] else {
                let mapping = NSEntityMapping(name: "AddTo\(destination.entityName)", mappingType: .addEntityMappingType,
                                              sourceEntityName: nil, destinationEntityName: destination.entityName)
                mapping.destinationEntityVersionHash = destination.versionHash
                mapping.attributeMappings = []
                mapping.relationshipMappings = []
                mappings.append(mapping)
                continue
            }
            if let other = claimedBy[source.entityName] {
                throw MigrationMappingError(reason: "both \(other) and \(destination.entityName) claim source entity \(source.entityName); "
                                                + "Core Data cannot infer a mapping that merges or duplicates entities", entity: destination.entityName)
            }
            claimedBy[source.entityName] = destination.entityName
            sourceOfDestination[destination.entityName] = source
            // Each hash once: computing one digests every property.
            let (sourceHash, destinationHash) = (source.versionHash, destination.versionHash)
            let unchanged = source.entityName == destination.entityName && sourceHash == destinationHash
            let mapping = NSEntityMapping(name: "\(source.entityName)To\(destination.entityName)",
                                          mappingType: unchanged ? .copyEntityMappingType : .transformEntityMappingType,
                                          sourceEntityName: source.entityName, destinationEntityName: destination.entityName)
            mapping.sourceEntityVersionHash = sourceHash
            mapping.destinationEntityVersionHash = destinationHash
            mapping.sourceExpression = NSEntityMapping.sourceFetchExpression(entityName: source.entityName)
            let properties = try inferProperties(of: destination, from: source, destinationModel: destinationModel, sourceModel: sourceModel)
            mapping.attributeMappings = properties.attributes
            mapping.relationshipMappings = properties.relationships
            mappings.append(mapping)
        }
        for source in sourceModel.entities.sorted(by: { $0.entityName < $1.entityName }) where claimedBy[source.entityName] == nil {
            let mapping = NSEntityMapping(name: "\(source.entityName)ToNothing", mappingType: .removeEntityMappingType,
                                          sourceEntityName: source.entityName, destinationEntityName: nil)
            mapping.sourceEntityVersionHash = source.versionHash
            mappings.append(mapping)
        }
        // Single-table inheritance: a destination hierarchy may take entities from one source hierarchy only.
        for root in destinationModel.entities where root.superentity == nil {
            let sourceRoots = Set(root.selfAndDescendants.compactMap { sourceOfDestination[$0.entityName]?.rootEntity.entityName })
            if sourceRoots.count > 1 {
                throw MigrationMappingError(reason: "the destination hierarchy under \(root.entityName) would merge the source hierarchies "
                                                + sourceRoots.sorted().joined(separator: " and ") + ", which Core Data does not infer",
                                            entity: root.entityName)
            }
        }
        return NSMappingModel(entityMappings: mappings)
    }

    private static func inferProperties(of destination: NSEntityDescription, from source: NSEntityDescription,
                                        destinationModel: NSManagedObjectModel, sourceModel: NSManagedObjectModel)
        throws(MigrationMappingError) -> (attributes: [NSPropertyMapping], relationships: [NSPropertyMapping])
    {
        var attributes: [NSPropertyMapping] = []
        var relationships: [NSPropertyMapping] = []
        let sourceProperties = source.propertiesByName
        for property in destination.allProperties.sorted(by: { $0.name < $1.name }) where !property.isTransient {
            if property is NSFetchedPropertyDescription { continue }
            let matched = sourceProperties[property.renamingIdentifier ?? property.name] ?? sourceProperties[property.name]
            let usable = matched.flatMap { $0.isTransient || $0 is NSFetchedPropertyDescription ? nil : $0 }
            switch (property, usable) {
            case (let attribute as NSAttributeDescription, let old as NSAttributeDescription):
                guard attribute is NSDerivedAttributeDescription || !(old is NSDerivedAttributeDescription) else {
                    attributes.append(NSPropertyMapping(name: attribute.name))
                    continue
                }
                guard old.attributeType == attribute.attributeType else {
                    throw MigrationMappingError(
                        reason: "attribute type changed from \(old.attributeType.xcodeName) to \(attribute.attributeType.xcodeName); "
                            + "Core Data does not infer a type change (migrate with a mapping model or a staged migration)",
                        entity: destination.entityName, property: attribute.name)
                }
                attributes.append(NSPropertyMapping(name: attribute.name, valueExpression: .sourceCopy(of: old.name)))
            case (let attribute as NSAttributeDescription, nil):
                attributes.append(NSPropertyMapping(name: attribute.name))
            case (let relationship as NSRelationshipDescription, let old as NSRelationshipDescription):
                let expected = sourceModel.entitiesByName[old.destinationEntityName]
                let target = relationship.destinationEntity
                let targetSource = target.flatMap { sourceModel.entitiesByName[$0.renamingIdentifier ?? $0.entityName] ?? sourceModel.entitiesByName[$0.entityName] }
                guard let expected, let targetSource, targetSource.isKind(of: expected) || expected.isKind(of: targetSource) else {
                    throw MigrationMappingError(
                        reason: "relationship now leads to \(relationship.destinationEntityName), which is not the migrated "
                            + "\(old.destinationEntityName); Core Data does not infer that",
                        entity: destination.entityName, property: relationship.name)
                }
                relationships.append(NSPropertyMapping(name: relationship.name, valueExpression: .sourceCopy(of: old.name)))
            case (let relationship as NSRelationshipDescription, nil):
                relationships.append(NSPropertyMapping(name: relationship.name))
            case (let new, let old?):
                throw MigrationMappingError(
                    reason: "was \(old is NSRelationshipDescription ? "a relationship" : "an attribute") and is now "
                        + "\(new is NSRelationshipDescription ? "a relationship" : "an attribute"); Core Data does not infer that",
                    entity: destination.entityName, property: new.name)
            default:
                continue
            }
        }
        return (attributes, relationships)
    }
}

extension Predicates.NSExpression {
    /// `$source.<key>`, built as a tree so that a key that is a reserved word (`size`, `first`) stays a key.
    static func sourceCopy(of key: String) -> Predicates.NSExpression {
        Predicates.NSExpression(expressionNode: .keyPathOnExpression(.variable("source"), key))
    }
}
