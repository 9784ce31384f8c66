import CoreDataModel
import CoreDataSQLiteFormat
import Foundation

/// Migrate a store whose model version differs from the coordinator's when it is added.
public let NSMigratePersistentStoresAutomaticallyOption = "NSMigratePersistentStoresAutomaticallyOption"
/// With `NSMigratePersistentStoresAutomaticallyOption`: infer the mapping (lightweight migration).
public let NSInferMappingModelAutomaticallyOption = "NSInferMappingModelAutomaticallyOption"
/// OpenCoreData's stand-in for Apple's bundle search: the models (`[NSManagedObjectModel]`, e.g. every version of an
/// `.xcdatamodeld`) among which automatic migration looks for the one that wrote the store. The model a store
/// carries in `Z_MODELCACHE` is tried after them.
public let OCDSourceModelsOption = "OCDSourceModelsOption"

/// The SQLite store's automatic (lightweight) migration when it is added with a model of another version.
extension NSSQLiteStore {
    /// Migrates the store at `url` to the coordinator's model when the options ask for it, or throws 134100 naming
    /// what differs between the store's model and this one. The store's file must be closed.
    func migrateOnOpen(at url: URL) throws {
        let storeFile: SQLiteStoreFile
        do {
            storeFile = try SQLiteStoreFile(path: url.path)
        } catch {
            throw CoreDataError(.persistentStoreOpen, error.description, underlyingError: error)
        }
        let storeHashes = storeFile.metadata.versionHashes
        let cached = try? storeFile.cachedModel()
        let difference = ModelDifference(storeHashes: storeHashes, storeModel: cached, model: model, configuration: configurationName)
        guard (options[NSMigratePersistentStoresAutomaticallyOption] as? Bool) == true, !isReadOnly else {
            throw CoreDataError(
                .persistentStoreIncompatibleVersionHash,
                "\(url.path): the model is not the one that wrote this store: \(difference). Open it with the model version it was "
                    + "written with, or migrate it (NSMigratePersistentStoresAutomaticallyOption and NSInferMappingModelAutomaticallyOption, "
                    + "or coredata migrate)")
        }
        let candidates = (options[OCDSourceModelsOption] as? [NSManagedObjectModel] ?? []) + (cached.map { [$0] } ?? [])
        if let staged = options[NSPersistentStoreStagedMigrationManagerOptionKey] as? NSStagedMigrationManager {
            try staged.migrate(storeAt: url, storeChecksum: VersionHashing.checksum(of: storeHashes), models: candidates + [model])
            return
        }
        guard let source = candidates.first(where: { $0.entityVersionHashesByName == storeHashes }) else {
            throw CoreDataError(.migrationMissingSourceModel,
                                "\(url.path): cannot migrate: no model matches the store's version hashes (the store carries "
                                    + (cached == nil ? "no model of its own" : "a model cache of another version")
                                    + "); pass its model version in OCDSourceModelsOption")
        }
        guard (options[NSInferMappingModelAutomaticallyOption] as? Bool) == true else {
            throw CoreDataError(.migrationMissingMappingModel,
                                "\(url.path): persistent store migration failed, missing mapping model (\(difference)); "
                                    + "set NSInferMappingModelAutomaticallyOption to infer one")
        }
        try NSMigrationManager.migrateSQLiteStore(at: url, sourceModel: source, destinationModel: model, mapping: nil, progress: nil)
    }
}
