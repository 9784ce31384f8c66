import Foundation
import OpenCoreData

/// Issue 19's migration speed: a `Record` store (`rows` rows) migrated to a new model version when it is added with
/// automatic lightweight migration, against the hand-written SQL doing the same change on a copy. In place: the
/// entity gains an optional attribute and renames one (`ALTER TABLE … ADD COLUMN`, `RENAME COLUMN`); by copy: it
/// loses an attribute, which SQL cannot drop in place on every SQLite, so the table is rebuilt (`INSERT … SELECT`).
/// Both floors also open the file and write the new metadata and model cache (see `workload`).
enum MigrationWorkloads {
    static let entities = ["Record"]

    /// Version 2: `name` renamed to `title` (its renaming identifier says so), and an optional `tag`.
    static func renamedAndExtended() -> NSManagedObjectModel {
        let model = WriteModels.records()
        let record = model.entitiesByName["Record"]!
        var properties = record.properties.filter { $0.name != "name" }
        let title = NSAttributeDescription(name: "title", type: .stringAttributeType)
        title.renamingIdentifier = "name"
        let tag = NSAttributeDescription(name: "tag", type: .stringAttributeType)
        tag.isOptional = true
        properties += [title, tag]
        let entity = NSEntityDescription(name: "Record")
        entity.setProperties(properties.map(copy))
        return NSManagedObjectModel(entities: [entity])
    }

    /// Version 2 by copy: `count` removed.
    static func withoutCount() -> NSManagedObjectModel {
        let record = WriteModels.records().entitiesByName["Record"]!
        let entity = NSEntityDescription(name: "Record")
        entity.setProperties(record.properties.filter { $0.name != "count" }.map(copy))
        return NSManagedObjectModel(entities: [entity])
    }

    private static func copy(_ property: NSPropertyDescription) -> NSPropertyDescription {
        guard let attribute = property as? NSAttributeDescription else { return property }
        let copy = NSAttributeDescription(name: attribute.name, type: attribute.attributeType)
        copy.isOptional = attribute.isOptional
        copy.isIndexed = attribute.isIndexed
        copy.renamingIdentifier = attribute.renamingIdentifier
        return copy
    }

    static func workloads(factory: StoreFactory, rows: Int) throws -> [Workload] {
        let template = try factory.recordStore(rows: rows)
        let source = WriteModels.records()
        let inPlace = try workload(
            name: "lightweight in place: add an optional attribute, rename one (\(rows.formatted()) rows)", template: template,
            source: source, destination: renamedAndExtended(), rows: rows, maximumRatio: 1.5
        ) { database, _ in
            try database.execute("ALTER TABLE ZRECORD ADD COLUMN ZTAG VARCHAR")
            try database.execute("ALTER TABLE ZRECORD RENAME COLUMN ZNAME TO ZTITLE")
        }
        let byCopy = try workload(
            name: "lightweight by table copy: remove an attribute (\(rows.formatted()) rows)", template: template,
            source: source, destination: withoutCount(), rows: rows, maximumRatio: 3
        ) { database, statements in
            try database.execute(statements[0].replacingOccurrences(of: "CREATE TABLE ZRECORD", with: "CREATE TABLE ZRECORD_NEW"))
            try database.execute("INSERT INTO ZRECORD_NEW (Z_PK, Z_ENT, Z_OPT, ZREMOTEID, ZNAME, ZVALUE, ZCREATED) "
                                 + "SELECT Z_PK, Z_ENT, Z_OPT, ZREMOTEID, ZNAME, ZVALUE, ZCREATED FROM ZRECORD")
            try database.execute("DROP TABLE ZRECORD")
            try database.execute("ALTER TABLE ZRECORD_NEW RENAME TO ZRECORD")
            for index in statements.dropFirst() { try database.execute(index) }
        }
        return [inPlace, byCopy]
    }

    /// One migration workload: ours adds the store with the new model and automatic migration; the floor does by hand
    /// what any migration of a user's store must do, timed from opening the file to the commit of one transaction:
    /// open it, `change` the tables, and rewrite the metadata (`Z_PLIST` read, decoded, given the new version keys,
    /// encoded and written back, so the store keeps its UUID and the app's keys) and the model cache. What a
    /// hand-written migration would ship as constants is taken before timing from `reference`, a store we migrated:
    /// the new schema's SQL, the metadata values that changed, the model cache blob. Each contender's file is closed
    /// after its stopwatch stops.
    private static func workload(name: String, template: URL, source: NSManagedObjectModel, destination: NSManagedObjectModel,
                                 rows: Int, maximumRatio: Double,
                                 change: @escaping (RawDatabase, [String]) throws -> Void) throws -> Workload {
        let reference = template.deletingLastPathComponent().appendingPathComponent("migrated-" + name.prefix(20).filter(\.isLetter) + ".sqlite")
        ScratchStore.remove(reference)
        try FileManager.default.copyItem(at: template, to: reference)
        try migrate(reference, from: source, to: destination)
        let constants = try MigrationConstants(template: template, reference: reference)
        let options: [String: Any] = [NSMigratePersistentStoresAutomaticallyOption: true, NSInferMappingModelAutomaticallyOption: true,
                                      OCDSourceModelsOption: [source]]
        let ours = Implementation(name: "ours · addPersistentStore, automatic lightweight migration", contender: .ours) { watch in
            let scratch = try ScratchStore.copy(of: template)
            try {
                let coordinator = NSPersistentStoreCoordinator(managedObjectModel: destination)
                let store = try watch.measure {
                    try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, at: scratch, options: options)
                }
                try coordinator.remove(store)
            }()
            watch.checksum = try checksum(scratch)
        }
        let raw = Implementation(name: "raw SQLite", contender: .raw) { watch in
            let scratch = try ScratchStore.copy(of: template)
            try {
                let database = try watch.measure {
                    let database = try RawDatabase(path: scratch.path, readOnly: false)
                    try database.execute("BEGIN IMMEDIATE")
                    try change(database, constants.recordSchema)
                    try constants.writeMetadata(into: database)
                    try database.execute("COMMIT")
                    return database
                }
                keep(database)
            }()
            watch.checksum = try checksum(scratch)
        }
        return Workload(group: "migration", name: name, rows: rows, implementations: [raw, ours],
                        targets: [Target(implementation: ours.name, maximumRatio: maximumRatio,
                                         description: "≤ \(maximumRatio.formatted())× the hand-written SQL")])
    }

    /// The rows' checksum, with the store's identity and new version folded in: both contenders must keep the UUID
    /// and record the destination's hashes.
    private static func checksum(_ url: URL) throws -> Int {
        var hasher = Hasher()
        hasher.combine(try ScratchStore.checksum(url, entities: entities))
        let (uuid, metadata) = try MigrationConstants.metadata(of: RawDatabase(path: url.path))
        hasher.combine(uuid)
        hasher.combine(metadata["NSStoreUUID"] as? String)
        let hashes = metadata["NSStoreModelVersionHashes"] as? [String: Data] ?? [:]
        for key in hashes.keys.sorted() { hasher.combine(key); hasher.combine(hashes[key]) }
        return hasher.finalize()
    }

    private static func migrate(_ url: URL, from source: NSManagedObjectModel, to destination: NSManagedObjectModel) throws {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: destination)
        let store = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, at: url, options: [
            NSMigratePersistentStoresAutomaticallyOption: true, NSInferMappingModelAutomaticallyOption: true, OCDSourceModelsOption: [source],
        ])
        try coordinator.remove(store)
    }
}
