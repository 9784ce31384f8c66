import Foundation

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
        let destinations = destinationModel.entities.sorted { $0.name < $1.name }
        for destination in destinations {
            let key = destination.renamingIdentifier ?? destination.name
            guard let source = sourceModel.entitiesByName[key] ?? sourceModel.entitiesByName[destination.name] else {
                let mapping = NSEntityMapping(name: "AddTo\(destination.name)", mappingType: .addEntityMappingType,
                                              sourceEntityName: nil, destinationEntityName: destination.name)
                mapping.destinationEntityVersionHash = destination.versionHash
                mapping.attributeMappings = []
                mapping.relationshipMappings = []
                mappings.append(mapping)
                continue
            }
            if let other = claimedBy[source.name] {
                throw MigrationMappingError(reason: "both \(other) and \(destination.name) claim source entity \(source.name); "
                                                + "Core Data cannot infer a mapping that merges or duplicates entities", entity: destination.name)
            }
            claimedBy[source.name] = destination.name
            sourceOfDestination[destination.name] = source
            // Each hash once: computing one digests every property.
            let (sourceHash, destinationHash) = (source.versionHash, destination.versionHash)
            let unchanged = source.name == destination.name && sourceHash == destinationHash
            let mapping = NSEntityMapping(name: "\(source.name)To\(destination.name)",
                                          mappingType: unchanged ? .copyEntityMappingType : .transformEntityMappingType,
                                          sourceEntityName: source.name, destinationEntityName: destination.name)
            mapping.sourceEntityVersionHash = sourceHash
            mapping.destinationEntityVersionHash = destinationHash
            mapping.sourceExpression = "FETCH(FUNCTION($manager, \"fetchRequestForSourceEntityNamed:predicateString:\", \"\(source.name)\", \"TRUEPREDICATE\"), $manager.sourceContext, NO)"
            let properties = try inferProperties(of: destination, from: source, destinationModel: destinationModel, sourceModel: sourceModel)
            mapping.attributeMappings = properties.attributes
            mapping.relationshipMappings = properties.relationships
            mappings.append(mapping)
        }
        for source in sourceModel.entities.sorted(by: { $0.name < $1.name }) where claimedBy[source.name] == nil {
            let mapping = NSEntityMapping(name: "\(source.name)ToNothing", mappingType: .removeEntityMappingType,
                                          sourceEntityName: source.name, destinationEntityName: nil)
            mapping.sourceEntityVersionHash = source.versionHash
            mappings.append(mapping)
        }
        // Single-table inheritance: a destination hierarchy may take entities from one source hierarchy only.
        for root in destinationModel.entities where root.superentity == nil {
            let sourceRoots = Set(root.selfAndDescendants.compactMap { sourceOfDestination[$0.name]?.rootEntity.name })
            if sourceRoots.count > 1 {
                throw MigrationMappingError(reason: "the destination hierarchy under \(root.name) would merge the source hierarchies "
                                                + sourceRoots.sorted().joined(separator: " and ") + ", which Core Data does not infer",
                                            entity: root.name)
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
                        entity: destination.name, property: attribute.name)
                }
                attributes.append(NSPropertyMapping(name: attribute.name, valueExpression: "$source.\(old.name)"))
            case (let attribute as NSAttributeDescription, nil):
                attributes.append(NSPropertyMapping(name: attribute.name))
            case (let relationship as NSRelationshipDescription, let old as NSRelationshipDescription):
                let expected = sourceModel.entitiesByName[old.destinationEntityName]
                let target = relationship.destinationEntity
                let targetSource = target.flatMap { sourceModel.entitiesByName[$0.renamingIdentifier ?? $0.name] ?? sourceModel.entitiesByName[$0.name] }
                guard let expected, let targetSource, targetSource.isKind(of: expected) || expected.isKind(of: targetSource) else {
                    throw MigrationMappingError(
                        reason: "relationship now leads to \(relationship.destinationEntityName), which is not the migrated "
                            + "\(old.destinationEntityName); Core Data does not infer that",
                        entity: destination.name, property: relationship.name)
                }
                relationships.append(NSPropertyMapping(name: relationship.name, valueExpression: "$source.\(old.name)"))
            case (let relationship as NSRelationshipDescription, nil):
                relationships.append(NSPropertyMapping(name: relationship.name))
            case (let new, let old?):
                throw MigrationMappingError(
                    reason: "was \(old is NSRelationshipDescription ? "a relationship" : "an attribute") and is now "
                        + "\(new is NSRelationshipDescription ? "a relationship" : "an attribute"); Core Data does not infer that",
                    entity: destination.name, property: new.name)
            default:
                continue
            }
        }
        return (attributes, relationships)
    }
}
