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
    /// Migrates the store at `url`, which `storeFile` holds open read-write, to the coordinator's model when the
    /// options ask for it, or throws 134100 naming what differs between the store's model and this one. Returns
    /// whether the migration ran on `storeFile`'s connection (which then stays open, its metadata to be read afresh);
    /// false after a staged migration, which opens the file itself at every step (this connection stays idle
    /// meanwhile), so the caller opens the store again.
    func migrateOnOpen(at url: URL, file storeFile: inout SQLiteStoreFile?) throws -> Bool {
        guard let openFile = storeFile else { throw CoreDataError(.persistentStoreOpen, "\(url.path): the store is not open") }
        let storeHashes = openFile.metadata.versionHashes
        // The model the store caches is decoded only where it is needed: to name the difference in an error, or as
        // the last candidate source when the given models do not match.
        var cachedModel: NSManagedObjectModel??
        func cached() -> NSManagedObjectModel? {
            if cachedModel == nil { cachedModel = .some(try? openFile.cachedModel()) }
            return cachedModel!
        }
        func difference() -> ModelDifference {
            ModelDifference(storeHashes: storeHashes, storeModel: cached(), model: model, configuration: configuration)
        }
        guard (storeOptions[NSMigratePersistentStoresAutomaticallyOption] as? Bool) == true, !isReadOnly else {
            throw CoreDataError(
                .persistentStoreIncompatibleVersionHash,
                "\(url.path): the model is not the one that wrote this store: \(difference()). Open it with the model version it was "
                    + "written with, or migrate it (NSMigratePersistentStoresAutomaticallyOption and NSInferMappingModelAutomaticallyOption, "
                    + "or coredata migrate)")
        }
        let given = storeOptions[OCDSourceModelsOption] as? [NSManagedObjectModel] ?? []
        if let staged = storeOptions[NSPersistentStoreStagedMigrationManagerOptionKey] as? NSStagedMigrationManager {
            let candidates = given + (cached().map { [$0] } ?? [])
            // Staged migration opens the store step by step; the caller reopens it afterwards.
            storeFile = nil
            try staged.migrate(storeAt: url, storeChecksum: VersionHashing.checksum(of: storeHashes), models: candidates + [model])
            return false
        }
        guard let source = given.first(where: { $0.entityVersionHashesByName == storeHashes })
            ?? cached().flatMap({ $0.entityVersionHashesByName == storeHashes ? $0 : nil }) else {
            throw CoreDataError(.migrationMissingSourceModel,
                                "\(url.path): cannot migrate: no model matches the store's version hashes (the store carries "
                                    + (cached() == nil ? "no model of its own" : "a model cache of another version")
                                    + "); pass its model version in OCDSourceModelsOption")
        }
        guard (storeOptions[NSInferMappingModelAutomaticallyOption] as? Bool) == true else {
            throw CoreDataError(.migrationMissingMappingModel,
                                "\(url.path): persistent store migration failed, missing mapping model (\(difference())); "
                                    + "set NSInferMappingModelAutomaticallyOption to infer one")
        }
        try NSMigrationManager.migrateSQLiteStore(at: url, file: openFile, sourceModel: source, destinationModel: model, mapping: nil, progress: nil)
        return true
    }
}
