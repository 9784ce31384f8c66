import CoreDataModel
import Foundation

/// The version steps that bring a store from the version that wrote it to a model package's current version:
/// one inferred step per consecutive pair of versions (Core Data infers between two versions only, so a store
/// several versions behind steps through each one in between), except where a given mapping model covers a step
/// (or a run of versions: it then replaces the steps it spans).
public struct VersionMigrationPath: @unchecked Sendable {
    /// A mapping model given for the step from version `from` to version `to`, read from `file`. One that is not
    /// `required` (found in a folder of mapping models) is simply unused when its step is not on the path.
    public struct ProvidedMapping: @unchecked Sendable {
        public var from: String
        public var to: String
        public var mapping: NSMappingModel
        public var file: String
        public var required: Bool

        public init(from: String, to: String, mapping: NSMappingModel, file: String, required: Bool = true) {
            self.from = from
            self.to = to
            self.mapping = mapping
            self.file = file
            self.required = required
        }
    }

    /// The name of the version the store is at.
    public var sourceVersionName: String
    public var destinationVersionName: String
    /// Version names of each step, the step itself, and the file of its mapping model (nil: inferred).
    public var steps: [(from: String, to: String, step: SQLiteStoreMigrator.Step, mappingFile: String?)]

    /// Finds the store's version among `versions` by its metadata hashes, else the model the store carries when that
    /// matches them (then one step from it to the current version). Throws naming what differs when no model
    /// matches, when the store is ahead of the current version, when a step cannot be inferred, and when a given
    /// mapping model is not a step of the path (naming its file).
    public init(storeHashes: [String: Data], storeModel: NSManagedObjectModel?, versions: ModelVersionSet, file: String,
                mappings: [ProvidedMapping] = []) throws {
        let current = versions.versions[versions.currentIndex]
        destinationVersionName = current.name
        if let index = versions.indexOfVersion(matchingStoreHashes: storeHashes) {
            sourceVersionName = versions.versions[index].name
            guard index <= versions.currentIndex else {
                throw StoreFormatError(file: file, reason: "is at version \(sourceVersionName), after the current version \(current.name); "
                                        + "stores are never migrated backwards; nothing was changed")
            }
            steps = []
            var used = Set<Int>()
            var position = index
            while position < versions.currentIndex {
                let from = versions.versions[position]
                // The given mapping from this version that reaches furthest without passing the current version.
                let reach = mappings.enumerated().compactMap { offset, provided -> (Int, Int)? in
                    guard provided.from == from.name,
                          let target = versions.versions.firstIndex(where: { $0.name == provided.to }),
                          target > position, target <= versions.currentIndex else { return nil }
                    return (offset, target)
                }.max { $0.1 < $1.1 }
                if let (offset, target) = reach {
                    let provided = mappings[offset], to = versions.versions[target]
                    used.insert(offset)
                    steps.append((from.name, to.name, SQLiteStoreMigrator.Step(sourceModel: from.model, destinationModel: to.model,
                                                                               mapping: provided.mapping), provided.file))
                    position = target
                    continue
                }
                let to = versions.versions[position + 1]
                steps.append((from.name, to.name, try Self.inferredStep(from: from.model, to: to.model, names: (from.name, to.name), file: file), nil))
                position += 1
            }
            for (offset, provided) in mappings.enumerated() where !used.contains(offset) && provided.required {
                let path = ([sourceVersionName] + steps.map(\.to)).joined(separator: " → ")
                throw StoreFormatError(file: provided.file, reason: "maps \(provided.from) → \(provided.to), which is not a step of this "
                                        + "store's migration (\(file) is at \(sourceVersionName); path \(path)); nothing was changed")
            }
        } else if let storeModel, storeModel.entityVersionHashesByName == storeHashes {
            sourceVersionName = "the store's own model (Z_MODELCACHE)"
            let step = try Self.inferredStep(from: storeModel, to: current.model, names: (sourceVersionName, current.name), file: file)
            // A model that keeps none of the store's entities would drop every table: almost surely the wrong model.
            guard step.mapping.entityMappings.contains(where: { $0.sourceEntityName != nil && $0.destinationEntityName != nil }) else {
                throw StoreFormatError(file: file, reason: "shares no entity with the model (\(storeModel.entities.map(\.entityName).sorted().joined(separator: ", ")) "
                                        + "in the store, \(current.model.entities.map(\.entityName).sorted().joined(separator: ", ")) in the model); migrating "
                                        + "would drop all its data, so this is taken for the wrong model; nothing was changed")
            }
            steps = [(sourceVersionName, current.name, step, nil)]
            if let provided = mappings.first(where: \.required) {
                throw StoreFormatError(file: provided.file, reason: "maps \(provided.from) → \(provided.to), but \(file) matches no version "
                                        + "of the model (only the model it carries), so no mapping model applies; nothing was changed")
            }
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
