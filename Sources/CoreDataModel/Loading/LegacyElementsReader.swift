import Foundation
import PropertyListCoding

/// Reads Xcode 3's binary model format: the `elements` file of a `.xcdatamodel` directory, an NSKeyedArchiver
/// archive whose root is an `XDPMModel` (the `layout` file beside it is diagram geometry and is not read).
///
/// The archive is a UML document (see `LegacyElementsArchive`): the root package's `Classes` bucket holds the
/// `XDPMEntity` objects, each entity's `OwnedAttributes` bucket its `XDPMAttribute`/`XDPMRelationship` objects,
/// and the Core Data settings sit in stereotypes under the keys of store format reference §12.1. Values are
/// taken verbatim: in particular old Xcode stored `XD_PRK_minCount` 1 for optional to-ones, and Apple's version
/// hashes only reproduce with that stored count (§10.3).
package struct LegacyElementsReader {
    package let file: String

    package init(file: String) {
        self.file = file
    }

    /// Whether `data` is a keyed archive written by Xcode 3's modeller (its root object is one of Xcode's `XD…`
    /// classes) rather than a compiled model. Cheap enough for sniffing: it parses the property list once.
    package static func isXcode3Document(_ data: Data) -> Bool {
        guard let archive = try? KeyedArchive(data: data), let root = try? archive.topObject(forKey: "root") else {
            return false
        }
        return root.classHierarchy.contains { $0.hasPrefix("XD") }
    }

    /// Decodes the archive in `data`. Every failure is a `ModelError` naming the file.
    package func read(_ data: Data) throws(ModelError) -> NSManagedObjectModel {
        do {
            let archive = try KeyedArchive(data: data)
            let root = try archive.topObject(forKey: "root")
            let decoder = LegacyModelDecoder(elements: LegacyElementsArchive(file: file, archive: archive))
            return try decoder.readModel(root)
        } catch let error as ModelError {
            throw error
        } catch {
            throw ModelError(file: file, reason: "not a readable Xcode 3 model (elements) archive (\(error))")
        }
    }
}

/// Builds the model from an opened `elements` archive.
private struct LegacyModelDecoder {
    let elements: LegacyElementsArchive
    var file: String { elements.file }

    // MARK: Model

    func readModel(_ root: ArchivedObject) throws -> NSManagedObjectModel {
        guard elements.isXcodeClass(root, "Model") || root.isKind(of: "XDModel") else {
            let what = root.classHierarchy.contains { $0.hasPrefix("XD") }
                ? "an Xcode 3 document but not a data model (a diagram layout file?)" : "not an Xcode 3 data model"
            throw ModelError(file: file, reason: "the archive's root is \(root.className): \(what)")
        }
        guard let package = try root.object(forKey: "_xd_rootPackage") else {
            throw ModelError(file: file, reason: "the \(root.className) has no root package (_xd_rootPackage)")
        }
        let model = NSManagedObjectModel()
        model.sourceDescription = file
        var entities: [NSEntityDescription] = []
        for archived in try entityObjects(in: package, depth: 0) {
            let entity = try readEntity(archived)
            entities.append(entity)
            for template in try readFetchRequestTemplates(of: archived, entity: entity.entityName) {
                guard model.fetchRequestTemplatesByName[template.name] == nil else {
                    throw ModelError(file: file, reason: "two fetch requests are named \(template.name)")
                }
                model.fetchRequestTemplatesByName[template.name] = template
            }
        }
        model.versionIdentifierStrings = try versionIdentifiers(root)
        model.configurationsByName = try configurations(root)
        model.entities = entities.sorted { $0.entityName < $1.entityName }
        try model.link()
        return model
    }

    /// The entities of `package` and of its nested packages, in archive order.
    private func entityObjects(in package: ArchivedObject, depth: Int) throws -> [ArchivedObject] {
        guard depth < LegacyElementsArchive.maximumNesting else {
            throw ModelError(file: file, reason: "model packages nest more than \(LegacyElementsArchive.maximumNesting) deep")
        }
        var result = try elements.bucketObjects(of: package, "Classes").filter { elements.isXcodeClass($0, "Entity") }
        for nested in try elements.bucketObjects(of: package, "Packages") {
            result += try entityObjects(in: nested, depth: depth + 1)
        }
        return result
    }

    /// `_modelVersionIdentifier`: one string, or a collection of strings.
    private func versionIdentifiers(_ root: ArchivedObject) throws -> [String] {
        guard let value = try root.value(forKey: "_modelVersionIdentifier") else { return [] }
        switch value {
        case .null: return []
        case .string(let text): return text.isEmpty ? [] : [text]
        case .object(let reference):
            let object = try elements.archive.object(reference)
            if object.isKind(of: "NSString") {
                let text = try object.stringValue()
                return text.isEmpty ? [] : [text]
            }
            if object.isCollection { return try object.elements().map { try text($0, role: "version identifier") }.sorted() }
            throw ModelError(file: file, reason: "_modelVersionIdentifier is an \(object.className), not a string")
        default:
            throw ModelError(file: file, reason: "_modelVersionIdentifier holds \(value.typeName), not a string")
        }
    }

    /// `_configurationsByName`: configuration name → a collection of entities (objects or names).
    private func configurations(_ root: ArchivedObject) throws -> [String: [String]] {
        guard let dictionary = try root.object(forKey: "_configurationsByName") else { return [:] }
        var result: [String: [String]] = [:]
        for (key, value) in try dictionary.dictionaryEntries() {
            let name = try text(key, role: "configuration name")
            guard case .object(let reference) = value else {
                throw ModelError(file: file, reason: "configuration \(name) holds \(value.typeName), not a collection of entities")
            }
            let members = try elements.archive.object(reference)
            guard members.isCollection else {
                throw ModelError(file: file, reason: "configuration \(name) is an \(members.className), not a collection of entities")
            }
            result[name] = try members.elements().map { try entityName($0, role: "member of configuration \(name)") }.sorted()
        }
        return result
    }

    // MARK: Entities

    private func readEntity(_ archived: ArchivedObject) throws -> NSEntityDescription {
        let entity = NSEntityDescription(name: try elements.elementName(archived, role: "entity"))
        let settings = try elements.settings(of: archived)
        entity.representedClassName = try settings.string("XD_PSK_entityClassName")
        entity.isAbstract = try settings.bool("XD_PSK_isAbstract") ?? archived.bool(forKey: "_isAbstract") ?? false
        entity.versionHashModifier = try settings.string("XD_PSK_versionHashModifier")
        entity.renamingIdentifier = try settings.string("XD_PSK_elementID")
        entity.userInfoStrings = try settings.userInfo("XD_PSK_userInfo")
        entity.superentityName = try superentityName(of: archived, entity: entity.entityName)
        var seen = Set<ArchivedObjectReference>()
        var names = Set<String>()
        // Properties live in the OwnedAttributes bucket; other buckets are searched too so that a property is not
        // lost if some Xcode 3 release filed relationships elsewhere. Stereotypes and generalizations are no properties.
        for bucket in elements.bucketNames(of: archived) where bucket != "Stereotypes" && bucket != "Generalizations" {
            for object in try elements.bucketObjects(of: archived, bucket) where isProperty(object) {
                guard seen.insert(object.reference).inserted else { continue }
                let property = try readProperty(object, entity: entity.entityName)
                guard names.insert(property.name).inserted else {
                    throw ModelError(file: file, reason: "entity \(entity.entityName) declares the property \(property.name) twice")
                }
                entity.addProperty(property)
            }
        }
        return entity
    }

    /// The parent entity: the `_general` end of the entity's UML generalization (at most one).
    private func superentityName(of archived: ArchivedObject, entity: String) throws -> String? {
        let parents = try elements.bucketObjects(of: archived, "Generalizations").map { generalization -> String in
            // A generalization object names the parent in `_general`; accept a bare entity as well.
            if elements.isXcodeClass(generalization, "Entity") {
                return try elements.elementName(generalization, role: "parent entity")
            }
            guard let general = try generalization.object(forKey: "_general") else {
                throw ModelError(file: file, reason: "a generalization of entity \(entity) "
                                 + "(\(generalization.className)) has no _general parent")
            }
            return try elements.elementName(general, role: "parent entity")
        }
        guard parents.count <= 1 else {
            throw ModelError(file: file, reason: "entity \(entity) has \(parents.count) parent entities "
                             + "(\(parents.joined(separator: ", ")))")
        }
        return parents.first
    }

    // MARK: Properties

    private func isProperty(_ object: ArchivedObject) -> Bool {
        ["Property", "Attribute", "Relationship", "FetchedProperty"].contains { elements.isXcodeClass(object, $0) }
    }

    private func readProperty(_ archived: ArchivedObject, entity: String) throws -> NSPropertyDescription {
        let name = try elements.elementName(archived, role: "property of entity \(entity)")
        let settings = try elements.settings(of: archived)
        let property: NSPropertyDescription
        if elements.isXcodeClass(archived, "Relationship") {
            property = try readRelationship(archived, name: name, entity: entity, settings: settings)
        } else if elements.isXcodeClass(archived, "Attribute") {
            property = try readAttribute(name: name, entity: entity, settings: settings)
        } else if elements.isXcodeClass(archived, "FetchedProperty") {
            property = try readFetchedProperty(name: name, settings: settings)
        } else {
            throw ModelError(file: file, reason: "property \(entity).\(name) has an unknown class \(archived.className)")
        }
        // Xcode 3 always writes these; Core Data's defaults stand in for a missing one.
        property.isOptional = try settings.bool("XD_PPSK_isOptional") ?? true
        property.isTransient = try settings.bool("XD_PPSK_isTransient") ?? false
        property.isIndexed = try settings.bool("XD_PPSK_isIndexed") ?? false
        property.isIndexedBySpotlight = try settings.bool("XD_PPSK_isSpotlightIndexed") ?? false
        // Core Data's own name for "Store in External Record File" is `isStoredInTruthFile`.
        property.isStoredInExternalRecord = try settings.bool("XD_PPSK_isStoredInTruthFile") ?? false
        property.versionHashModifier = try settings.string("XD_PPSK_versionHashModifier")
        property.renamingIdentifier = try settings.string("XD_PPSK_elementID")
        property.userInfoStrings = try settings.userInfo("XD_PPSK_userInfo")
        return property
    }

    private func readAttribute(name: String, entity: String, settings: LegacyElementSettings) throws -> NSAttributeDescription {
        let rawType = try settings.integer("XD_PAttK_attributeType") ?? 0
        guard rawType >= 0, let type = NSAttributeType(rawValue: UInt(rawType)) else {
            throw ModelError(file: file, reason: "attribute \(entity).\(name) has an unknown attribute type \(rawType)")
        }
        let attribute = NSAttributeDescription(name: name, type: type)
        attribute.minimumValueString = try settings.string("XD_PAttK_minValueString")
        attribute.maximumValueString = try settings.string("XD_PAttK_maxValueString")
        attribute.regularExpressionString = try settings.string("XD_PAttK_regularExpressionString")
        attribute.valueTransformerName = try settings.string("XD_PAttK_valueTransformerName")
        attribute.allowsExternalBinaryDataStorage = try settings.bool("XD_PAttK_allowsExternalBinaryDataStorage") ?? false
        // Blank default fields are stored as empty strings, which means "no default" (string() drops them).
        if let text = try settings.string("XD_PAttK_defaultValueAsString") {
            do {
                attribute.attributeDefault = try AttributeValue(parsing: text, as: type)
            } catch {
                throw ModelError(file: file, reason: "attribute \(entity).\(name) has an invalid default value: \(error.description)")
            }
        }
        attribute.validationRules = try ValidationRuleBuilder.rules(for: attribute)
            .mapError { ModelError(file: file, reason: "attribute \(entity).\(name): \($0.description)") }.get()
        return attribute
    }

    private func readRelationship(
        _ archived: ArchivedObject, name: String, entity: String, settings: LegacyElementSettings
    ) throws -> NSRelationshipDescription {
        // The UML type of the property names the destination too; the Core Data setting is preferred.
        var destinationValue = settings.value("XD_PRK_destination")
        if destinationValue == nil, let type = try archived.value(forKey: "_type"), !type.isNull {
            destinationValue = type
        }
        guard let destinationValue else {
            throw ModelError(file: file, reason: "relationship \(entity).\(name) has no destination entity (XD_PRK_destination)")
        }
        let relationship = NSRelationshipDescription(
            name: name, destinationEntityName: try entityName(destinationValue, role: "destination of \(entity).\(name)"))
        if let inverse = settings.value("XD_PRK_inverseRelationship") {
            let object = try inverse.objectReference.map { try elements.archive.object($0) }
            if let object, !object.isKind(of: "NSString") {
                relationship.inverseRelationshipName = try elements.elementName(object, role: "inverse of \(entity).\(name)")
                if let owner = try object.object(forKey: "_owner") {
                    relationship.inverseEntityName = try elements.elementName(
                        owner, role: "entity of the inverse of \(entity).\(name)")
                }
            } else {
                relationship.inverseRelationshipName = try settings.string("XD_PRK_inverseRelationship")
            }
        }
        let minCount = try settings.integer("XD_PRK_minCount") ?? 0
        let storedMaxCount = try settings.integer("XD_PRK_maxCount")
        guard minCount >= 0, (storedMaxCount ?? 0) >= 0 else {
            throw ModelError(file: file, reason: "relationship \(entity).\(name) has a negative count "
                             + "(minCount \(minCount), maxCount \(storedMaxCount ?? 0))")
        }
        // The to-many switch decides the cardinality; the stored maximum only bounds a to-many relationship.
        let isToMany = try settings.bool("XD_PRK_isToMany") ?? (storedMaxCount.map { $0 != 1 } ?? false)
        relationship.minCount = minCount  // verbatim, including the legacy 1 of optional to-ones (§10.3)
        relationship.maxCount = isToMany ? (storedMaxCount ?? 0) : 1
        if isToMany && relationship.maxCount == 1 {
            throw ModelError(file: file, reason: "to-many relationship \(entity).\(name) has maxCount 1")
        }
        relationship.isOrdered = try settings.bool("XD_PRK_ordered") ?? false
        if let rule = try settings.integer("XD_PRK_deleteRule") {
            guard rule >= 0, let deleteRule = NSDeleteRule(rawValue: UInt(rule)) else {
                throw ModelError(file: file, reason: "relationship \(entity).\(name) has an unknown delete rule \(rule)")
            }
            relationship.deleteRule = deleteRule
        }
        return relationship
    }

    /// A fetched property: its fetch entity and predicate are read from the settings whose key names them (no
    /// fixture shows Xcode 3's exact keys, so any `…destination`/`…entity` and `…predicate…` setting is accepted).
    private func readFetchedProperty(name: String, settings: LegacyElementSettings) throws -> NSFetchedPropertyDescription {
        let property = NSFetchedPropertyDescription(name: name)
        for (key, value) in settings.values.sorted(by: { $0.key < $1.key }) where !value.isNull {
            let lowered = key.lowercased()
            if lowered.hasSuffix("destination") || lowered.hasSuffix("entity") || lowered.hasSuffix("entityname") {
                property.fetchEntityName = try entityName(value, role: "fetch entity of fetched property \(name)")
            } else if lowered.contains("predicate") {
                property.predicateFormat = try predicateFormat(value, role: "predicate of fetched property \(name)")
            }
        }
        return property
    }

    // MARK: Fetch request templates

    /// `XD_PSK_fetchRequestsArray`: the entity's fetch request templates. Each is a UML element (named by
    /// `_name`, predicate in a setting) or a dictionary with `name` and `predicate…` keys.
    private func readFetchRequestTemplates(of archived: ArchivedObject, entity: String) throws -> [FetchRequestTemplate] {
        guard let array = try elements.settings(of: archived).object("XD_PSK_fetchRequestsArray") else { return [] }
        guard array.isCollection else {
            throw ModelError(file: file, reason: "XD_PSK_fetchRequestsArray of entity \(entity) is an "
                             + "\(array.className), not an array")
        }
        return try array.elementObjects().map { request in
            var fields: [String: ArchivedValue] = [:]
            if request.isKind(of: "NSDictionary") {
                for (key, value) in try request.dictionaryEntries() { fields[try text(key, role: "fetch request key")] = value }
            } else {
                for key in request.keys { fields[key] = try request.value(forKey: key) }
                fields.merge(try elements.settings(of: request).values) { _, setting in setting }
            }
            guard let nameValue = fields["_name"] ?? fields["name"], !nameValue.isNull else {
                throw ModelError(file: file, reason: "a fetch request of entity \(entity) (\(request.className)) has no name")
            }
            var predicate: String?
            for (key, value) in fields.sorted(by: { $0.key < $1.key }) where key.lowercased().contains("predicate") && !value.isNull {
                predicate = try predicateFormat(value, role: "predicate of a fetch request of entity \(entity)")
            }
            var limit: Int?
            if let limitKey = fields.keys.sorted().first(where: { $0.lowercased().hasSuffix("fetchlimit") }) {
                limit = fields[limitKey]?.intValue
            }
            return FetchRequestTemplate(name: try text(nameValue, role: "fetch request name"), entityName: entity,
                                        predicateFormat: predicate, fetchLimit: limit)
        }
    }

    // MARK: Values

    /// An entity named by a string or referred to as an `XDPMEntity` object.
    private func entityName(_ value: ArchivedValue, role: String) throws -> String {
        if case .object(let reference) = value {
            let object = try elements.archive.object(reference)
            if !object.isKind(of: "NSString") { return try elements.elementName(object, role: role) }
        }
        return try text(value, role: role)
    }

    /// A predicate given as its format string or as an archived `NSPredicate`.
    private func predicateFormat(_ value: ArchivedValue, role: String) throws -> String {
        if case .object(let reference) = value {
            let object = try elements.archive.object(reference)
            if object.isKind(of: "NSPredicate") { return try ArchivedPredicateDecoding.predicateFormat(object) }
        }
        return try text(value, role: role)
    }

    private func text(_ value: ArchivedValue, role: String) throws -> String {
        switch value {
        case .string(let string): return string
        case .object(let reference):
            let object = try elements.archive.object(reference)
            if object.isKind(of: "NSString") { return try object.stringValue() }
            throw ModelError(file: file, reason: "the \(role) is an \(object.className), not a string")
        default:
            throw ModelError(file: file, reason: "the \(role) is \(value.typeName), not a string")
        }
    }
}
