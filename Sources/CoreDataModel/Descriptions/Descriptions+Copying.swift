import Foundation

// Apple's descriptions and models are `NSCopying`: `copy()` gives an independent description that belongs to no
// entity or model, and a copied model (with copies of its entities) can be edited again after the original is in
// use by a coordinator.

extension NSPropertyDescription: NSCopying {
    /// Copies what every property has: name, flags, user info, hashing and renaming settings, validation predicates.
    func copyPropertySettings(into copy: NSPropertyDescription) {
        copy.name = name
        copy.isOptional = isOptional
        copy.isTransient = isTransient
        copy.isReadOnly = isReadOnly
        copy.isIndexed = isIndexed
        copy.isIndexedBySpotlight = isIndexedBySpotlight
        copy.isStoredInExternalRecord = isStoredInExternalRecord
        copy.userInfo = userInfo
        copy.versionHashModifier = versionHashModifier
        copy.renamingIdentifier = renamingIdentifier
        copy.validationRules = validationRules
    }
}

extension NSAttributeDescription {
    /// Copies the property settings and the attribute's type, default, storage options and bounds.
    func copyAttributeSettings(into copy: NSAttributeDescription) {
        copyPropertySettings(into: copy)
        copy.attributeType = attributeType
        copy.attributeValueClassName = attributeValueClassName
        copy.attributeDefault = attributeDefault
        copy.valueTransformerName = valueTransformerName
        copy.allowsExternalBinaryDataStorage = allowsExternalBinaryDataStorage
        copy.preservesValueInHistoryOnDeletion = preservesValueInHistoryOnDeletion
        copy.allowsCloudEncryption = allowsCloudEncryption
        copy.minimumValueString = minimumValueString
        copy.maximumValueString = maximumValueString
        copy.regularExpressionString = regularExpressionString
        copy.compositeName = compositeName
    }
}

extension NSEntityDescription: NSCopying {
    /// An independent copy that belongs to no model (Apple's `NSCopying`; `copy()` calls it): copies of its own
    /// properties, fetch indexes and uniqueness constraints (by property name), the same class name, flags, user
    /// info and parent entity name. It has no subentities and no superentity until a model links it.
    public func copy(with zone: NSZone? = nil) -> Any {
        let copy = NSEntityDescription()
        copy.name = name
        copy.representedClassName = representedClassName
        copy.isAbstract = isAbstract
        copy.superentityName = superentityName
        let properties = ownProperties.map { $0.copy(with: zone) as! NSPropertyDescription }
        copy.setProperties(properties)
        copy.userInfo = userInfo
        copy.versionHashModifier = versionHashModifier
        copy.renamingIdentifier = renamingIdentifier
        copy.uniquenessConstraintNames = uniquenessConstraintNames
        let byName = Dictionary(properties.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        copy.indexes = indexes.map { $0.copy(replacingProperties: byName) }
        copy.compoundIndexes = compoundIndexes
        return copy
    }
}

extension NSFetchIndexDescription {
    /// A copy whose elements index the properties of `properties` of the same names (a copied entity's own).
    func copy(replacingProperties properties: [String: NSPropertyDescription]) -> NSFetchIndexDescription {
        let elements = elements.map { element in
            let copy: NSFetchIndexElementDescription
            if let property = element.indexedProperty {
                copy = NSFetchIndexElementDescription(property: properties[property.name] ?? property, collationType: element.collationType)
                copy.isAscending = element.isAscending
            } else {
                copy = NSFetchIndexElementDescription(propertyName: element.propertyName, expressionFormat: element.expressionFormat,
                                                      collationType: element.collationType, isAscending: element.isAscending)
            }
            return copy
        }
        return NSFetchIndexDescription(name: name, elements: elements, partialIndexPredicate: partialIndexPredicate)
    }
}

extension NSManagedObjectModel: NSCopying {
    /// An independent copy (Apple's `NSCopying`; `copy()` calls it) with copies of every entity, linked among
    /// themselves, and the same configurations, fetch request templates, version identifiers, composite types and
    /// localization dictionary. Unlike the original once a coordinator uses it, the copy may be edited.
    public func copy(with zone: NSZone? = nil) -> Any {
        let copy = NSManagedObjectModel(entities: entities.map { $0.copy(with: zone) as! NSEntityDescription })
        copy.configurationsByName = configurationsByName
        copy.fetchRequestTemplatesByName = fetchRequestTemplatesByName
        copy.orderedVersionIdentifiers = orderedVersionIdentifiers
        copy.compositesByName = compositesByName
        copy.localizationDictionary = localizationDictionary
        copy.sourceDescription = sourceDescription
        return copy
    }
}
