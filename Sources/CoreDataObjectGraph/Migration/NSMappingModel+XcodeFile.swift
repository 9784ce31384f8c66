import AtomicStoreFormats
import CoreDataModel
import Foundation
import Predicates

extension NSMappingModel {
    /// Reads Xcode's mapping model document (`NAME.xcmappingmodel`, or its `xcmapping.xml`): an XML store of
    /// Xcode's mapping entities (migration reference §4). What Xcode leaves to its compiler is filled in as the
    /// compiled `.cdm` would carry it, against the two models: each entity mapping is named
    /// `<Source>To<Destination>` and fetches its source entity's instances; an attribute without an expression copies
    /// the source attribute of its name (or of its renaming identifier); a relationship reaches its destinations
    /// through `destinationInstancesForEntityMappingNamed:sourceInstances:`.
    ///
    /// Only what the document's mapping model lists is read (Xcode leaves edited-out mappings behind as orphans).
    /// Errors name the file and what is wrong.
    ///
    /// A compiled `.cdm` is read as well (`compiledMappingModel(contentsOf:)`) and must fit the two models: the entity
    /// version hashes it was compiled with are checked against theirs.
    public convenience init(contentsOf url: URL, sourceModel: NSManagedObjectModel, destinationModel: NSManagedObjectModel) throws {
        if url.pathExtension == "cdm" {
            let compiled = try Self.compiledMappingModel(contentsOf: url)
            if let mismatch = compiled.mismatch(sourceModel: sourceModel, destinationModel: destinationModel) {
                throw CoreDataError(.migrationMissingMappingModel, "\(url.path): \(mismatch)")
            }
            self.init(entityMappings: compiled.entityMappings)
            return
        }
        var file = url
        if file.pathExtension == "xcmappingmodel" { file.appendPathComponent("xcmapping.xml") }
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw CoreDataError(.migrationMissingMappingModel, "\(file.path): cannot read the mapping model: \(error.localizedDescription)",
                                underlyingError: error)
        }
        do {
            let model = try XMLStoreFormat.inferModel(from: data, file: file.path)
            let contents = try XMLStoreFormat.decode(data, model: model, file: file.path)
            let document = XcodeMappingDocument(contents: contents, file: file.path)
            self.init(entityMappings: try document.entityMappings(sourceModel: sourceModel, destinationModel: destinationModel))
        } catch let error as StoreFileError {
            throw CoreDataError(.migrationMissingMappingModel, "mapping model \(error)", underlyingError: error)
        }
    }

    /// The model versions an Xcode mapping model document was drawn between, from the project paths it records
    /// (`…/Moody.xcdatamodeld/Moody 4.xcdatamodel` gives `Moody 4`); nil for a side the file does not name. This is
    /// how a mapping file is matched to a step of a store's migration.
    public static func xcodeMappingModelVersions(at url: URL) throws -> (source: String?, destination: String?) {
        var file = url
        if file.pathExtension == "xcmappingmodel" { file.appendPathComponent("xcmapping.xml") }
        do {
            let data = try Data(contentsOf: file)
            let model = try XMLStoreFormat.inferModel(from: data, file: file.path)
            let document = XcodeMappingDocument(contents: try XMLStoreFormat.decode(data, model: model, file: file.path), file: file.path)
            return try document.modelVersionNames()
        } catch let error as StoreFileError {
            throw CoreDataError(.migrationMissingMappingModel, "mapping model \(error)", underlyingError: error)
        } catch let error as CoreDataError {
            throw error
        } catch {
            throw CoreDataError(.migrationMissingMappingModel, "\(file.path): cannot read the mapping model: \(error.localizedDescription)",
                                underlyingError: error)
        }
    }
}

/// The objects of an `xcmapping.xml`, by Xcode's entity names (case-folded in the file).
private struct XcodeMappingDocument {
    let objects: [Int64: StoreFileObject]
    let file: String

    init(contents: StoreFileContents, file: String) {
        objects = Dictionary(contents.objects.map { ($0.reference, $0) }, uniquingKeysWith: { first, _ in first })
        self.file = file
    }

    private func failure(_ reason: String) -> CoreDataError {
        CoreDataError(.migrationMissingMappingModel, "\(file): \(reason)")
    }

    private func objects(of entity: String) -> [StoreFileObject] {
        objects.values.filter { $0.entity.entityName.caseInsensitiveCompare(entity) == .orderedSame }.sorted { $0.reference < $1.reference }
    }

    private func string(_ object: StoreFileObject, _ key: String) -> String? {
        guard case .string(let text)? = value(object, key) else { return nil }
        return text.isEmpty ? nil : text
    }

    private func value(_ object: StoreFileObject, _ key: String) -> AttributeValue? {
        object.attributes.first { $0.key.caseInsensitiveCompare(key) == .orderedSame }?.value
    }

    private func related(_ object: StoreFileObject, _ key: String) throws -> [StoreFileObject] {
        let references = object.relationships.first { $0.key.caseInsensitiveCompare(key) == .orderedSame }?.value ?? []
        return try references.map { reference in
            guard let target = objects[reference] else { throw failure("object z\(object.reference) refers to missing object z\(reference)") }
            return target
        }
    }

    /// The version names in the root's `sourcemodelpath` and `destinationmodelpath`.
    func modelVersionNames() throws -> (source: String?, destination: String?) {
        let roots = objects(of: "XDDevMappingModel")
        guard roots.count == 1, let root = roots.first else {
            throw failure("an Xcode mapping model holds one XDDevMappingModel object; this file has \(roots.count)")
        }
        func version(_ key: String) -> String? {
            string(root, key).map { URL(fileURLWithPath: $0).deletingPathExtension().lastPathComponent }
        }
        return (version("sourcemodelpath"), version("destinationmodelpath"))
    }

    func entityMappings(sourceModel: NSManagedObjectModel, destinationModel: NSManagedObjectModel) throws -> [NSEntityMapping] {
        let roots = objects(of: "XDDevMappingModel")
        guard roots.count == 1, let root = roots.first else {
            throw failure("an Xcode mapping model holds one XDDevMappingModel object; this file has \(roots.count)")
        }
        var documents = try related(root, "entitymappings")
        documents.sort { integer($0, "mappingnumber") < integer($1, "mappingnumber") }
        // Names first: relationship mappings name the mapping of their destination's entity.
        let names = documents.map { mappingName(source: string($0, "sourcename"), destination: string($0, "destinationname")) }
        var mappingBySourceEntity: [String: String] = [:]
        for (document, name) in zip(documents, names) {
            if let source = string(document, "sourcename") { mappingBySourceEntity[source] = mappingBySourceEntity[source] ?? name }
        }
        return try zip(documents, names).map { document, name in
            try entityMapping(document, name: name, sourceModel: sourceModel, destinationModel: destinationModel,
                              mappingBySourceEntity: mappingBySourceEntity)
        }
    }

    private func integer(_ object: StoreFileObject, _ key: String) -> Int64 {
        if case .integer(let number)? = value(object, key) { return number }
        return .max
    }

    private func mappingName(source: String?, destination: String?) -> String {
        "\(source ?? destination ?? "")To\(destination ?? source ?? "")"
    }

    private func entityMapping(_ document: StoreFileObject, name: String, sourceModel: NSManagedObjectModel,
                               destinationModel: NSManagedObjectModel, mappingBySourceEntity: [String: String]) throws -> NSEntityMapping {
        let sourceName = string(document, "sourcename"), destinationName = string(document, "destinationname")
        let sourceEntity = try sourceName.map { name in
            guard let entity = sourceModel.entitiesByName[name] else {
                throw failure("entity mapping \(self.mappingName(source: sourceName, destination: destinationName)) names source entity \(name), which the source model does not have")
            }
            return entity
        }
        guard let destinationName, let destinationEntity = destinationModel.entitiesByName[destinationName] else {
            throw failure("entity mapping \(name) names destination entity \(destinationName ?? "(none)"), which the destination model does not have")
        }
        let policy = string(document, "migrationpolicyclassname")
        let type: NSEntityMappingType = sourceEntity == nil ? .addEntityMappingType : (policy == nil ? .transformEntityMappingType : .customEntityMappingType)
        let mapping = NSEntityMapping(name: name, mappingType: type, sourceEntityName: sourceName, destinationEntityName: destinationName)
        mapping.entityMigrationPolicyClassName = policy
        mapping.sourceEntityVersionHash = sourceEntity?.versionHash
        mapping.destinationEntityVersionHash = destinationEntity.versionHash
        if let sourceName {
            mapping.sourceExpression = NSEntityMapping.sourceFetchExpression(entityName: sourceName)
        }
        mapping.attributeMappings = try related(document, "attributemappings").map { attribute in
            guard let property = string(attribute, "name") else { throw failure("attribute mapping z\(attribute.reference) of \(name) has no name") }
            let expression: Predicates.NSExpression?
            if case .data(let archived)? = value(attribute, "valueexpressiondata") {
                do {
                    expression = try ArchivedMappingExpression.expression(ofArchive: archived)
                } catch {
                    throw failure("attribute mapping \(name).\(property): \(error)")
                }
            } else {
                expression = sourceEntity.flatMap { sourceKey(for: property, in: destinationEntity, from: $0) }.map {
                    Predicates.NSExpression(expressionNode: .keyPathOnExpression(.variable("source"), $0))
                }
            }
            return NSPropertyMapping(name: property, valueExpression: expression)
        }
        mapping.relationshipMappings = try related(document, "relationshipmappings").map { relationship in
            guard let property = string(relationship, "name") else { throw failure("relationship mapping z\(relationship.reference) of \(name) has no name") }
            var keyPath: ExpressionNode?
            if let written = string(relationship, "sourcekeypath") {
                do {
                    keyPath = try Predicates.NSExpression(parsing: written).expressionNode
                } catch {
                    throw failure("relationship mapping \(name).\(property): source key path \(written): \(error)")
                }
            }
            var destinationMapping = string(relationship, "sourcemappingname")
            if keyPath == nil, let sourceEntity, let key = sourceKey(for: property, in: destinationEntity, from: sourceEntity),
               let sourceRelationship = sourceEntity.relationshipsByName[key], let target = sourceRelationship.destinationEntity {
                keyPath = .keyPathOnExpression(.variable("source"), key)
                destinationMapping = destinationMapping ?? mappingBySourceEntity[target.entityName]
            }
            guard let keyPath, let destinationMapping else { return NSPropertyMapping(name: property, valueExpression: nil) }
            return NSPropertyMapping(name: property, valueExpression: Predicates.NSExpression(expressionNode: .customFunction(
                receiver: .variable("manager"), selector: "destinationInstancesForEntityMappingNamed:sourceInstances:",
                arguments: [.constant(.string(destinationMapping)), keyPath])))
        }
        return mapping
    }

    /// The source property a destination property copies by default: the same name, else its renaming identifier.
    private func sourceKey(for property: String, in destination: NSEntityDescription, from source: NSEntityDescription) -> String? {
        if source.propertiesByName[property] != nil { return property }
        if let renamed = destination.propertiesByName[property]?.renamingIdentifier, source.propertiesByName[renamed] != nil { return renamed }
        return nil
    }
}
