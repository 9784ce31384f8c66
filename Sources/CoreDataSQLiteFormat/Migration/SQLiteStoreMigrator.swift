import CoreDataModel
import Foundation
import PropertyListCoding
import SQLiteDatabase

/// Migrates an SQLite store file in place from one model version to another, inside one exclusive transaction:
/// the data (`SQLiteMigrationPlan`), then `Z_PRIMARYKEY`, the metadata (the destination's hashes, identifiers, digest
/// and checksum; the UUID and the app's keys kept) and `Z_MODELCACHE`. A failure or a kill at any point leaves the
/// store at its old version: SQLite rolls the transaction back (at once, or when the store is next opened).
public enum SQLiteStoreMigrator {
    /// What a migration reports as it goes: the statement about to run and the total; `step == total` comes once
    /// everything is written, just before the commit. Throwing from it cancels the migration (nothing is changed).
    public typealias Progress = (_ step: Int, _ total: Int) throws -> Void

    /// The plan for migrating the store at `path`, read without changing it. Throws when the store is not at
    /// `sourceModel`'s version or the mapping cannot run as SQL.
    public static func plan(storeAt path: String, sourceModel: NSManagedObjectModel, destinationModel: NSManagedObjectModel,
                            mapping: NSMappingModel) throws -> SQLiteMigrationPlan {
        let file = try SQLiteStoreFile(path: path)
        try checkVersion(of: file, sourceModel: sourceModel)
        return try makePlan(file: file, sourceModel: sourceModel, destinationModel: destinationModel, mapping: mapping)
    }

    /// One version step: the models on either side and the mapping between them.
    public struct Step: @unchecked Sendable {
        public var sourceModel: NSManagedObjectModel
        public var destinationModel: NSManagedObjectModel
        public var mapping: NSMappingModel

        public init(sourceModel: NSManagedObjectModel, destinationModel: NSManagedObjectModel, mapping: NSMappingModel) {
            self.sourceModel = sourceModel
            self.destinationModel = destinationModel
            self.mapping = mapping
        }
    }

    /// Migrates the store at `path`; returns the plan it ran.
    @discardableResult
    public static func migrate(storeAt path: String, sourceModel: NSManagedObjectModel, destinationModel: NSManagedObjectModel,
                               mapping: NSMappingModel, progress: Progress? = nil) throws -> SQLiteMigrationPlan {
        try migrate(storeAt: path, steps: [Step(sourceModel: sourceModel, destinationModel: destinationModel, mapping: mapping)],
                    progress: progress)[0]
    }

    /// Migrates the store at `path` through several version steps inside one transaction, so that the store is
    /// either at the first step's source version or at the last step's destination, never in between. Each step is
    /// planned on the schema the previous one left. `progress` counts statements over all steps (the total grows as
    /// later steps are planned).
    @discardableResult
    public static func migrate(storeAt path: String, steps: [Step], progress: Progress? = nil) throws -> [SQLiteMigrationPlan] {
        guard !steps.isEmpty else { return [] }
        return try migrate(file: SQLiteStoreFile(path: path, mode: .readWrite), steps: steps, progress: progress)
    }

    /// Migrates the store `file` has open (read-write), on its connection, which stays open: a caller that goes on
    /// using the store reads its new metadata with `SQLiteStoreFile(connection:path:)` instead of opening it again.
    @discardableResult
    public static func migrate(file: SQLiteStoreFile, steps: [Step], progress: Progress? = nil) throws -> [SQLiteMigrationPlan] {
        guard let first = steps.first else { return [] }
        let path = file.path
        try checkVersion(of: file, sourceModel: first.sourceModel)
        // Persistent history records entity numbers (ACHANGE.ZENTITY) that a migration would renumber under it.
        if try file.connection.tableExists("ATRANSACTION") || file.connection.tableExists("ACHANGE") {
            throw StoreFormatError(file: path, reason: "records persistent history (ATRANSACTION, ACHANGE), whose entity numbers OpenCoreData "
                                    + "cannot migrate yet; nothing was changed")
        }
        // The first plan is made before the transaction, so a mapping that cannot run is refused without a write.
        var planned = [try makePlanAndLayouts(file: file, sourceModel: first.sourceModel, destinationModel: first.destinationModel, mapping: first.mapping)]
        let connection = file.connection
        var current = ""
        var done = 0
        do {
            try connection.inTransaction(.exclusive) {
                for (index, step) in steps.enumerated() {
                    if index > 0 {
                        planned.append(try makePlanAndLayouts(file: file, sourceModel: step.sourceModel, destinationModel: step.destinationModel,
                                                              mapping: step.mapping))
                    }
                    let plan = planned[index].plan
                    let total = planned.map(\.plan.statements.count).reduce(0, +) + steps.dropFirst(index + 1).count
                    let oldMaximums = try maximumKeys(file: file, layout: planned[index].source)
                    for statement in plan.statements {
                        try progress?(done, total)
                        done += 1
                        current = statement
                        try connection.execute(sql: statement)
                    }
                    current = ""
                    try runChecks(plan, connection: connection, path: path)
                    try writePrimaryKeys(connection: connection, model: step.destinationModel, layout: planned[index].destination, plan: plan,
                                         oldMaximums: oldMaximums)
                    try writeMetadata(connection: connection, file: file, model: step.destinationModel)
                }
                try progress?(done, done)
            }
        } catch let error as StoreFormatError {
            throw error
        } catch let error as SQLiteError {
            let context = current.isEmpty ? "" : " while running \(current.prefix(160))"
            let reason = error.code == .constraint
                ? "cannot be migrated in place: constraint violation during the migration (\(error.message))\(context); the store is unchanged"
                : "cannot be migrated (\(error.description))\(context); the store is unchanged"
            throw StoreFormatError(file: path, reason: reason)
        }
        return planned.map(\.plan)
    }

    private static func runChecks(_ plan: SQLiteMigrationPlan, connection: Connection, path: String) throws {
        for check in plan.requiredChecks {
            let numbers = check.entityNumbers.map(String.init).joined(separator: ", ")
            let empty = try connection.scalar("SELECT count(*) FROM \(check.table) WHERE \(check.column) IS NULL AND Z_ENT IN (\(numbers))")?.int64Value ?? 0
            if empty > 0 {
                throw StoreFormatError(file: path, reason: "cannot be migrated: \(check.what), and \(empty) existing row(s) of \(check.table) "
                                        + "would have no value for it; the store is unchanged")
            }
        }
    }

    private static func checkVersion(of file: SQLiteStoreFile, sourceModel: NSManagedObjectModel) throws {
        guard file.metadata.versionHashes == sourceModel.entityVersionHashesByName else {
            let difference = ModelDifference(storeHashes: file.metadata.versionHashes, storeModel: try? file.cachedModel(), model: sourceModel)
            throw StoreFormatError(file: file.path, reason: "is not at the source model's version (\(difference)); nothing was changed")
        }
    }

    private static func makePlan(file: SQLiteStoreFile, sourceModel: NSManagedObjectModel, destinationModel: NSManagedObjectModel,
                                 mapping: NSMappingModel) throws -> SQLiteMigrationPlan {
        try makePlanAndLayouts(file: file, sourceModel: sourceModel, destinationModel: destinationModel, mapping: mapping).plan
    }

    /// The plan, with the two layouts the planner built (reused for `Z_PRIMARYKEY` rather than built again).
    private static func makePlanAndLayouts(file: SQLiteStoreFile, sourceModel: NSManagedObjectModel, destinationModel: NSManagedObjectModel,
                                           mapping: NSMappingModel) throws -> (plan: SQLiteMigrationPlan, source: StoreLayout, destination: StoreLayout) {
        var indexes: [String: (table: String, sql: String)] = [:]
        var triggers: [String] = []
        for row in try file.connection.query("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE sql IS NOT NULL AND type IN ('index', 'trigger')") {
            guard let name = row[1].stringValue, let table = row[2].stringValue, let sql = row[3].stringValue else { continue }
            if row[0].stringValue == "index" { indexes[name] = (table, sql) } else { triggers.append(name) }
        }
        var planner = try SQLiteMigrationPlanner(sourceModel: sourceModel, destinationModel: destinationModel, mapping: mapping)
        let plan = try planner.plan(existingIndexes: indexes, existingTriggers: triggers.sorted())
        return (plan, planner.source, planner.destination)
    }

    /// `Z_MAX` of every source root table, read before anything changes.
    private static func maximumKeys(file: SQLiteStoreFile, layout: StoreLayout) throws -> [String: Int64] {
        var maximums: [String: Int64] = [:]
        for row in try file.connection.query("SELECT Z_ENT, Z_MAX FROM Z_PRIMARYKEY") {
            guard let number = row[0].int64Value, number >= 1, number <= layout.numbering.namesInNumberOrder.count,
                  let name = Optional(layout.numbering.namesInNumberOrder[Int(number) - 1]),
                  let table = layout.table(forEntity: name) else { continue }
            maximums[table.name] = max(maximums[table.name] ?? 0, row[1].int64Value ?? 0)
        }
        return maximums
    }

    /// `Z_PRIMARYKEY` laid out for the destination model; each root keeps the highest key ever allocated in the
    /// tables its rows came from, so no key is reused.
    private static func writePrimaryKeys(connection: Connection, model: NSManagedObjectModel, layout: StoreLayout, plan: SQLiteMigrationPlan,
                                         oldMaximums: [String: Int64]) throws {
        // Entity numbers from 16000 up belong to Core Data's own tables (history, CloudKit), not to the model.
        try connection.execute(sql: "DELETE FROM Z_PRIMARYKEY WHERE Z_ENT < 16000")
        for name in layout.numbering.namesInNumberOrder {
            guard let entity = model.entitiesByName[name], let number = layout.numbering[name] else { continue }
            let parent = entity.superentity.flatMap { layout.numbering[$0.entityName] } ?? 0
            var maximum: Int64 = 0
            if entity.superentity == nil, let table = layout.table(forEntity: name) {
                maximum = (plan.primaryKeySources[table.name] ?? []).compactMap { oldMaximums[$0] }.max() ?? 0
                maximum = max(maximum, try connection.scalar("SELECT max(Z_PK) FROM \(table.name)")?.int64Value ?? 0)
            }
            try connection.execute(sql: "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, ?)",
                                   arguments: [.integer(Int64(number)), .text(name), .integer(Int64(parent)), .integer(maximum)])
        }
    }

    /// The destination's hashes, identifiers, digest and checksum in `Z_PLIST`, every other key kept; the model in
    /// `Z_MODELCACHE`.
    private static func writeMetadata(connection: Connection, file: SQLiteStoreFile, model: NSManagedObjectModel) throws {
        var dictionary = file.metadata.dictionary
        // The hashes once; the digest and checksum are taken over them.
        let hashes = model.entityVersionHashesByName
        dictionary[StoreMetadata.Key.versionHashes] = .dictionary(hashes.mapValues { .data($0) })
        dictionary[StoreMetadata.Key.versionIdentifiers] = .array(model.versionIdentifierStrings.map { .string($0) })
        dictionary[StoreMetadata.Key.versionHashesDigest] = .string(VersionHashing.digest(of: hashes))
        dictionary[StoreMetadata.Key.versionChecksum] = .string(VersionHashing.checksum(of: hashes))
        dictionary[StoreMetadata.Key.frameworkVersion] = .integer(SQLiteStoreCreator.frameworkVersion)
        let plist = BinaryPropertyListWriter().write(.dictionary(dictionary))
        try connection.execute(sql: "UPDATE Z_METADATA SET Z_PLIST = ?", arguments: [.blob([UInt8](plist))])
        let cache = try ModelCache.deflate([UInt8](try CompiledModelWriter.archive(model)))
        if !(try connection.tableExists("Z_MODELCACHE")) { try connection.execute(sql: StoreLayout.modelCacheTableStatement) }
        try connection.execute(sql: "DELETE FROM Z_MODELCACHE")
        try connection.execute(sql: "INSERT INTO Z_MODELCACHE (Z_CONTENT) VALUES (?)", arguments: [.blob(cache)])
    }
}
