import Foundation
import GRDB
import OpenCoreData

/// Builders for write workloads: each iteration copies a template store (untimed), opens a writable stack or
/// connection on the copy (untimed), runs the body, and then reads back what was written into the checksum, so
/// that every contender must leave the same rows behind.
enum WritingContenders {
    /// Our library: a writable stack on a fresh copy; the body runs on the context's queue.
    static func ours(_ name: String, template: URL, model: NSManagedObjectModel, entities: [String],
                     _ body: @escaping (NSManagedObjectContext, Stopwatch) throws -> Void) -> Implementation {
        Implementation(name: name, contender: .ours) { watch in
            let scratch = try ScratchStore.copy(of: template)
            try {
                let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
                try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, at: scratch, options: nil)
                let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
                context.persistentStoreCoordinator = coordinator
                let before = coordinator.statistics.snapshot.statements
                try context.performAndWait { try body(context, watch) }
                watch.storeStatements = coordinator.statistics.snapshot.statements - before
            }()
            watch.checksum = try ScratchStore.checksum(scratch, entities: entities)
        }
    }

    /// The SQLite C API on a writable connection to a fresh copy.
    static func raw(_ name: String = "raw SQLite", template: URL, entities: [String],
                    _ body: @escaping (RawDatabase, Stopwatch) throws -> Void) -> Implementation {
        Implementation(name: name, contender: .raw) { watch in
            let scratch = try ScratchStore.copy(of: template)
            try {
                let database = try RawDatabase(path: scratch.path, readOnly: false)
                try body(database, watch)
            }()
            watch.checksum = try ScratchStore.checksum(scratch, entities: entities)
        }
    }

    /// GRDB on a writable `DatabaseQueue` on a fresh copy; the body opens its own write transactions (one per batch).
    static func grdb(_ name: String, template: URL, entities: [String],
                     _ body: @escaping (DatabaseQueue, Stopwatch) throws -> Void) -> Implementation {
        Implementation(name: name, contender: .grdb) { watch in
            let scratch = try ScratchStore.copy(of: template)
            try {
                let queue = try DatabaseQueue(path: scratch.path)
                try body(queue, watch)
            }()
            watch.checksum = try ScratchStore.checksum(scratch, entities: entities)
        }
    }
}

/// `0..<count` cut into consecutive ranges of `size` (the last one shorter): the batches of a batched save.
func batches(_ count: Int, size: Int) -> [Range<Int>] {
    stride(from: 0, to: count, by: max(1, size)).map { $0..<min(count, $0 + size) }
}

extension RawDatabase {
    /// Advances `Z_MAX` of `entity` to `maximum`, as every writer of Core Data's format must after inserting.
    func setPrimaryKeyMaximum(_ maximum: Int64, entity: String) throws {
        try execute("UPDATE Z_PRIMARYKEY SET Z_MAX = \(maximum) WHERE Z_NAME = '\(entity)'")
    }
}

/// A `Record` row for GRDB, with the hand-written row decoding and encoding GRDB's own performance suite uses.
struct RecordRow: FetchableRecord, PersistableRecord {
    static let databaseTableName = "ZRECORD"
    var key: Int64
    var version: Int64
    var remoteID: Int64
    var name: String
    var value: Double
    var count: Int64
    var created: Double

    init(key: Int64, record: RecordValues) {
        self.key = key
        version = 1
        remoteID = record.remoteID
        name = record.name
        value = record.value
        count = Int64(record.count)
        created = record.created
    }

    init(row: Row) {
        key = row["Z_PK"]
        version = row["Z_OPT"]
        remoteID = row["ZREMOTEID"]
        name = row["ZNAME"]
        value = row["ZVALUE"]
        count = row["ZCOUNT"]
        created = row["ZCREATED"]
    }

    func encode(to container: inout PersistenceContainer) {
        container["Z_PK"] = key
        container["Z_ENT"] = 1
        container["Z_OPT"] = version
        container["ZREMOTEID"] = remoteID
        container["ZNAME"] = name
        container["ZVALUE"] = value
        container["ZCOUNT"] = count
        container["ZCREATED"] = created
    }
}
