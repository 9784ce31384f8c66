import AtomicStoreFormats
import CoreDataModel
import Foundation

/// One step of an atomic store's migration: the models on either side and the mapping (nil: inferred).
package struct AtomicMigrationStep {
    package var sourceModel: NSManagedObjectModel
    package var destinationModel: NSManagedObjectModel
    package var mapping: NSMappingModel?

    package init(sourceModel: NSManagedObjectModel, destinationModel: NSManagedObjectModel, mapping: NSMappingModel?) {
        self.sourceModel = sourceModel
        self.destinationModel = destinationModel
        self.mapping = mapping
    }
}

/// Migration of the XML and binary stores. An atomic store has no tables to alter: each step loads the file with
/// the step's source model, maps its objects one by one into a new file of the same type (the migration manager's
/// object path, with the inferred mapping for a lightweight step), and the result replaces the store's file in one
/// atomic write (a temporary file, flushed, renamed over it). Until then the store's file is only read, so a failure
/// or a kill at any point leaves it byte for byte as it was.
extension NSMigrationManager {
    /// Migrates the store of `type` (`NSXMLStoreType` or `NSBinaryStoreType`) at `url` through `steps`. The new file
    /// keeps the app's own metadata keys; it gets a store UUID of its own, as its objects are numbered anew (an old
    /// object URI must not name one of them). With `dryRun`, every step runs on scratch files and the store is not
    /// written. `progress` gets the step's index and its fraction done.
    package static func migrateAtomicStore(at url: URL, type: String, steps: [AtomicMigrationStep], dryRun: Bool = false,
                                           progress: ((Int, Float) -> Void)? = nil) throws {
        guard let format = AtomicFileFormat(storeType: type) else {
            throw CoreDataError(.migrationManagerSourceStore, "\(url.path): \(type) stores are not migrated as files (XML and binary are)")
        }
        guard let last = steps.last else { return }
        let originalMetadata = try format.readMetadata(at: url)
        let scratch = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).migrating-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        } catch {
            throw CoreDataError(.migration, "\(scratch.path): cannot be created for the migration (\(NSSQLiteStore.fileSystemReason(error))); "
                                + "\(url.path) was not changed", underlyingError: error)
        }
        defer { try? FileManager.default.removeItem(at: scratch) }
        var current = url
        for (index, step) in steps.enumerated() {
            let next = scratch.appendingPathComponent("step-\(index + 1)").appendingPathExtension(url.pathExtension)
            let manager = NSMigrationManager(sourceModel: step.sourceModel, destinationModel: step.destinationModel)
            if let progress { manager.progressHandler = { progress(index, $0) } }
            try manager.migrateStore(from: current, sourceType: type, with: step.mapping, toDestinationURL: next, destinationType: type)
            current = next
        }
        guard !dryRun else { return }
        // The result, with the app's keys of the old metadata, written over the store in one atomic replacement.
        let data = try AtomicFileFormat.read(current)
        do {
            var contents = try format.decode(data, model: last.destinationModel, file: current.path)
            var metadata = contents.metadata.mapValues(\.foundationValue)
            for (key, value) in originalMetadata where !StoreMetadataValues.storeDescribingKeys.contains(key) && metadata[key] == nil {
                metadata[key] = value
            }
            contents.metadata = try StoreMetadataValues.propertyList(metadata, file: url.path)
            try AtomicStoreFile.write(try format.encode(contents, model: last.destinationModel), to: url)
        } catch let error as StoreFileError {
            throw CoreDataError(.migration, "\(url.path): the migrated store cannot be written back (\(error)); the store was not changed",
                                underlyingError: error)
        }
    }
}

extension AtomicFileFormat {
    /// The file format of Apple's atomic store type `storeType`; nil for another type.
    init?(storeType: String) {
        switch storeType {
        case NSXMLStoreType: self = .xml
        case NSBinaryStoreType: self = .binary
        default: return nil
        }
    }
}

extension NSAtomicStore {
    /// When the store's recorded version hashes are not the model's and the options ask for automatic migration
    /// (`NSMigratePersistentStoresAutomaticallyOption` with `NSInferMappingModelAutomaticallyOption`), migrates the
    /// file at `url` to the coordinator's model and returns true (the caller reads the file again). Returns false when
    /// nothing is to be done or nothing was asked (the caller then refuses the store with 134100). The source model is
    /// found among `OCDSourceModelsOption`, as for SQLite stores.
    func migrateStoreFileIfAsked(_ format: AtomicFileFormat, at url: URL, model: NSManagedObjectModel) throws -> Bool {
        guard let recorded = metadata[NSStoreModelVersionHashesKey] as? [String: Any],
              (storeOptions[NSIgnorePersistentStoreVersioningOption] as? Bool) != true,
              !model.isConfiguration(withName: configuration, compatibleWithStoreMetadata: metadata),
              (storeOptions[NSMigratePersistentStoresAutomaticallyOption] as? Bool) == true, !isReadOnly else { return false }
        let storeHashes = recorded.compactMapValues { $0 as? Data }
        let difference = ModelDifference(storeHashes: storeHashes, storeModel: nil, model: model, configuration: configuration)
        if storeOptions[NSPersistentStoreStagedMigrationManagerOptionKey] != nil {
            throw CoreDataError(.migration, "\(url.path): staged migration (NSPersistentStoreStagedMigrationManagerOptionKey) runs on "
                                + "SQLite stores; migrate this \(format.name) store with an inferred mapping, or convert it to SQLite first")
        }
        let candidates = storeOptions[OCDSourceModelsOption] as? [NSManagedObjectModel] ?? []
        guard let source = candidates.first(where: { $0.entityVersionHashesByName == storeHashes }) else {
            throw CoreDataError(.migrationMissingSourceModel,
                                "\(url.path): cannot migrate: no model matches the store's version hashes (a \(format.name) store carries "
                                    + "no model of its own); pass its model version in OCDSourceModelsOption")
        }
        guard (storeOptions[NSInferMappingModelAutomaticallyOption] as? Bool) == true else {
            throw CoreDataError(.migrationMissingMappingModel,
                                "\(url.path): persistent store migration failed, missing mapping model (\(difference)); "
                                    + "set NSInferMappingModelAutomaticallyOption to infer one")
        }
        try NSMigrationManager.migrateAtomicStore(at: url, type: type, steps: [AtomicMigrationStep(sourceModel: source, destinationModel: model,
                                                                                                    mapping: nil)])
        return true
    }
}
