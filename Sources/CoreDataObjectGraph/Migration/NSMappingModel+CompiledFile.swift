import CoreDataModel
import Foundation
import PropertyListCoding

extension NSMappingModel {
    /// Reads a compiled mapping model (`NAME.cdm`, what Xcode compiles an `.xcmappingmodel` into for the app
    /// bundle): an `NSKeyedArchiver` archive whose root is an `NSMappingModel` (`NSEntityMappings`), each
    /// `NSEntityMapping` with its names, type, entity version hashes, source expression, policy class and
    /// `NSPropertyMapping`s (`NSDestinationPropertyName`, `NSValueExpression`), expressions archived as
    /// `NSExpression` objects (migration reference §4.7). Errors name the file and what is wrong.
    public static func compiledMappingModel(contentsOf url: URL) throws -> NSMappingModel {
        func failure(_ reason: String, _ error: (any Error)? = nil) -> CoreDataError {
            CoreDataError(.migrationMissingMappingModel, "\(url.path): \(reason)", underlyingError: error)
        }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw failure("cannot read the compiled mapping model: \(error.localizedDescription)", error)
        }
        do {
            let root = try KeyedArchive(data: data).topObject(forKey: "root")
            guard root.isKind(of: "NSMappingModel") else {
                throw ArchivedMappingExpression.Failure(reason: "the archive's root is an \(root.className), not an NSMappingModel")
            }
            let documents = try root.object(forKey: "NSEntityMappings")?.elementObjects() ?? []
            return NSMappingModel(entityMappings: try documents.map(entityMapping))
        } catch let error as CoreDataError {
            throw error
        } catch {
            throw failure("not a compiled mapping model (a keyed archive of NSMappingModel): \(error)", error)
        }
    }

    private static func entityMapping(_ object: ArchivedObject) throws -> NSEntityMapping {
        guard object.isKind(of: "NSEntityMapping") else {
            throw ArchivedMappingExpression.Failure(reason: "NSEntityMappings holds an \(object.className), not an NSEntityMapping")
        }
        let source = try object.string(forKey: "NSSourceEntityName"), destination = try object.string(forKey: "NSDestinationEntityName")
        let name = try object.string(forKey: "NSMappingName") ?? "\(source ?? destination ?? "")To\(destination ?? source ?? "")"
        let rawType = try object.integer(forKey: "NSMappingType") ?? 0
        guard let type = NSEntityMappingType(rawValue: Int(rawType)) else {
            throw ArchivedMappingExpression.Failure(reason: "entity mapping \(name) has mapping type \(rawType), which Core Data does not define")
        }
        let mapping = NSEntityMapping(name: name, mappingType: type, sourceEntityName: source, destinationEntityName: destination)
        mapping.sourceEntityVersionHash = try data(object, "NSSourceEntityVersionHash")
        mapping.destinationEntityVersionHash = try data(object, "NSDestinationEntityVersionHash")
        mapping.entityMigrationPolicyClassName = try object.string(forKey: "NSEntityMigrationPolicyClassName")
        mapping.sourceExpression = try object.object(forKey: "NSSourceExpression").map { try ArchivedMappingExpression.expression(of: $0) }
        func properties(_ key: String) throws -> [NSPropertyMapping] {
            try (object.object(forKey: key)?.elementObjects() ?? []).map { property in
                guard let propertyName = try property.string(forKey: "NSDestinationPropertyName") else {
                    throw ArchivedMappingExpression.Failure(reason: "a property mapping of \(name) has no NSDestinationPropertyName")
                }
                let expression = try property.object(forKey: "NSValueExpression").map { try ArchivedMappingExpression.expression(of: $0) }
                return NSPropertyMapping(name: propertyName, valueExpression: expression)
            }
        }
        mapping.attributeMappings = try properties("NSAttributeMappings")
        mapping.relationshipMappings = try properties("NSRelationshipMappings")
        return mapping
    }

    private static func data(_ object: ArchivedObject, _ key: String) throws -> Data? {
        switch try object.value(forKey: key) {
        case .data(let bytes)?: return bytes
        case .object(let reference)?: return try object.archive.object(reference).dataValue()
        default: return nil
        }
    }

    /// What keeps this mapping from fitting the two models: an entity a model lacks, or an entity version hash the
    /// mapping was compiled with that differs from the model's (as Core Data matches a compiled mapping model to a
    /// store's versions); nil when it fits. Mappings without hashes are matched by name only.
    public func mismatch(sourceModel: NSManagedObjectModel, destinationModel: NSManagedObjectModel) -> String? {
        for mapping in entityMappings {
            for (side, name, hash, model) in [("source", mapping.sourceEntityName, mapping.sourceEntityVersionHash, sourceModel),
                                              ("destination", mapping.destinationEntityName, mapping.destinationEntityVersionHash, destinationModel)] {
                guard let name else { continue }
                guard let entity = model.entitiesByName[name] else {
                    return "entity mapping \(mapping.name) names \(side) entity \(name), which the \(side) model does not have"
                }
                if let hash, hash != entity.versionHash {
                    return "entity mapping \(mapping.name) was compiled for another version of \(side) entity \(name) (its version hash differs)"
                }
            }
        }
        return nil
    }
}
