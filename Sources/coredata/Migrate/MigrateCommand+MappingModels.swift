import CoreDataModel
import CoreDataObjectGraph
import CoreDataSQLiteFormat
import Foundation
import SQLiteDatabase

/// `coredata migrate --mapping`: Xcode mapping models for some steps, and the steps that run object by object.
extension MigrateCommand {
    /// The mapping models the `--mapping` arguments name (files, or directories of them), each read against the two
    /// versions it says it was drawn between. Errors name the file: a version the model lacks, an entity a version
    /// lacks, a compiled `.cdm`.
    static func mappingModels(_ arguments: [String], versions: ModelVersionSet, modelPath: String) throws -> [VersionMigrationPath.ProvidedMapping] {
        // Files named one by one must each map a step of the path; files found in a folder are used where they do.
        var files: [(url: URL, required: Bool)] = []
        for argument in arguments {
            let url = URL(fileURLWithPath: argument)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
                throw CommandFailure("\(argument): no such mapping model file or directory")
            }
            guard isDirectory.boolValue, url.pathExtension != "xcmappingmodel" else {
                files.append((url, true))
                continue
            }
            let found = try FileManager.default.contentsOfDirectory(at: url, includingPropertiesForKeys: nil)
                .filter { ["xcmappingmodel", "cdm"].contains($0.pathExtension) }
                .sorted { $0.lastPathComponent < $1.lastPathComponent }
            guard !found.isEmpty else { throw CommandFailure("\(argument): a directory without mapping models (.xcmappingmodel, .cdm)") }
            files += found.map { ($0, false) }
        }
        return try files.map { file, required in
            var provided = try mappingModel(file, versions: versions, modelPath: modelPath)
            provided.required = required
            return provided
        }
    }

    /// One mapping model file, matched to the versions it maps.
    private static func mappingModel(_ file: URL, versions: ModelVersionSet, modelPath: String) throws -> VersionMigrationPath.ProvidedMapping {
        if file.pathExtension == "cdm" { return try compiledMappingModel(file, versions: versions, modelPath: modelPath) }
        guard file.pathExtension == "xcmappingmodel" || file.lastPathComponent == "xcmapping.xml" else {
            throw CommandFailure("\(file.path): not a mapping model (an Xcode .xcmappingmodel or a compiled .cdm)")
        }
        let names = versions.versions.map(\.name)
        let (from, to) = try NSMappingModel.xcodeMappingModelVersions(at: file)
        guard let from, let to else {
            throw CommandFailure("\(file.path): the mapping model does not say which model versions it maps (no source or destination "
                                 + "model path), so no step can be matched to it")
        }
        for name in [from, to] where !names.contains(name) {
            throw CommandFailure("\(file.path): maps \(from) → \(to), but \(modelPath) has no version \(name) (versions: "
                                 + names.joined(separator: ", ") + "); nothing was changed")
        }
        let source = versions.versions.first { $0.name == from }!.model, destination = versions.versions.first { $0.name == to }!.model
        let mapping = try NSMappingModel(contentsOf: file, sourceModel: source, destinationModel: destination)
        return VersionMigrationPath.ProvidedMapping(from: from, to: to, mapping: mapping, file: file.path)
    }

    /// A compiled mapping model, matched to the pair of versions whose entity version hashes it was compiled with.
    private static func compiledMappingModel(_ file: URL, versions: ModelVersionSet, modelPath: String) throws -> VersionMigrationPath.ProvidedMapping {
        let mapping = try NSMappingModel.compiledMappingModel(contentsOf: file)
        let all = versions.versions
        var pairs: [(from: String, to: String)] = []
        for (index, source) in all.enumerated() {
            for destination in all[(index + 1)...] where mapping.mismatch(sourceModel: source.model, destinationModel: destination.model) == nil {
                pairs.append((source.name, destination.name))
            }
        }
        guard let pair = pairs.first else {
            throw CommandFailure("\(file.path): the entity version hashes it was compiled with match no pair of versions of \(modelPath) "
                                 + "(versions: \(all.map(\.name).joined(separator: ", "))); nothing was changed")
        }
        guard pairs.count == 1 else {
            throw CommandFailure("\(file.path): fits several pairs of versions of \(modelPath) ("
                                 + pairs.map { "\($0.from) → \($0.to)" }.joined(separator: ", ") + "), so no step can be matched to it")
        }
        return VersionMigrationPath.ProvidedMapping(from: pair.from, to: pair.to, mapping: mapping, file: file.path)
    }

    /// Runs a path some of whose steps go object by object: every step works on files in a scratch folder beside
    /// the store (runs of SQL steps on a copy in one transaction, mapped steps from one file into a new one), and
    /// the result replaces the store in one rename at the end. The store is only read until then, so a failure or a
    /// kill leaves it as it was. With --dry-run, the result is thrown away.
    func runWithObjectSteps(_ path: VersionMigrationPath, store url: URL, currentModel: NSManagedObjectModel) throws {
        let scratch = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).migrating-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        if !dryRun && !noBackup {
            let backup = URL(fileURLWithPath: url.path + ".backup-" + Self.timestamp())
            try NSPersistentStoreCoordinator(managedObjectModel: currentModel)
                .replacePersistentStore(at: backup, withPersistentStoreFrom: url, ofType: NSSQLiteStoreType)
            print("backup: \(backup.path)")
        }
        let bar = ProgressLine(label: "migrating")
        let steps = path.steps
        // The bar in thousandths of the whole path, each step an equal share.
        let share = 1_000
        var current = url
        var made = 0
        func nextFile() -> URL {
            made += 1
            return scratch.appendingPathComponent("step-\(made).sqlite")
        }
        func finished(with file: URL) throws {
            if current != url { try NSPersistentStoreCoordinator(managedObjectModel: currentModel).destroyPersistentStore(at: current, ofType: NSSQLiteStoreType) }
            current = file
        }
        var lines: [String] = []
        var index = 0
        while index < steps.count {
            let step = steps[index], first = index
            if !NSMigrationManager.runsAsSQL(step.step.mapping) {
                let destination = nextFile()
                let manager = NSMigrationManager(sourceModel: step.step.sourceModel, destinationModel: step.step.destinationModel)
                manager.progressHandler = { progress in bar.show(first * share + Int(progress * Float(share)), steps.count * share) }
                try manager.migrateStore(from: current, sourceType: NSSQLiteStoreType, with: step.step.mapping, toDestinationURL: destination,
                                         destinationType: NSSQLiteStoreType)
                try finished(with: destination)
                lines.append(Self.describe(step: index + 1, from: step.from, to: step.to, mapping: step.step.mapping, file: step.mappingFile, plan: nil))
                index += 1
                continue
            }
            var end = index
            while end < steps.count, NSMigrationManager.runsAsSQL(steps[end].step.mapping) { end += 1 }
            if current == url {
                let copy = nextFile()
                try NSPersistentStoreCoordinator(managedObjectModel: currentModel)
                    .replacePersistentStore(at: copy, withPersistentStoreFrom: url, ofType: NSSQLiteStoreType)
                current = copy
            }
            let run = end - index
            let plans = try SQLiteStoreMigrator.migrate(storeAt: current.path, steps: steps[index..<end].map(\.step)) { done, total in
                bar.show(first * share + (total == 0 ? run * share : done * run * share / total), steps.count * share)
            }
            for (offset, plan) in plans.enumerated() {
                let step = steps[index + offset]
                lines.append(Self.describe(step: index + offset + 1, from: step.from, to: step.to, mapping: step.step.mapping,
                                           file: step.mappingFile, plan: plan))
            }
            index = end
        }
        bar.show(1, 1)
        bar.finish()
        for line in lines { print(line) }
        if dryRun {
            print("dry run: the store was not changed")
            return
        }
        // The store's write-ahead log goes into its main file first, so that no log of the old version is left to
        // meet the new file; then one rename replaces the store (a kill before it leaves the old store whole).
        try Connection(path: url.path, mode: .readWrite).execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
        try NSPersistentStoreCoordinator(managedObjectModel: currentModel)
            .replacePersistentStore(at: url, withPersistentStoreFrom: current, ofType: NSSQLiteStoreType)
        print("migrated to \(path.destinationVersionName)")
    }
}
