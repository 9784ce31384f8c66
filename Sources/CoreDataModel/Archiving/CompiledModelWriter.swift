import Foundation
import Predicates
import PropertyListCoding

/// Writes a model as a compiled model archive (an NSKeyedArchiver graph rooted at `NSManagedObjectModel`), with
/// the classes and keys Core Data's compiled models and model caches use (store format reference §2.3), so that
/// stores we create carry their model in `Z_MODELCACHE` as Apple's do.
public enum CompiledModelWriter {
    public static func archive(_ model: NSManagedObjectModel) throws -> Data {
        var writer = ArchiveWriter()
        let root = try writer.model(model)
        writer.builder.setTopObject(root)
        return try writer.builder.binaryData()
    }
}

private struct ArchiveWriter {
    var builder = KeyedArchiveBuilder()
    var entityReferences: [ObjectIdentifier: ArchivedObjectReference] = [:]
    var propertyReferences: [ObjectIdentifier: ArchivedObjectReference] = [:]

    mutating func model(_ model: NSManagedObjectModel) throws -> ArchivedObjectReference {
        let modelReference = builder.reserveObject()
        // Entities and properties refer to each other (and back to the model), so all are reserved first.
        for entity in model.entities {
            entityReferences[ObjectIdentifier(entity)] = builder.reserveObject()
            for property in entity.ownProperties { propertyReferences[ObjectIdentifier(property)] = builder.reserveObject() }
        }
        for entity in model.entities { try define(entity, modelReference: modelReference) }
        let names = model.entities.map { builder.addString($0.entityName) }
        let entities = try builder.addDictionary(keys: names, values: model.entities.map { entityReferences[ObjectIdentifier($0)]! },
                                                 className: "NSMutableDictionary")
        let identifiers = builder.addArray(model.versionIdentifiers.map { builder.addString($0) }, className: "NSSet")
        var configurationKeys: [ArchivedObjectReference] = [], configurationValues: [ArchivedObjectReference] = []
        for (name, members) in model.configurationsByName.sorted(by: { $0.key < $1.key }) {
            configurationKeys.append(builder.addString(name))
            let memberReferences = members.compactMap { model.entitiesByName[$0].flatMap { entityReferences[ObjectIdentifier($0)] } }
            configurationValues.append(builder.addArray(memberReferences, className: "NSMutableSet"))
        }
        let configurations = try builder.addDictionary(keys: configurationKeys, values: configurationValues, className: "NSMutableDictionary")
        try builder.defineObject(modelReference, className: "NSManagedObjectModel", fields: [
            "NSEntities": entities.uid, "NSVersionIdentifiers": identifiers.uid, "NSConfigurations": configurations.uid,
            "NSFetchRequestTemplates": KeyedArchiveBuilder.nullReference.uid,
        ])
        return modelReference
    }

    mutating func define(_ entity: NSEntityDescription, modelReference: ArchivedObjectReference) throws {
        let reference = entityReferences[ObjectIdentifier(entity)]!
        for property in entity.ownProperties { try define(property, entityReference: reference) }
        let properties = try builder.addDictionary(
            keys: entity.ownProperties.map { builder.addString($0.name) },
            values: entity.ownProperties.map { propertyReferences[ObjectIdentifier($0)]! }, className: "NSMutableDictionary")
        let subentities = try builder.addDictionary(
            keys: entity.subentities.map { builder.addString($0.entityName) },
            values: entity.subentities.map { entityReferences[ObjectIdentifier($0)]! }, className: "NSMutableDictionary")
        let constraints = builder.addArray(entity.uniquenessConstraints.map { names in
            builder.addArray(names.map { builder.addString($0) })
        }, className: "NSMutableArray")
        let indexes = try builder.addArray(entity.indexes.map { try fetchIndex($0, entityReference: reference) }, className: "NSMutableArray")
        var fields: [String: PropertyListValue] = [
            "NSEntityName": builder.addString(entity.entityName).uid,
            "NSProperties": properties.uid, "NSSubentities": subentities.uid,
            "NSManagedObjectModel": modelReference.uid, "NSUserInfo": try userInfo(entity.userInfo).uid,
            "NSUniqueTuples": constraints.uid, "NSFetchIndexDescriptions": indexes.uid,
            "NSIsAbstract": .bool(entity.isAbstract),
        ]
        fields["NSClassNameForEntity"] = optionalString(entity.managedObjectClassName)
        fields["NSVersionHashModifier"] = optionalString(entity.versionHashModifier)
        fields["NSRenamingIdentifier"] = optionalString(entity.renamingIdentifier ?? entity.entityName)
        fields["NSSuperentity"] = entity.superentity.flatMap { entityReferences[ObjectIdentifier($0)] }?.uid ?? KeyedArchiveBuilder.nullReference.uid
        try builder.defineObject(reference, className: "NSEntityDescription", fields: fields)
    }

    /// `_P` flags: always 0x1; optional 0x2, read-only 0x4, transient 0x8, Spotlight 0x100, external record 0x200,
    /// ordered 0x400.
    private func propertyFlags(_ property: NSPropertyDescription) -> Int64 {
        var flags: Int64 = 0x1
        if property.isOptional { flags |= 0x2 }
        if property.isReadOnly { flags |= 0x4 }
        if property.isTransient { flags |= 0x8 }
        if property.isIndexedBySpotlight { flags |= 0x100 }
        if property.isStoredInExternalRecord { flags |= 0x200 }
        if (property as? NSRelationshipDescription)?.isOrdered == true { flags |= 0x400 }
        return flags
    }

    mutating func define(_ property: NSPropertyDescription, entityReference: ArchivedObjectReference) throws {
        let reference = propertyReferences[ObjectIdentifier(property)]!
        var fields: [String: PropertyListValue] = [
            "NSPropertyName": builder.addString(property.name).uid, "NSEntity": entityReference.uid,
            "_P": .integer(propertyFlags(property)), "NSIsOptional": .bool(property.isOptional),
            "NSUserInfo": try userInfo(property.userInfo).uid,
        ]
        if property.isTransient { fields["NSIsTransient"] = .bool(true) }
        if property.isIndexed { fields["NSIsIndexed"] = .bool(true) }
        fields["NSVersionHashModifier"] = optionalString(property.versionHashModifier)
        fields["NSRenamingIdentifier"] = optionalString(property.renamingIdentifier ?? property.name)
        if !property.validationRules.isEmpty {
            let predicates = try property.validationRules.map { rule in
                try PredicateArchiving.archive(try NSPredicate(parsing: rule.predicateFormat).predicateNode, into: &builder)
            }
            let warnings = property.validationRules.map { rule -> ArchivedObjectReference in
                switch rule.warning {
                case .errorCode(let code): return (try? builder.addPlainValue(.integer(Int64(code)))) ?? KeyedArchiveBuilder.nullReference
                case .message(let text): return builder.addString(text)
                }
            }
            fields["NSValidationPredicates"] = builder.addArray(predicates).uid
            fields["NSValidationWarnings"] = builder.addArray(warnings).uid
        }
        let className: String
        switch property {
        case let derived as NSDerivedAttributeDescription:
            className = "NSDerivedAttributeDescription"
            attributeFields(derived, into: &fields)
            let expression = try NSExpression(parsing: derived.derivationExpressionFormat).expressionNode
            fields["NSDerivationExpression"] = try PredicateArchiving.archive(expression, into: &builder).uid
            fields["NSIsReadOnly"] = .bool(true)
        case let attribute as NSAttributeDescription:
            className = "NSAttributeDescription"
            attributeFields(attribute, into: &fields)
        case let relationship as NSRelationshipDescription:
            className = "NSRelationshipDescription"
            fields["_NSDestinationEntityName"] = builder.addString(relationship.destinationEntityName).uid
            if let destination = relationship.destinationEntity, let target = entityReferences[ObjectIdentifier(destination)] {
                fields["NSDestinationEntity"] = target.uid
            }
            if let inverse = relationship.inverseRelationship, let target = propertyReferences[ObjectIdentifier(inverse)] {
                fields["NSInverseRelationship"] = target.uid
                fields["_NSInverseRelationshipName"] = builder.addString(inverse.name).uid
            }
            fields["NSMinCount"] = .integer(Int64(relationship.minCount))
            fields["NSMaxCount"] = .integer(Int64(relationship.maxCount))
            fields["NSDeleteRule"] = .integer(Int64(relationship.deleteRule.rawValue))
            if relationship.isOrdered { fields["NSIsOrdered"] = .bool(true) }
        case let fetched as NSFetchedPropertyDescription:
            className = "NSFetchedPropertyDescription"
            var request: [String: PropertyListValue] = [:]
            request["_NSFetchRequestEntityName"] = optionalString(fetched.fetchEntityName)
            if let format = fetched.predicateFormat {
                request["NSPredicate"] = try PredicateArchiving.archive(try NSPredicate(parsing: format).predicateNode, into: &builder).uid
            }
            fields["NSFetchRequest"] = builder.addObject(className: "NSFetchRequest", fields: request).uid
        default:
            className = "NSPropertyDescription"
        }
        // The reader recognises kinds through `$classes`, as NSKeyedUnarchiver does: list every ancestor.
        let hierarchy = className == "NSDerivedAttributeDescription"
            ? [className, "NSAttributeDescription", "NSPropertyDescription", "NSObject"]
            : [className, "NSPropertyDescription", "NSObject"]
        try builder.defineObject(reference, className: className, classHierarchy: hierarchy, fields: fields)
    }

    mutating func attributeFields(_ attribute: NSAttributeDescription, into fields: inout [String: PropertyListValue]) {
        fields["NSAttributeType"] = .integer(Int64(attribute.attributeType.rawValue))
        fields["NSAttributeValueClassName"] = optionalString(attribute.attributeValueClassName)
        fields["NSValueTransformerName"] = optionalString(attribute.valueTransformerName)
        var flags: Int64 = 0
        if attribute.allowsExternalBinaryDataStorage { flags |= 0x4 }
        if attribute.preservesValueInHistoryOnDeletion { flags |= 0x10 }
        fields["NSFlagsKey"] = .integer(flags)
        switch attribute.attributeDefault {
        case nil: fields["NSDefaultValue"] = KeyedArchiveBuilder.nullReference.uid
        case .integer(let v)?: fields["NSDefaultValue"] = .integer(v)
        case .double(let v)?: fields["NSDefaultValue"] = .real(v)
        case .float(let v)?: fields["NSDefaultValue"] = .real(Double(v))
        case .boolean(let v)?: fields["NSDefaultValue"] = .bool(v)
        case .string(let v)?: fields["NSDefaultValue"] = builder.addString(v).uid
        case .decimal(let v)?: fields["NSDefaultValue"] = builder.addString(v.description).uid
        case .date(let v)?: fields["NSDefaultValue"] = builder.addDate(v).uid
        case .uuid(let v)?: fields["NSDefaultValue"] = builder.addUUID(v).uid
        case .uri(let v)?: fields["NSDefaultValue"] = builder.addURL(v).uid
        case .data(let v)?: fields["NSDefaultValue"] = .data(v)
        }
    }

    mutating func fetchIndex(_ index: NSFetchIndexDescription, entityReference: ArchivedObjectReference) throws -> ArchivedObjectReference {
        let elements = index.elements.map { element in
            builder.addObject(className: "NSFetchIndexElementDescription", fields: [
                "NSPropertyName": element.propertyName.map { builder.addString($0).uid } ?? KeyedArchiveBuilder.nullReference.uid,
                "NSFetchIndexElementType": .integer(element.collationType == .rTree ? 1 : 0),
                "NSAscending": .bool(element.isAscending),
            ])
        }
        return builder.addObject(className: "NSFetchIndexDescription", fields: [
            "NSIndexName": builder.addString(index.name).uid, "NSIndexElements": builder.addArray(elements).uid,
            "NSEntity": entityReference.uid, "NSPartialIndexPredicate": KeyedArchiveBuilder.nullReference.uid,
        ])
    }

    mutating func userInfo(_ info: [String: String]) throws -> ArchivedObjectReference {
        let sorted = info.sorted { $0.key < $1.key }
        return try builder.addDictionary(keys: sorted.map { builder.addString($0.key) }, values: sorted.map { builder.addString($0.value) })
    }

    mutating func optionalString(_ text: String?) -> PropertyListValue {
        text.map { builder.addString($0).uid } ?? KeyedArchiveBuilder.nullReference.uid
    }
}
