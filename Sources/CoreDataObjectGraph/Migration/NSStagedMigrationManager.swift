import CoreDataModel
import Foundation

/// The option of `addPersistentStore` that hands it an `NSStagedMigrationManager`.
public let NSPersistentStoreStagedMigrationManagerOptionKey = "NSPersistentStoreStagedMigrationManagerOptionKey"

/// One stage of a staged migration (abstract; Apple's `NSMigrationStage`).
open class NSMigrationStage: @unchecked Sendable {
    public var label: String?

    init() {}
}

/// A run of model versions, by checksum, each lightweight-migratable to the next.
public final class NSLightweightMigrationStage: NSMigrationStage, @unchecked Sendable {
    public let versionChecksums: [String]

    public init(_ versionChecksums: [String]) {
        self.versionChecksums = versionChecksums
    }
}

/// Names a model version by its checksum (`NSManagedObjectModel.versionChecksum`).
public final class NSManagedObjectModelReference: @unchecked Sendable {
    public let resolvedModel: NSManagedObjectModel
    public let versionChecksum: String

    /// Refers to `model`; `versionChecksum` must be the model's own (checked when the migration runs, 134504).
    public init(model: NSManagedObjectModel, versionChecksum: String) {
        resolvedModel = model
        self.versionChecksum = versionChecksum
    }
}

/// A step between two versions around which the app runs code: `willMigrateHandler` on the store opened at
/// `currentModel`, a lightweight migration to `nextModel`, then `didMigrateHandler` on the store opened at it.
public final class NSCustomMigrationStage: NSMigrationStage, @unchecked Sendable {
    public typealias Handler = (NSStagedMigrationManager, NSCustomMigrationStage) throws -> Void
    public let currentModel: NSManagedObjectModelReference
    public let nextModel: NSManagedObjectModelReference
    public var willMigrateHandler: Handler?
    public var didMigrateHandler: Handler?

    public init(migratingFrom currentModel: NSManagedObjectModelReference, to nextModel: NSManagedObjectModelReference) {
        self.currentModel = currentModel
        self.nextModel = nextModel
    }
}

/// Steps a store through model versions in the order of its stages (Apple's `NSStagedMigrationManager`, passed
/// with `NSPersistentStoreStagedMigrationManagerOptionKey`). Handlers reach the store through `container`.
public final class NSStagedMigrationManager: @unchecked Sendable {
    public let stages: [NSMigrationStage]
    /// The container on the migrating store while a custom stage's handler runs.
    public internal(set) var container: NSPersistentContainer?

    public init(_ stages: [NSMigrationStage]) {
        self.stages = stages
    }

    /// Migrates the SQLite store at `url`, at the version whose checksum is `storeChecksum`, forward through the
    /// stages. `models` are further models by checksum (the destination, candidates) for lightweight stages.
    func migrate(storeAt url: URL, storeChecksum: String, models: [NSManagedObjectModel]) throws {
        var byChecksum: [String: NSManagedObjectModel] = [:]
        for model in models { byChecksum[model.versionChecksum] = model }
        // The stages as a sequence of checksums, each adjacent pair one step; a custom stage's pair carries it.
        var sequence: [String] = []
        var customByStart: [String: NSCustomMigrationStage] = [:]
        for stage in stages {
            let checksums: [String]
            if let lightweight = stage as? NSLightweightMigrationStage {
                checksums = lightweight.versionChecksums
            } else if let custom = stage as? NSCustomMigrationStage {
                for reference in [custom.currentModel, custom.nextModel] {
                    guard reference.resolvedModel.versionChecksum == reference.versionChecksum else {
                        throw CoreDataError(.managedObjectModelReferenceNotFound,
                                            "staged migration: a model reference says checksum \(reference.versionChecksum), but its model's is "
                                                + reference.resolvedModel.versionChecksum)
                    }
                    byChecksum[reference.versionChecksum] = reference.resolvedModel
                }
                checksums = [custom.currentModel.versionChecksum, custom.nextModel.versionChecksum]
                customByStart[custom.currentModel.versionChecksum] = custom
            } else {
                throw CoreDataError(.migration, "staged migration: \(type(of: stage)) is not a stage OpenCoreData knows")
            }
            for checksum in checksums {
                if sequence.last == checksum { continue }
                guard !sequence.contains(checksum) else {
                    throw CoreDataError(.migration, "staged migration: duplicate version checksums across stages detected (\(checksum))")
                }
                sequence.append(checksum)
            }
        }
        guard var position = sequence.firstIndex(of: storeChecksum) else {
            throw CoreDataError(.managedObjectModelReferenceNotFound,
                                "\(url.path): no stage names the store's version (checksum \(storeChecksum)); nothing was changed")
        }
        while position + 1 < sequence.count {
            let (from, to) = (sequence[position], sequence[position + 1])
            guard let source = byChecksum[from], let destination = byChecksum[to] else {
                throw CoreDataError(.managedObjectModelReferenceNotFound,
                                    "\(url.path): no model is known for version checksum \(byChecksum[from] == nil ? from : to) "
                                        + "(pass it in OCDSourceModelsOption or a custom stage)")
            }
            let custom = customByStart[from].flatMap { $0.nextModel.versionChecksum == to ? $0 : nil }
            if let custom, let handler = custom.willMigrateHandler { try run(handler, custom, url: url, model: source) }
            try NSMigrationManager.migrateSQLiteStore(at: url, sourceModel: source, destinationModel: destination, mapping: nil, progress: nil)
            if let custom, let handler = custom.didMigrateHandler { try run(handler, custom, url: url, model: destination) }
            position += 1
        }
    }

    /// Opens the store at `model`'s version in a container for the handler, and closes it afterwards.
    private func run(_ handler: NSCustomMigrationStage.Handler, _ stage: NSCustomMigrationStage, url: URL, model: NSManagedObjectModel) throws {
        let opened = NSPersistentContainer(name: "StagedMigration", managedObjectModel: model)
        let description = NSPersistentStoreDescription(url: url)
        description.shouldMigrateStoreAutomatically = false
        opened.persistentStoreDescriptions = [description]
        var failure: (any Error)?
        opened.loadPersistentStores { _, error in failure = error }
        if let failure { throw failure }
        container = opened
        defer {
            container = nil
            for store in opened.persistentStoreCoordinator.persistentStores { try? opened.persistentStoreCoordinator.remove(store) }
        }
        try handler(self, stage)
    }
}
