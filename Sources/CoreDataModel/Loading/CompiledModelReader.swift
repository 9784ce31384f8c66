import Foundation
import Predicates
import PropertyListCoding

/// Reads compiled models: a `.mom` (an NSKeyedArchiver archive whose root is an `NSManagedObjectModel`), a
/// `.momd` directory of versions, and the same archive as Core Data caches it inside a store (`Z_MODELCACHE`).
///
/// Archive keys are those of store format reference §2.3: `NSEntities`, `NSProperties`, `_P` property flags, and so on.
package struct CompiledModelReader {
    package let file: String

    package init(file: String) {
        self.file = file
    }

    /// Loads every version of a `.momd`: `VersionInfo.plist` names the current one; without it the only `.mom`
    /// (or the last in name order) is current.
    package static func loadVersionedDirectory(_ url: URL) throws(ModelError) -> ModelVersionSet {
        let names: [String]
        do {
            // Version order compares names without the extension, as for a .xcdatamodeld: "Moody" precedes
            // "Moody 2" (with it, the space sorts before the dot).
            names = try FileManager.default.contentsOfDirectory(atPath: url.path).filter { $0.hasSuffix(".mom") }
                .sorted {
                    ($0 as NSString).deletingPathExtension.compare(($1 as NSString).deletingPathExtension, options: [.numeric, .caseInsensitive])
                        == .orderedAscending
                }
        } catch {
            throw ModelError(file: url.path, reason: "cannot list the compiled model (\(error.localizedDescription))")
        }
        guard !names.isEmpty else { throw ModelError(file: url.path, reason: "holds no .mom model version") }
        var versions: [(name: String, model: NSManagedObjectModel)] = []
        for name in names {
            let file = url.appendingPathComponent(name)
            versions.append(((name as NSString).deletingPathExtension,
                             try CompiledModelReader(file: file.path).read(try ModelLoader.readFile(file))))
        }
        var current = versions.count - 1
        let info = url.appendingPathComponent("VersionInfo.plist")
        if FileManager.default.fileExists(atPath: info.path) {
            let plist = try ModelLoader.readPropertyList(info)
            if let name = plist["NSManagedObjectModel_CurrentVersionName"] as? String {
                guard let index = versions.firstIndex(where: { $0.name == name }) else {
                    throw ModelError(file: info.path, reason: "names the current version \(name), which the directory does not hold")
                }
                current = index
            }
        }
        return ModelVersionSet(versions: versions, currentIndex: current)
    }

    /// Decodes the archive in `data` (a binary property list).
    package func read(_ data: Data) throws(ModelError) -> NSManagedObjectModel {
        do {
            let archive = try KeyedArchive(data: data)
            let root = try archive.topObject(forKey: "root")
            guard root.isKind(of: "NSManagedObjectModel") else {
                throw ModelError(file: file, reason: "the archive's root is \(root.className), not an NSManagedObjectModel")
            }
            return try ModelArchiveDecoder(file: file, archive: archive).readModel(root)
        } catch let error as ModelError {
            throw error
        } catch {
            throw ModelError(file: file, reason: "not a readable compiled model (\(error))")
        }
    }
}

/// Decodes the objects of one model archive; holds the archive so that references can be followed.
private struct ModelArchiveDecoder {
    let file: String
    let archive: KeyedArchive

    // MARK: Model

    func readModel(_ root: ArchivedObject) throws -> NSManagedObjectModel {
        let model = NSManagedObjectModel()
        model.sourceDescription = file
        var entities: [NSEntityDescription] = []
        if let entitiesObject = try root.object(forKey: "NSEntities") {
            for (_, value) in try entitiesObject.dictionaryEntries() {
                entities.append(try readEntity(try object(value, role: "entity")))
            }
        }
        if let identifiers = try root.object(forKey: "NSVersionIdentifiers") {
            model.versionIdentifierStrings = try identifiers.elements().map { try string($0, role: "version identifier") }.sorted()
        }
        if let configurations = try root.object(forKey: "NSConfigurations") {
            for (key, value) in try configurations.dictionaryEntries() {
                let name = try string(key, role: "configuration name")
                let members = try object(value, role: "configuration members")
                model.configurationsByName[name] = try members.elements().map { member in
                    let entity = try object(member, role: "configuration member")
                    return try entity.string(forKey: "NSEntityName") ?? ""
                }.sorted()
            }
        }
        if let templates = try root.object(forKey: "NSFetchRequestTemplates") {
            for (key, value) in try templates.dictionaryEntries() {
                let name = try string(key, role: "fetch request name")
                let request = try object(value, role: "fetch request")
                model.fetchRequestTemplatesByName[name] = FetchRequestTemplate(
                    name: name, entityName: try fetchRequestEntityName(request) ?? "",
                    predicateFormat: try request.object(forKey: "NSPredicate").map(ArchivedPredicateDecoding.predicateFormat),
                    fetchLimit: try request.integer(forKey: "NSFetchLimit").map { Int($0) },
                    sortDescriptors: try sortDescriptors(of: request))
            }
        }
        // Composite types are not listed by the model: each composite attribute (and element) holds its type's elements.
        for composite in try archive.objects(ofClass: "NSCompositeAttributeDescription") {
            guard let name = try composite.string(forKey: "_NSCompositeName"), model.compositesByName[name] == nil else { continue }
            let elements = try composite.object(forKey: "NSElements")?.elementObjects() ?? []
            model.compositesByName[name] = CompositeDescription(name: name, elements: try elements.map { element in
                let rawType = try element.integer(forKey: "NSAttributeType") ?? 0
                guard let type = NSAttributeType(rawValue: UInt(clamping: rawType)) else {
                    throw ModelError(file: file, reason: "composite type \(name) has an element of unknown attribute type \(rawType)")
                }
                return CompositeDescription.Element(
                    name: try element.string(forKey: "NSPropertyName") ?? "", attributeType: type,
                    isOptional: try element.bool(forKey: "NSIsOptional") ?? false, compositeName: try element.string(forKey: "_NSCompositeName"))
            })
        }
        model.entities = entities.sorted { $0.entityName < $1.entityName }
        try model.link()
        return model
    }

    // MARK: Entities

    private func readEntity(_ archived: ArchivedObject) throws -> NSEntityDescription {
        guard let name = try archived.string(forKey: "NSEntityName") else {
            throw ModelError(file: file, reason: "an entity in the archive has no name (\(archived.reference))")
        }
        let entity = NSEntityDescription(name: name)
        entity.representedClassName = try archived.string(forKey: "NSClassNameForEntity")
        entity.isAbstract = try archived.bool(forKey: "NSIsAbstract") ?? false
        entity.superentityName = try archived.object(forKey: "NSSuperentity")?.string(forKey: "NSEntityName")
        entity.versionHashModifier = try archived.string(forKey: "NSVersionHashModifier")
        entity.renamingIdentifier = try archived.string(forKey: "NSRenamingIdentifier")
        if entity.renamingIdentifier == name { entity.renamingIdentifier = nil }  // compiled models repeat the name
        entity.userInfoStrings = try userInfo(archived.object(forKey: "NSUserInfo"))
        if let properties = try archived.object(forKey: "NSProperties") {
            // A compiled entity lists inherited properties too; keep only those it declares itself.
            let own = try properties.dictionaryEntries().map { try object($0.value, role: "property") }.filter { property in
                try property.object(forKey: "NSEntity")?.string(forKey: "NSEntityName").map { $0 == name } ?? true
            }
            entity.setProperties(try own.map(readProperty).sorted { $0.name < $1.name })
        }
        if let tuples = try archived.object(forKey: "NSUniqueTuples") {
            entity.uniquenessConstraintNames = try tuples.elements().map { tuple in
                try object(tuple, role: "uniqueness constraint").elements().map { try propertyName($0) }
            }
        }
        if let compound = try archived.object(forKey: "NSCompoundIndexes") {
            entity.compoundIndexes = try compound.elements().map { index in
                try object(index, role: "compound index").elements().map { try propertyName($0) }
            }
        }
        if let indexes = try archived.object(forKey: "NSFetchIndexDescriptions") {
            entity.indexes = try indexes.elementObjects().map(readFetchIndex)
        }
        return entity
    }

    private func readFetchIndex(_ archived: ArchivedObject) throws -> NSFetchIndexDescription {
        let elements = try archived.object(forKey: "NSIndexElements")?.elementObjects().map { element in
            NSFetchIndexElementDescription(
                propertyName: try element.string(forKey: "NSPropertyName"),
                expressionFormat: try element.object(forKey: "NSExpression").map(ArchivedPredicateDecoding.expressionFormat),
                collationType: try element.integer(forKey: "NSFetchIndexElementType") == 1 ? .rTree : .binary,
                isAscending: try element.bool(forKey: "NSAscending") ?? true)
        } ?? []
        return NSFetchIndexDescription(
            name: try archived.string(forKey: "NSIndexName") ?? "",
            elements: elements,
            partialIndexPredicate: try archived.object(forKey: "NSPartialIndexPredicate")
                .map { Predicates.NSPredicate.predicate(for: try ArchivedPredicateDecoding.predicate($0, depth: 0)) })
    }

    // MARK: Properties

    /// `_P` bits (store format reference §2.3).
    private enum PropertyFlag {
        static let optional: Int64 = 0x2, readOnly: Int64 = 0x4, transient: Int64 = 0x8
        static let spotlight: Int64 = 0x100, externalRecord: Int64 = 0x200, ordered: Int64 = 0x400
    }

    /// `NSFlagsKey` bits of attributes.
    private enum AttributeFlag {
        static let externalBinaryData: Int64 = 0x4, preserveInHistory: Int64 = 0x10
    }

    private func readProperty(_ archived: ArchivedObject) throws -> NSPropertyDescription {
        guard let name = try archived.string(forKey: "NSPropertyName") else {
            throw ModelError(file: file, reason: "a property in the archive has no name (\(archived.reference))")
        }
        let flags = try archived.integer(forKey: "_P") ?? 0
        let property: NSPropertyDescription
        if archived.isKind(of: "NSRelationshipDescription") {
            property = try readRelationship(archived, name: name, flags: flags)
        } else if archived.isKind(of: "NSFetchedPropertyDescription") {
            let fetched = NSFetchedPropertyDescription(name: name)
            if let request = try archived.object(forKey: "NSFetchRequest") {
                fetched.fetchEntityName = try fetchRequestEntityName(request)
                fetched.predicateFormat = try request.object(forKey: "NSPredicate").map(ArchivedPredicateDecoding.predicateFormat)
                fetched.sortDescriptors = try sortDescriptors(of: request)
            }
            property = fetched
        } else if archived.isKind(of: "NSAttributeDescription") {
            property = try readAttribute(archived, name: name)
        } else {
            throw ModelError(file: file, reason: "property \(name) has an unknown class \(archived.className)")
        }
        if flags != 0 {
            property.isOptional = flags & PropertyFlag.optional != 0
            property.isTransient = flags & PropertyFlag.transient != 0
            property.isReadOnly = flags & PropertyFlag.readOnly != 0 || property is NSDerivedAttributeDescription
            property.isIndexedBySpotlight = flags & PropertyFlag.spotlight != 0
            property.isStoredInExternalRecord = flags & PropertyFlag.externalRecord != 0
        } else {
            property.isOptional = try archived.bool(forKey: "NSIsOptional") ?? false
            property.isTransient = try archived.bool(forKey: "NSIsTransient") ?? false
            property.isReadOnly = try archived.bool(forKey: "NSIsReadOnly") ?? (property is NSDerivedAttributeDescription)
        }
        property.isIndexed = try archived.bool(forKey: "NSIsIndexed") ?? false
        property.versionHashModifier = try archived.string(forKey: "NSVersionHashModifier")
        property.renamingIdentifier = try archived.string(forKey: "NSRenamingIdentifier")
        if property.renamingIdentifier == name { property.renamingIdentifier = nil }
        property.userInfoStrings = try userInfo(archived.object(forKey: "NSUserInfo"))
        property.validationRules = try validationRules(archived)
        if let attribute = property as? NSAttributeDescription {
            ValidationRuleBuilder.applyBounds(from: property.validationRules, to: attribute)
        }
        return property
    }

    private func readAttribute(_ archived: ArchivedObject, name: String) throws -> NSAttributeDescription {
        let rawType = try archived.integer(forKey: "NSAttributeType") ?? 0
        guard let type = NSAttributeType(rawValue: UInt(clamping: rawType)) else {
            throw ModelError(file: file, reason: "attribute \(name) has an unknown attribute type \(rawType)")
        }
        let attribute: NSAttributeDescription
        if archived.isKind(of: "NSDerivedAttributeDescription") {
            guard let expression = try archived.object(forKey: "NSDerivationExpression") else {
                throw ModelError(file: file, reason: "derived attribute \(name) has no derivation expression")
            }
            let derived = NSDerivedAttributeDescription(
                name: name, type: type, derivationExpressionFormat: try ArchivedPredicateDecoding.expressionFormat(expression))
            derived.filteringPredicateFormat = try archived.object(forKey: "NSFilteringPredicate")
                .map(ArchivedPredicateDecoding.predicateFormat)
            attribute = derived
        } else {
            attribute = NSAttributeDescription(name: name, type: type)
        }
        attribute.attributeValueClassName = try archived.string(forKey: "NSAttributeValueClassName")
        attribute.valueTransformerName = try archived.string(forKey: "NSValueTransformerName")
        attribute.compositeName = try archived.string(forKey: "_NSCompositeName")
        let flags = try archived.integer(forKey: "NSFlagsKey") ?? 0
        attribute.allowsExternalBinaryDataStorage = flags & AttributeFlag.externalBinaryData != 0
        attribute.preservesValueInHistoryOnDeletion = flags & AttributeFlag.preserveInHistory != 0
        if let value = try archived.value(forKey: "NSDefaultValue") {
            attribute.attributeDefault = try defaultValue(value, type: type, attribute: name)
        }
        return attribute
    }

    private func readRelationship(_ archived: ArchivedObject, name: String, flags: Int64) throws -> NSRelationshipDescription {
        let destination = try archived.string(forKey: "_NSDestinationEntityName")
            ?? archived.object(forKey: "NSDestinationEntity")?.string(forKey: "NSEntityName")
        guard let destination else {
            throw ModelError(file: file, reason: "relationship \(name) has no destination entity")
        }
        let relationship = NSRelationshipDescription(name: name, destinationEntityName: destination)
        let inverse = try archived.object(forKey: "NSInverseRelationship")
        relationship.inverseRelationshipName = try archived.string(forKey: "_NSInverseRelationshipName")
            ?? inverse?.string(forKey: "NSPropertyName")
        relationship.inverseEntityName = try inverse?.object(forKey: "NSEntity")?.string(forKey: "NSEntityName")
        relationship.minCount = Int(try archived.integer(forKey: "NSMinCount") ?? 0)
        relationship.maxCount = Int(try archived.integer(forKey: "NSMaxCount") ?? 0)
        let rule = try archived.integer(forKey: "NSDeleteRule") ?? 1
        guard let deleteRule = NSDeleteRule(rawValue: UInt(clamping: rule)) else {
            throw ModelError(file: file, reason: "relationship \(name) has an unknown delete rule \(rule)")
        }
        relationship.deleteRule = deleteRule
        let orderedFlag = try archived.bool(forKey: "NSIsOrdered") ?? false
        relationship.isOrdered = flags & PropertyFlag.ordered != 0 || orderedFlag
        return relationship
    }

    // MARK: Values

    private func validationRules(_ archived: ArchivedObject) throws -> [ValidationRule] {
        guard let predicates = try archived.object(forKey: "NSValidationPredicates") else { return [] }
        let warnings = try archived.object(forKey: "NSValidationWarnings")?.elements() ?? []
        return try predicates.elementObjects().enumerated().map { index, predicate in
            let warning: ValidationWarning
            switch index < warnings.count ? warnings[index] : .null {
            case .integer(let code): warning = .errorCode(Int(code))
            case .string(let message): warning = .message(message)
            case .object(let reference):
                let object = try archive.object(reference)
                warning = object.isKind(of: "NSString") ? .message(try object.stringValue()) : .message(object.className)
            default: warning = .errorCode(ValidationRuleBuilder.Code.validation)
            }
            let node = try ArchivedPredicateDecoding.predicate(predicate, depth: 0)
            return ValidationRule(predicate: Predicates.NSPredicate.predicate(for: node), warning: warning)
        }
    }

    private func defaultValue(_ value: ArchivedValue, type: NSAttributeType, attribute: String) throws -> AttributeValue? {
        switch value {
        case .null: return nil
        case .bool(let flag): return type == .booleanAttributeType ? .boolean(flag) : .integer(flag ? 1 : 0)
        case .integer(let number):
            switch type {
            case .booleanAttributeType: return .boolean(number != 0)
            case .doubleAttributeType: return .double(Double(number))
            case .floatAttributeType: return .float(Float(number))
            case .decimalAttributeType: return .decimal(Decimal(number))
            case .dateAttributeType: return .date(Date(timeIntervalSinceReferenceDate: Double(number)))
            default: return .integer(number)
            }
        case .real(let number):
            switch type {
            case .floatAttributeType: return .float(Float(number))
            case .decimalAttributeType: return .decimal(Decimal(number))
            case .dateAttributeType: return .date(Date(timeIntervalSinceReferenceDate: number))
            case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType: return .integer(Int64(number))
            default: return .double(number)
            }
        case .string(let text):
            return try? AttributeValue(parsing: text, as: type)
        case .data(let data): return .data(data)
        case .object(let reference):
            return try objectDefaultValue(try archive.object(reference), type: type)
        default:
            return nil
        }
    }

    private func objectDefaultValue(_ object: ArchivedObject?, type: NSAttributeType) throws -> AttributeValue? {
        guard let object else { return nil }
        if object.isKind(of: "NSString") { return try? AttributeValue(parsing: object.stringValue(), as: type) }
        if object.isKind(of: "NSDate") { return .date(try object.dateValue()) }
        if object.isKind(of: "NSUUID") { return .uuid(try object.uuidValue()) }
        if object.isKind(of: "NSURL") { return .uri(try object.urlValue()) }
        if object.isKind(of: "NSData") { return .data(try object.dataValue()) }
        if object.isKind(of: "NSDecimalNumber"), let text = try? object.string(forKey: "NS.decimal") {
            return try? AttributeValue(parsing: text, as: .decimalAttributeType)
        }
        return nil
    }

    private func userInfo(_ object: ArchivedObject?) throws -> [String: String] {
        guard let object else { return [:] }
        var result: [String: String] = [:]
        for (key, value) in try object.dictionaryEntries() {
            guard let key = try? string(key, role: "user info key") else { continue }
            result[key] = (try? string(value, role: "user info value")) ?? value.typeName
        }
        return result
    }

    /// A fetch request's `NSSortDescriptors` (key, ascending, selector); a selector no sort supports is an error.
    private func sortDescriptors(of request: ArchivedObject) throws -> [Predicates.NSSortDescriptor] {
        guard let array = try request.object(forKey: "NSSortDescriptors") else { return [] }
        return try array.elementObjects().map { descriptor in
            let selector = try descriptor.string(forKey: "NSSelector") ?? SortComparison.compare.rawValue
            guard let comparison = SortComparison(rawValue: selector) else {
                throw ModelError(file: file, reason: "a fetch request sorts with \(selector), which is not a sort selector Core Data supports")
            }
            return Predicates.NSSortDescriptor(key: try descriptor.string(forKey: "NSKey"), ascending: try descriptor.bool(forKey: "NSAscending") ?? true,
                                    comparison: comparison)
        }
    }

    private func fetchRequestEntityName(_ request: ArchivedObject) throws -> String? {
        if let name = try request.string(forKey: "_NSFetchRequestEntityName") { return name }
        return try request.object(forKey: "NSEntity")?.string(forKey: "NSEntityName")
    }

    /// A constraint or index element: a property name string, or a property description.
    private func propertyName(_ value: ArchivedValue) throws -> String {
        if case .object(let reference) = value {
            let object = try archive.object(reference)
            if object.isKind(of: "NSPropertyDescription") || object.contains(key: "NSPropertyName") {
                return try object.string(forKey: "NSPropertyName") ?? ""
            }
        }
        return try string(value, role: "property name")
    }

    private func string(_ value: ArchivedValue, role: String) throws -> String {
        switch value {
        case .string(let text): return text
        case .object(let reference):
            return try archive.object(reference).stringValue()
        default: break
        }
        throw ModelError(file: file, reason: "expected a string for the \(role), found \(value.typeName)")
    }

    private func object(_ value: ArchivedValue, role: String) throws -> ArchivedObject {
        guard case .object(let reference) = value else {
            throw ModelError(file: file, reason: "expected an object for the \(role), found \(value.typeName)")
        }
        return try archive.object(reference)
    }
}
