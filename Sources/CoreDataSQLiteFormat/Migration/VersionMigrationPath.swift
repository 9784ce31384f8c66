import CoreDataModel
import Foundation

/// The version steps that bring a store from the version that wrote it to a model package's current version:
/// one inferred step per consecutive pair of versions (Core Data infers between two versions only, so a store
/// several versions behind steps through each one in between).
public struct VersionMigrationPath: @unchecked Sendable {
    /// The name of the version the store is at.
    public var sourceVersionName: String
    public var destinationVersionName: String
    /// Version names of each step, and the step itself.
    public var steps: [(from: String, to: String, step: SQLiteStoreMigrator.Step)]

    /// Finds the store's version among `versions` by its metadata hashes, else the model the store carries when that
    /// matches them (then one step from it to the current version). Throws naming what differs when no model
    /// matches, when the store is ahead of the current version, and when a step cannot be inferred.
    public init(storeHashes: [String: Data], storeModel: NSManagedObjectModel?, versions: ModelVersionSet, file: String) throws {
        let current = versions.versions[versions.currentIndex]
        destinationVersionName = current.name
        if let index = versions.indexOfVersion(matchingStoreHashes: storeHashes) {
            sourceVersionName = versions.versions[index].name
            guard index <= versions.currentIndex else {
                throw StoreFormatError(file: file, reason: "is at version \(sourceVersionName), after the current version \(current.name); "
                                        + "stores are never migrated backwards; nothing was changed")
            }
            steps = []
            for position in index..<versions.currentIndex {
                let (from, to) = (versions.versions[position], versions.versions[position + 1])
                steps.append((from.name, to.name, try Self.inferredStep(from: from.model, to: to.model, names: (from.name, to.name), file: file)))
            }
        } else if let storeModel, storeModel.entityVersionHashesByName == storeHashes {
            sourceVersionName = "the store's own model (Z_MODELCACHE)"
            let step = try Self.inferredStep(from: storeModel, to: current.model, names: (sourceVersionName, current.name), file: file)
            // A model that keeps none of the store's entities would drop every table: almost surely the wrong model.
            guard step.mapping.entityMappings.contains(where: { $0.sourceEntityName != nil && $0.destinationEntityName != nil }) else {
                throw StoreFormatError(file: file, reason: "shares no entity with the model (\(storeModel.entities.map(\.name).sorted().joined(separator: ", ")) "
                                        + "in the store, \(current.model.entities.map(\.name).sorted().joined(separator: ", ")) in the model); migrating "
                                        + "would drop all its data, so this is taken for the wrong model; nothing was changed")
            }
            steps = [(sourceVersionName, current.name, step)]
        } else {
            let difference = ModelDifference(storeHashes: storeHashes, storeModel: storeModel, model: current.model)
            throw StoreFormatError(file: file, reason: "no version of the model matches the store's version hashes, and the store carries "
                                    + (storeModel == nil ? "no model of its own" : "a model of another version")
                                    + "; against the current version \(current.name): \(difference); nothing was changed")
        }
    }

    private static func inferredStep(from: NSManagedObjectModel, to: NSManagedObjectModel, names: (String, String), file: String) throws
        -> SQLiteStoreMigrator.Step
    {
        do {
            let mapping = try NSMappingModel.inferredMappingModel(forSourceModel: from, destinationModel: to)
            return SQLiteStoreMigrator.Step(sourceModel: from, destinationModel: to, mapping: mapping)
        } catch {
            throw StoreFormatError(file: file, reason: "cannot be migrated from \(names.0) to \(names.1): Core Data cannot infer the mapping "
                                    + "(\(error)); nothing was changed")
        }
    }
}
