import Foundation
import OpenCoreData

/// Issue 19's migration speed: a `Record` store (`rows` rows) migrated to a new model version when it is added with
/// automatic lightweight migration, against the hand-written SQL doing the same change on a copy. In place: the
/// entity gains an optional attribute and renames one (`ALTER TABLE … ADD COLUMN`, `RENAME COLUMN`); by copy: it
/// loses an attribute, which SQL cannot drop in place on every SQLite, so the table is rebuilt (`INSERT … SELECT`).
/// Both floors also write the new metadata and model cache (copied from a store we migrated before timing).
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
        ) { database, reference in
            try database.execute("ALTER TABLE ZRECORD ADD COLUMN ZTAG VARCHAR")
            try database.execute("ALTER TABLE ZRECORD RENAME COLUMN ZNAME TO ZTITLE")
            try copyMetadata(from: reference, into: database)
        }
        let byCopy = try workload(
            name: "lightweight by table copy: remove an attribute (\(rows.formatted()) rows)", template: template,
            source: source, destination: withoutCount(), rows: rows, maximumRatio: 3
        ) { database, reference in
            let schema = try reference.prepare("SELECT sql FROM sqlite_master WHERE tbl_name = 'ZRECORD' AND sql IS NOT NULL ORDER BY type DESC")
            var statements: [String] = []
            while try schema.step() { statements.append(schema.text(0) ?? "") }
            try database.execute(statements[0].replacingOccurrences(of: "CREATE TABLE ZRECORD", with: "CREATE TABLE ZRECORD_NEW"))
            try database.execute("INSERT INTO ZRECORD_NEW (Z_PK, Z_ENT, Z_OPT, ZREMOTEID, ZNAME, ZVALUE, ZCREATED) "
                                 + "SELECT Z_PK, Z_ENT, Z_OPT, ZREMOTEID, ZNAME, ZVALUE, ZCREATED FROM ZRECORD")
            try database.execute("DROP TABLE ZRECORD")
            try database.execute("ALTER TABLE ZRECORD_NEW RENAME TO ZRECORD")
            for index in statements.dropFirst() { try database.execute(index) }
            try copyMetadata(from: reference, into: database)
        }
        return [inPlace, byCopy]
    }

    /// One migration workload: ours adds the store with the new model and automatic migration; the floor runs
    /// `change` in one transaction. `reference` is a store we migrated before timing, whose schema and metadata the
    /// floor copies.
    private static func workload(name: String, template: URL, source: NSManagedObjectModel, destination: NSManagedObjectModel,
                                 rows: Int, maximumRatio: Double,
                                 change: @escaping (RawDatabase, RawDatabase) throws -> Void) throws -> Workload {
        let reference = template.deletingLastPathComponent().appendingPathComponent("migrated-" + name.prefix(20).filter(\.isLetter) + ".sqlite")
        ScratchStore.remove(reference)
        try FileManager.default.copyItem(at: template, to: reference)
        try migrate(reference, from: source, to: destination)
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
            watch.checksum = try ScratchStore.checksum(scratch, entities: entities)
        }
        let raw = WritingContenders.raw(template: template, entities: entities) { database, watch in
            let referenceDatabase = try RawDatabase(path: reference.path)
            // Attaching cannot happen inside the transaction; it is setup, as opening the file is.
            try database.execute("ATTACH DATABASE '\(reference.path.replacingOccurrences(of: "'", with: "''"))' AS reference")
            try watch.measure {
                try database.execute("BEGIN IMMEDIATE")
                try change(database, referenceDatabase)
                try database.execute("COMMIT")
            }
        }
        return Workload(group: "migration", name: name, rows: rows, implementations: [raw, ours],
                        targets: [Target(implementation: ours.name, maximumRatio: maximumRatio,
                                         description: "≤ \(maximumRatio.formatted())× the hand-written SQL")])
    }

    private static func migrate(_ url: URL, from source: NSManagedObjectModel, to destination: NSManagedObjectModel) throws {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: destination)
        let store = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, at: url, options: [
            NSMigratePersistentStoresAutomaticallyOption: true, NSInferMappingModelAutomaticallyOption: true, OCDSourceModelsOption: [source],
        ])
        try coordinator.remove(store)
    }

    /// The metadata and model cache of the migrated reference store (attached as `reference`), written as the floor's
    /// last step.
    private static func copyMetadata(from reference: RawDatabase, into database: RawDatabase) throws {
        try database.execute("UPDATE Z_METADATA SET Z_PLIST = (SELECT Z_PLIST FROM reference.Z_METADATA), "
                             + "Z_UUID = (SELECT Z_UUID FROM reference.Z_METADATA)")
        try database.execute("DELETE FROM Z_MODELCACHE")
        try database.execute("INSERT INTO Z_MODELCACHE SELECT * FROM reference.Z_MODELCACHE")
    }
}
