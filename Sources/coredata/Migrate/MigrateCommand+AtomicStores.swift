import CoreDataModel
import CoreDataObjectGraph
import CoreDataSQLiteFormat
import Foundation

/// `coredata migrate` on an XML or binary store: the same plan as for SQLite (the version that wrote the store, each
/// step inferred or given by a mapping model), every step run object by object into a scratch file beside the store,
/// and the result written over the store in one atomic replacement.
extension MigrateCommand {
    func runOnAtomicStore(url: URL, type: String, versions: ModelVersionSet) throws {
        let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: type, at: url)
        let hashes = (metadata[NSStoreModelVersionHashesKey] as? [String: Any] ?? [:]).compactMapValues { $0 as? Data }
        let provided = try Self.mappingModels(mapping, versions: versions, modelPath: model)
        // An atomic store carries no model of its own: the version is found by its hashes alone.
        let path = try VersionMigrationPath(storeHashes: hashes, storeModel: nil, versions: versions, file: url.path, mappings: provided)
        guard !path.steps.isEmpty else {
            print("\(url.path) is already at the current version \(path.destinationVersionName); nothing to migrate")
            return
        }
        print("\(url.path): version \(path.sourceVersionName) → \(path.destinationVersionName), \(path.steps.count) step(s)")
        if !dryRun && !noBackup {
            let backup = URL(fileURLWithPath: url.path + ".backup-" + Self.timestamp())
            try NSPersistentStoreCoordinator(managedObjectModel: versions.currentModel)
                .replacePersistentStore(at: backup, withPersistentStoreFrom: url, ofType: type)
            print("backup: \(backup.path)")
        }
        let bar = ProgressLine(label: "migrating")
        let share = 1_000
        let count = path.steps.count
        let steps = path.steps.map { AtomicMigrationStep(sourceModel: $0.step.sourceModel, destinationModel: $0.step.destinationModel,
                                                         mapping: $0.step.mapping) }
        do {
            try NSMigrationManager.migrateAtomicStore(at: url, type: type, steps: steps, dryRun: dryRun) { step, fraction in
                bar.show(step * share + Int(fraction * Float(share)), count * share)
            }
        } catch {
            bar.finish()
            throw CommandFailure("cannot migrate \(url.path); the store was not changed: " + CommandFailure.describe(error))
        }
        bar.show(1, 1)
        bar.finish()
        for (index, step) in path.steps.enumerated() {
            print(Self.describe(step: index + 1, from: step.from, to: step.to, mapping: step.step.mapping, file: step.mappingFile, plan: nil))
        }
        print(dryRun ? "dry run: the store was not changed" : "migrated to \(path.destinationVersionName)")
    }
}
