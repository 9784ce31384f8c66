import CoreDataModel
import CoreDataSQLiteFormat
import Foundation
import Synchronization

/// Migrates a store from a source model to a destination model under a mapping model (Apple's
/// `NSMigrationManager`). Mappings whose value expressions are `$source.<key>` copies (every inferred mapping) run as
/// SQL on a copy of the SQLite store; any other mapping (value expressions with key paths and `FUNCTION` calls, entity
/// migration policies) runs object by object in Apple's three phases (`NSMigrationManager+Phases.swift`).
/// `migrationProgress` advances as it runs, and `cancelMigrationWithError(_:)` stops it with nothing written at the
/// destination.
///
/// The class is open, as Apple's is: a subclass may override the migration entry point, `reset()`, the cancellation,
/// and the association lookups that value expressions call through `$manager` (`FUNCTION($manager,
/// "destinationInstancesForEntityMappingNamed:sourceInstances:", …)` reaches the override).
open class NSMigrationManager: @unchecked Sendable {
    public let sourceModel: NSManagedObjectModel
    public let destinationModel: NSManagedObjectModel
    /// The mapping of the running (or last) migration.
    public private(set) var mappingModel: NSMappingModel?
    open var userInfo: [AnyHashable: Any]?
    /// Apple's store-specific (in-place SQL) path; OpenCoreData always takes it.
    open var usesStoreSpecificMigrationManager = true
    /// OpenCoreData's: how many source objects an object-by-object migration handles before it saves the destination
    /// and resets both contexts (phases 2 and 3 go through the destination objects in batches of this size too).
    /// Memory grows with it, not with the store.
    public var objectBatchSize = 1_000
    private let state = Mutex(State())
    /// The source and destination contexts and the associations of a running object-by-object migration.
    var objectMigration: ObjectMigration?

    private struct State {
        var progress: Float = 0
        var cancellation: (any Error)?
    }

    public init(sourceModel: NSManagedObjectModel, destinationModel: NSManagedObjectModel) {
        self.sourceModel = sourceModel
        self.destinationModel = destinationModel
    }

    /// From 0 to 1 as the migration runs.
    open var migrationProgress: Float { state.withLock { $0.progress } }

    /// Stops the running migration (or the next one, when none is running); `migrateStore` then throws `error`
    /// (wrapped in 134120 when it is not a `CoreDataError`) and leaves nothing at the destination.
    open func cancelMigrationWithError(_ error: any Error) {
        state.withLock { $0.cancellation = error }
    }

    /// OpenCoreData's stand-in for observing `migrationProgress` by key-value observing: called on the migrating
    /// thread each time the progress moves.
    public var progressHandler: ((Float) -> Void)?

    func setProgress(_ progress: Float) {
        state.withLock { $0.progress = progress }
        progressHandler?(progress)
    }

    /// Throws the error a `cancelMigrationWithError(_:)` gave.
    func checkCancellation() throws {
        if let cancellation = state.withLock({ $0.cancellation }) { throw cancellation }
    }

    /// Migrates the store of `sourceType` at `sourceURL` into a new store at `destinationURL` (which must not exist),
    /// as Apple's manager does: the source is never changed, and on failure nothing is left at the destination.
    /// `mapping` nil means the inferred mapping. Between SQLite stores a mapping of plain copies runs as SQL; with any
    /// other store type on either side every mapping runs object by object.
    open func migrateStore(from sourceURL: URL, sourceType: String, options sOptions: [AnyHashable: Any]? = nil,
                             with mapping: NSMappingModel?, toDestinationURL destinationURL: URL, destinationType: String,
                             destinationOptions dOptions: [AnyHashable: Any]? = nil) throws {
        let sourceOptions = sOptions.map { NSPersistentStoreCoordinator.stringKeyed($0) }
        let destinationOptions = dOptions.map { NSPersistentStoreCoordinator.stringKeyed($0) }
        guard !FileManager.default.fileExists(atPath: destinationURL.path) else {
            throw CoreDataError(.migrationManagerDestinationStore, "\(destinationURL.path): a file already exists there; migration never overwrites one")
        }
        state.withLock { $0.progress = 0 }
        // A cancellation applies to one migration.
        defer { state.withLock { $0.cancellation = nil } }
        let betweenSQLiteStores = sourceType == NSSQLiteStoreType && destinationType == NSSQLiteStoreType
        if !betweenSQLiteStores || mapping.map({ !Self.runsAsSQL($0) }) == true {
            do {
                let chosen = try mapping ?? NSMappingModel.inferredMappingModelOrError(forSourceModel: sourceModel, destinationModel: destinationModel)
                mappingModel = chosen
                try migrateObjects(from: sourceURL, sourceType: sourceType, sourceOptions: sourceOptions, mapping: chosen,
                                   to: destinationURL, destinationType: destinationType, destinationOptions: destinationOptions)
            } catch {
                try? NSPersistentStoreCoordinator.storeClass(for: destinationType).destroyStore(at: destinationURL, options: destinationOptions ?? [:])
                if state.withLock({ $0.cancellation }) != nil {
                    throw CoreDataError(.migrationCancelled, "\(sourceURL.path): the migration was cancelled (\(error))", underlyingError: error)
                }
                throw error
            }
            return
        }
        try NSSQLiteStore.copyStore(to: destinationURL, from: sourceURL)
        do {
            try Self.migrateSQLiteStore(at: destinationURL, sourceModel: sourceModel, destinationModel: destinationModel, mapping: mapping) { [self] step, total in
                let progress: Float = total == 0 ? 1 : Float(step) / Float(total)
                let cancellation = state.withLock { state -> (any Error)? in
                    state.progress = progress
                    return state.cancellation
                }
                progressHandler?(progress)
                if let cancellation { throw cancellation }
            } inferred: { [self] in mappingModel = $0 }
        } catch {
            try? NSSQLiteStore.destroyFiles(at: destinationURL)
            if error is CoreDataError { throw error }
            if state.withLock({ $0.cancellation }) != nil {
                throw CoreDataError(.migrationCancelled, "\(sourceURL.path): the migration was cancelled (\(error))", underlyingError: error)
            }
            throw error
        }
    }

    /// Migrates the store at `sourceURL` into a new store at `destinationURL` under `mapping`: Apple's typed spelling
    /// (iOS 15) of `migrateStore(from:sourceType:options:with:toDestinationURL:destinationType:destinationOptions:)`,
    /// which it runs.
    public func migrateStore(from sourceURL: URL, type sourceType: NSPersistentStore.StoreType, options sourceOptions: [AnyHashable: Any]? = nil,
                             mapping: NSMappingModel, to destinationURL: URL, type destinationType: NSPersistentStore.StoreType,
                             options destinationOptions: [AnyHashable: Any]? = nil) throws {
        try migrateStore(from: sourceURL, sourceType: sourceType.rawValue, options: sourceOptions, with: mapping,
                         toDestinationURL: destinationURL, destinationType: destinationType.rawValue, destinationOptions: destinationOptions)
    }

    /// Clears what the last migration left, as Apple's `reset()` (which resets the association tables): the mapping
    /// model, the progress and a cancellation not used yet, so the manager starts its next migration afresh. The
    /// associations of an object-by-object migration are already dropped when it ends; called from a policy during
    /// a migration, `reset()` keeps them (the later phases read them) and clears only the cancellation and progress.
    open func reset() {
        if objectMigration == nil { mappingModel = nil }
        state.withLock { $0 = State() }
    }

    /// Records that `destinationInstance` was made from `sourceInstance` under `entityMapping`.
    open func associate(sourceInstance: NSManagedObject, withDestinationInstance destinationInstance: NSManagedObject,
                          for entityMapping: NSEntityMapping) {
        guard let migration = objectMigration else { return }
        let name = entityMapping.name
        migration.pending.append((name, sourceInstance, destinationInstance))
        migration.pendingBySource[name, default: [:]][sourceInstance.objectID, default: []].append(destinationInstance)
        migration.pendingByDestination[name, default: [:]][ObjectIdentifier(destinationInstance), default: []].append(sourceInstance)
    }

    /// The destination instances made from `sourceInstances` under the mapping named `mappingName` (all of them
    /// when `sourceInstances` is nil), as faults in the destination context.
    open func destinationInstances(forEntityMappingName mappingName: String, sourceInstances: [NSManagedObject]?) -> [NSManagedObject] {
        guard let migration = objectMigration else { return [] }
        guard let sourceInstances else {
            let saved = (0..<migration.associations.count(mapping: mappingName)).map {
                migration.destinationObject(migration.associations.row($0, mapping: mappingName).destination)
            }
            return saved + migration.pending.filter { $0.mapping == mappingName }.map(\.destination)
        }
        let pending = migration.pendingBySource[mappingName] ?? [:]
        return sourceInstances.flatMap { source -> [NSManagedObject] in
            let saved = migration.associations.existingKey(of: source.objectID).map {
                migration.associations.destinations(of: $0, mapping: mappingName).map(migration.destinationObject)
            } ?? []
            return saved + (pending[source.objectID] ?? [])
        }
    }

    /// The source instances `destinationInstances` were made from under the mapping named `mappingName` (all of
    /// them when `destinationInstances` is nil), as faults in the source context.
    open func sourceInstances(forEntityMappingName mappingName: String, destinationInstances: [NSManagedObject]?) -> [NSManagedObject] {
        guard let migration = objectMigration else { return [] }
        guard let destinationInstances else {
            let saved = (0..<migration.associations.count(mapping: mappingName)).map {
                migration.sourceObject(migration.associations.row($0, mapping: mappingName).source)
            }
            return saved + migration.pending.filter { $0.mapping == mappingName }.map(\.source)
        }
        let pending = migration.pendingByDestination[mappingName] ?? [:]
        return destinationInstances.flatMap { destination -> [NSManagedObject] in
            if let found = pending[ObjectIdentifier(destination)] { return found }
            return migration.associations.existingKey(of: destination.objectID).map {
                migration.associations.sources(of: $0, mapping: mappingName).map(migration.sourceObject)
            } ?? []
        }
    }

    /// The source model's entity of `mapping`.
    open func sourceEntity(for mapping: NSEntityMapping) -> NSEntityDescription? {
        mapping.sourceEntityName.flatMap { sourceModel.entitiesByName[$0] }
    }

    /// The destination model's entity of `mapping`.
    open func destinationEntity(for mapping: NSEntityMapping) -> NSEntityDescription? {
        mapping.destinationEntityName.flatMap { destinationModel.entitiesByName[$0] }
    }

    /// Migrates the SQLite store at `url` in place, in one transaction (the store keeps its old version on failure).
    /// With `file` (the store already open read-write), the migration runs on its connection instead of opening one.
    static func migrateSQLiteStore(at url: URL, file: SQLiteStoreFile? = nil, sourceModel: NSManagedObjectModel,
                                   destinationModel: NSManagedObjectModel, mapping: NSMappingModel?,
                                   progress: SQLiteStoreMigrator.Progress?, inferred: (NSMappingModel) -> Void = { _ in }) throws {
        let chosen: NSMappingModel
        if let mapping {
            chosen = mapping
        } else {
            do {
                chosen = try NSMappingModel.inferredMappingModel(forSourceModel: sourceModel, destinationModel: destinationModel)
            } catch {
                throw CoreDataError(.inferredMappingModel, "\(url.path): cannot infer a mapping model: \(error)", underlyingError: error)
            }
        }
        inferred(chosen)
        do {
            let step = SQLiteStoreMigrator.Step(sourceModel: sourceModel, destinationModel: destinationModel, mapping: chosen)
            if let file {
                try SQLiteStoreMigrator.migrate(file: file, steps: [step], progress: progress)
            } else {
                try SQLiteStoreMigrator.migrate(storeAt: url.path, steps: [step], progress: progress)
            }
        } catch let error as MigrationMappingError {
            throw CoreDataError(.migrationMissingMappingModel, "\(url.path): the mapping cannot be run: \(error)", underlyingError: error)
        } catch let error as StoreFormatError {
            throw CoreDataError(.migration, error.description, underlyingError: error)
        }
    }
}

extension NSMappingModel {
    /// `inferredMappingModel(forSourceModel:destinationModel:)` throwing Apple's error: 134190
    /// (`NSInferredMappingModelError`) with the reason, entity and property.
    public static func inferredMappingModelOrError(forSourceModel sourceModel: NSManagedObjectModel,
                                                   destinationModel: NSManagedObjectModel) throws(CoreDataError) -> NSMappingModel {
        do {
            return try inferredMappingModel(forSourceModel: sourceModel, destinationModel: destinationModel)
        } catch {
            throw CoreDataError(.inferredMappingModel, "cannot infer a mapping model: \(error)", underlyingError: error)
        }
    }
}
