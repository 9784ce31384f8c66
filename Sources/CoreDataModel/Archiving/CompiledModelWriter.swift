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

    /// A part of the model that cannot be archived (a predicate or expression that does not parse, a composite
    /// type that is missing), named: `property Recipe.chef`, `entity Recipe`, `fetch request Recent`.
    public struct ArchivingError: Error, CustomStringConvertible {
        public var element: String
        public var underlying: any Error

        public var description: String { "\(element): \(underlying)" }
    }
}

private struct ArchiveWriter {
    var builder = KeyedArchiveBuilder()
    var entityReferences: [ObjectIdentifier: ArchivedObjectReference] = [:]
    var propertyReferences: [ObjectIdentifier: ArchivedObjectReference] = [:]
    var composites: [String: CompositeDescription] = [:]

    mutating func model(_ model: NSManagedObjectModel) throws -> ArchivedObjectReference {
        let modelReference = builder.reserveObject()
        composites = model.compositesByName
        // Entities and properties refer to each other (and back to the model), so all are reserved first.
        for entity in model.entities {
            entityReferences[ObjectIdentifier(entity)] = builder.reserveObject()
            for property in entity.ownProperties { propertyReferences[ObjectIdentifier(property)] = builder.reserveObject() }
        }
        for entity in model.entities {
            do {
                try define(entity, modelReference: modelReference)
            } catch let error as CompiledModelWriter.ArchivingError {
                throw error
            } catch {
                throw CompiledModelWriter.ArchivingError(element: "entity \(entity.entityName)", underlying: error)
            }
        }
        let names = model.entities.map { builder.addString($0.entityName) }
        let entities = try builder.addDictionary(keys: names, values: model.entities.map { entityReferences[ObjectIdentifier($0)]! },
                                                 className: "NSMutableDictionary")
        let identifiers = builder.addArray(model.versionIdentifierStrings.map { builder.addString($0) }, className: "NSSet")
        var configurationKeys: [ArchivedObjectReference] = [], configurationValues: [ArchivedObjectReference] = []
        for (name, members) in model.configurationsByName.sorted(by: { $0.key < $1.key }) {
            configurationKeys.append(builder.addString(name))
            let memberReferences = members.compactMap { model.entitiesByName[$0].flatMap { entityReferences[ObjectIdentifier($0)] } }
            configurationValues.append(builder.addArray(memberReferences, className: "NSMutableSet"))
        }
        let configurations = try builder.addDictionary(keys: configurationKeys, values: configurationValues, className: "NSMutableDictionary")
        let templates = model.fetchRequestTemplatesByName.sorted { $0.key < $1.key }
        let templateValues = try templates.map { name, template in
            do {
                return try fetchRequestTemplate(template, model: model)
            } catch {
                throw CompiledModelWriter.ArchivingError(element: "fetch request \(name)", underlying: error)
            }
        }
        let templateDictionary = templates.isEmpty ? KeyedArchiveBuilder.nullReference
            : try builder.addDictionary(keys: templates.map { builder.addString($0.key) }, values: templateValues, className: "NSMutableDictionary")
        try builder.defineObject(modelReference, className: "NSManagedObjectModel", fields: [
            "NSEntities": entities.uid, "NSVersionIdentifiers": identifiers.uid, "NSConfigurations": configurations.uid,
            "NSFetchRequestTemplates": templateDictionary.uid,
        ])
        return modelReference
    }

    mutating func define(_ entity: NSEntityDescription, modelReference: ArchivedObjectReference) throws {
        let reference = entityReferences[ObjectIdentifier(entity)]!
        for property in entity.ownProperties {
            do {
                try define(property, entityReference: reference)
            } catch {
                throw CompiledModelWriter.ArchivingError(element: "property \(entity.entityName).\(property.name)", underlying: error)
            }
        }
        let properties = try builder.addDictionary(
            keys: entity.ownProperties.map { builder.addString($0.name) },
            values: entity.ownProperties.map { propertyReferences[ObjectIdentifier($0)]! }, className: "NSMutableDictionary")
        let subentities = try builder.addDictionary(
            keys: entity.subentities.map { builder.addString($0.entityName) },
            values: entity.subentities.map { entityReferences[ObjectIdentifier($0)]! }, className: "NSMutableDictionary")
        let constraints = builder.addArray(entity.uniquenessConstraintNames.map { names in
            builder.addArray(names.map { builder.addString($0) })
        }, className: "NSMutableArray")
        let indexes = try builder.addArray(entity.indexes.map { try fetchIndex($0, entityReference: reference) }, className: "NSMutableArray")
        let compoundIndexes = builder.addArray(entity.compoundIndexes.map { names in
            builder.addArray(names.map { name in
                entity.propertiesByName[name].flatMap { propertyReferences[ObjectIdentifier($0)] } ?? builder.addString(name)
            })
        }, className: "NSMutableArray")
        var fields: [String: PropertyListValue] = [
            "NSEntityName": builder.addString(entity.entityName).uid,
            "NSProperties": properties.uid, "NSSubentities": subentities.uid,
            "NSManagedObjectModel": modelReference.uid, "NSUserInfo": try userInfo(entity.userInfoStrings).uid,
            "NSUniqueTuples": constraints.uid, "NSFetchIndexDescriptions": indexes.uid, "NSCompoundIndexes": compoundIndexes.uid,
            "NSIsAbstract": .bool(entity.isAbstract),
        ]
        fields["NSClassNameForEntity"] = optionalString(entity.representedClassName)
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
            "NSUserInfo": try userInfo(property.userInfoStrings).uid,
        ]
        if property.isTransient { fields["NSIsTransient"] = .bool(true) }
        if property.isIndexed { fields["NSIsIndexed"] = .bool(true) }
        fields["NSVersionHashModifier"] = optionalString(property.versionHashModifier)
        fields["NSRenamingIdentifier"] = optionalString(property.renamingIdentifier ?? property.name)
        if !property.validationRules.isEmpty {
            let predicates = try property.validationRules.map { rule in
                try PredicateArchiving.archive(rule.predicate.predicateNode, into: &builder)
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
            if let filter = derived.filteringPredicateFormat {
                fields["NSFilteringPredicate"] = try PredicateArchiving.archive(try NSPredicate(parsing: filter).predicateNode, into: &builder).uid
            }
            fields["NSIsReadOnly"] = .bool(true)
        case let attribute as NSAttributeDescription:
            className = attribute.compositeName == nil ? "NSAttributeDescription" : "NSCompositeAttributeDescription"
            attributeFields(attribute, into: &fields)
            if let name = attribute.compositeName { try compositeFields(name, into: &fields, enclosing: []) }
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
            if !fetched.sortDescriptors.isEmpty { request["NSSortDescriptors"] = sortDescriptors(fetched.sortDescriptors) }
            fields["NSFetchRequest"] = builder.addObject(className: "NSFetchRequest", fields: request).uid
        default:
            className = "NSPropertyDescription"
        }
        // The reader recognises kinds through `$classes`, as NSKeyedUnarchiver does: list every ancestor.
        let hierarchy = className == "NSDerivedAttributeDescription" || className == "NSCompositeAttributeDescription"
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

    /// A composite attribute's elements, inline as Apple's `NSCompositeAttributeDescription.elements` holds them
    /// (an element of composite type holds its own), and the composite type's name (`_NSCompositeName`), which the
    /// reader needs to rebuild the model's composite types.
    mutating func compositeFields(_ name: String, into fields: inout [String: PropertyListValue], enclosing: Set<String>) throws {
        guard let composite = composites[name] else { throw PropertyListError(reason: "composite type \(name) is not defined in the model") }
        guard !enclosing.contains(name) else { throw PropertyListError(reason: "composite type \(name) contains itself") }
        fields["_NSCompositeName"] = builder.addString(name).uid
        var elements: [ArchivedObjectReference] = []
        for element in composite.elements {
            var elementFields: [String: PropertyListValue] = [
                "NSPropertyName": builder.addString(element.name).uid, "NSAttributeType": .integer(Int64(element.attributeType.rawValue)),
                "NSIsOptional": .bool(element.isOptional), "_P": .integer(element.isOptional ? 0x3 : 0x1),
            ]
            var hierarchy = ["NSAttributeDescription", "NSPropertyDescription", "NSObject"]
            if let nested = element.compositeName {
                hierarchy.insert("NSCompositeAttributeDescription", at: 0)
                try compositeFields(nested, into: &elementFields, enclosing: enclosing.union([name]))
            }
            elements.append(builder.addObject(className: hierarchy[0], classHierarchy: hierarchy, fields: elementFields))
        }
        fields["NSElements"] = builder.addArray(elements).uid
    }

    mutating func fetchIndex(_ index: NSFetchIndexDescription, entityReference: ArchivedObjectReference) throws -> ArchivedObjectReference {
        let indexReference = builder.reserveObject()
        let elements = try index.elements.map { element in
            var fields: [String: PropertyListValue] = [
                "NSFetchIndexDescription": indexReference.uid,
                "NSPropertyName": element.propertyName.map { builder.addString($0).uid } ?? KeyedArchiveBuilder.nullReference.uid,
                "NSFetchIndexElementType": .integer(element.collationType == .rTree ? 1 : 0),
                "NSAscending": .bool(element.isAscending),
            ]
            // An element on an expression rather than a property (Xcode's `expression="…"`).
            if let format = element.expressionFormat {
                fields["NSExpression"] = try PredicateArchiving.archive(try NSExpression(parsing: format).expressionNode, into: &builder).uid
            }
            return builder.addObject(className: "NSFetchIndexElementDescription", fields: fields)
        }
        try builder.defineObject(indexReference, className: "NSFetchIndexDescription", fields: [
            "NSIndexName": builder.addString(index.name).uid, "NSIndexElements": builder.addArray(elements).uid,
            "NSEntity": entityReference.uid,
            "NSPartialIndexPredicate": try index.partialIndexPredicate.map {
                try PredicateArchiving.archive($0.predicateNode, into: &builder).uid
            } ?? KeyedArchiveBuilder.nullReference.uid,
        ])
        return indexReference
    }

    /// A model's stored fetch request: its entity (by reference, as Apple's archives hold it), predicate and limit.
    mutating func fetchRequestTemplate(_ template: FetchRequestTemplate, model: NSManagedObjectModel) throws -> ArchivedObjectReference {
        var fields: [String: PropertyListValue] = ["_NSFetchRequestEntityName": builder.addString(template.entityName).uid]
        if let entity = model.entitiesByName[template.entityName], let reference = entityReferences[ObjectIdentifier(entity)] {
            fields["NSEntity"] = reference.uid
        }
        if let format = template.predicateFormat {
            fields["NSPredicate"] = try PredicateArchiving.archive(try NSPredicate(parsing: format).predicateNode, into: &builder).uid
        }
        if let limit = template.fetchLimit { fields["NSFetchLimit"] = .integer(Int64(limit)) }
        if !template.sortDescriptors.isEmpty { fields["NSSortDescriptors"] = sortDescriptors(template.sortDescriptors) }
        return builder.addObject(className: "NSFetchRequest", fields: fields)
    }

    /// A fetch request's `NSSortDescriptors`: key, direction and comparison selector, as the reader reads them.
    mutating func sortDescriptors(_ descriptors: [Predicates.NSSortDescriptor]) -> PropertyListValue {
        let archived = descriptors.map { descriptor in
            builder.addObject(className: "NSSortDescriptor", fields: [
                "NSKey": optionalString(descriptor.key), "NSAscending": .bool(descriptor.ascending),
                "NSSelector": builder.addString(descriptor.comparison.rawValue).uid,
            ])
        }
        return builder.addArray(archived).uid
    }

    mutating func userInfo(_ info: [String: String]) throws -> ArchivedObjectReference {
        let sorted = info.sorted { $0.key < $1.key }
        return try builder.addDictionary(keys: sorted.map { builder.addString($0.key) }, values: sorted.map { builder.addString($0.value) })
    }

    mutating func optionalString(_ text: String?) -> PropertyListValue {
        text.map { builder.addString($0).uid } ?? KeyedArchiveBuilder.nullReference.uid
    }
}
