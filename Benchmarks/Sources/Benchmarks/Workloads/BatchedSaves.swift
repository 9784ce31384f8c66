import Foundation
import GRDB
import OpenCoreData

/// Issue 7's saves: insert, update and delete `count` records in batched saves of `batch` (a save, then `reset()`,
/// as the seeds advise for imports), against prepared statements in one transaction per batch (the floor) and GRDB
/// records. Every contender writes the same values and must leave the same rows behind.
enum BatchedSaves {
    static let entities = ["Record"]

    static func workloads(factory: StoreFactory, count: Int, batch: Int) throws -> [Workload] {
        let empty = try factory.emptyRecordStore()
        let filled = try factory.recordStore(rows: count)
        return [insert(template: empty, count: count, batch: batch),
                update(template: filled, count: count, batch: batch),
                delete(template: filled, count: count, batch: batch)]
    }

    // MARK: Insert

    static func insert(template: URL, count: Int, batch: Int) -> Workload {
        let values = RecordValues.generate(count)
        let model = WriteModels.records()
        let raw = WritingContenders.raw(template: template, entities: entities) { database, watch in
            try watch.measure {
                let insert = try database.prepare(
                    "INSERT INTO ZRECORD (Z_PK, Z_ENT, Z_OPT, ZREMOTEID, ZNAME, ZVALUE, ZCOUNT, ZCREATED) VALUES (?, 1, 1, ?, ?, ?, ?, ?)")
                for range in batches(count, size: batch) {
                    try database.execute("BEGIN IMMEDIATE")
                    for index in range {
                        insert.bind(Int64(index + 1), at: 1)
                        insert.bind(record: values[index], from: 2)
                        _ = try insert.step()
                        insert.reset()
                    }
                    try database.setPrimaryKeyMaximum(Int64(range.upperBound), entity: "Record")
                    try database.execute("COMMIT")
                }
            }
        }
        let ours = WritingContenders.ours("ours · insertNewObject + setValue, save + reset per batch", template: template,
                                          model: model, entities: entities) { context, watch in
            try watch.measure {
                for range in batches(count, size: batch) {
                    for index in range {
                        let record = values[index]
                        let object = NSEntityDescription.insertNewObject(forEntityName: "Record", into: context)
                        object.setValue(record.remoteID, forKey: "remoteID")
                        object.setValue(record.name, forKey: "name")
                        object.setValue(record.value, forKey: "value")
                        object.setValue(record.count, forKey: "count")
                        object.setValue(record.date, forKey: "created")
                    }
                    try context.save()
                    context.reset()
                }
            }
        }
        let grdb = WritingContenders.grdb("GRDB · records insert", template: template, entities: entities) { queue, watch in
            try watch.measure {
                for range in batches(count, size: batch) {
                    try queue.write { db in
                        for index in range { try RecordRow(key: Int64(index + 1), record: values[index]).insert(db) }
                        try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_NAME = 'Record'", arguments: [range.upperBound])
                    }
                }
            }
        }
        return Workload(
            group: "saves", name: "insert in batched saves of \(batch.formatted())", rows: count,
            implementations: [raw, ours, grdb],
            targets: [Target(implementation: ours.name, maximumRatio: 3, minimumRowsPerSecond: 200_000,
                             description: "≤ 3× raw and ≥ 200,000 objects/s")])
    }

    // MARK: Update

    /// Every record's `count` + 1 and `value` + 0.5, read from the row and written back, batch by batch of remote IDs.
    static func update(template: URL, count: Int, batch: Int) -> Workload {
        let model = WriteModels.records()
        let raw = WritingContenders.raw(template: template, entities: entities) { database, watch in
            try watch.measure {
                let select = try database.prepare("SELECT Z_PK, Z_OPT, ZCOUNT, ZVALUE FROM ZRECORD WHERE ZREMOTEID >= ? AND ZREMOTEID < ?")
                let update = try database.prepare("UPDATE ZRECORD SET ZCOUNT = ?, ZVALUE = ?, Z_OPT = Z_OPT + 1 WHERE Z_PK = ? AND Z_OPT = ?")
                var rows: [(key: Int64, version: Int64, count: Int64, value: Double)] = []
                for range in batches(count, size: batch) {
                    try database.execute("BEGIN IMMEDIATE")
                    rows.removeAll(keepingCapacity: true)
                    select.bind(Int64(range.lowerBound), at: 1)
                    select.bind(Int64(range.upperBound), at: 2)
                    while try select.step() {
                        rows.append((select.int64(0), select.int64(1), select.int64(2), select.double(3)))
                    }
                    select.reset()
                    for row in rows {
                        update.bind(row.count + 1, at: 1)
                        update.bind(row.value + 0.5, at: 2)
                        update.bind(row.key, at: 3)
                        update.bind(row.version, at: 4)
                        _ = try update.step()
                        update.reset()
                    }
                    try database.execute("COMMIT")
                }
            }
        }
        let ours = WritingContenders.ours("ours · fetch batch, setValue, save + reset", template: template,
                                          model: model, entities: entities) { context, watch in
            try watch.measure {
                for range in batches(count, size: batch) {
                    let objects = try context.fetch(recordsRequest(range))
                    for object in objects {
                        object.setValue(Int32(integer(object.value(forKey: "count")) + 1), forKey: "count")
                        object.setValue((object.value(forKey: "value") as? Double ?? 0) + 0.5, forKey: "value")
                    }
                    try context.save()
                    context.reset()
                }
            }
        }
        let grdb = WritingContenders.grdb("GRDB · fetch records, update", template: template, entities: entities) { queue, watch in
            try watch.measure {
                for range in batches(count, size: batch) {
                    try queue.write { db in
                        let records = try RecordRow.fetchAll(db, sql: "SELECT * FROM ZRECORD WHERE ZREMOTEID >= ? AND ZREMOTEID < ?",
                                                             arguments: [range.lowerBound, range.upperBound])
                        for var record in records {
                            record.count += 1
                            record.value += 0.5
                            record.version += 1
                            try record.update(db, columns: ["ZCOUNT", "ZVALUE", "Z_OPT"])
                        }
                    }
                }
            }
        }
        return Workload(
            group: "saves", name: "update in batched saves of \(batch.formatted())", rows: count,
            implementations: [raw, ours, grdb],
            targets: [Target(implementation: ours.name, maximumRatio: 3, description: "≤ 3× raw")])
    }

    // MARK: Delete

    static func delete(template: URL, count: Int, batch: Int) -> Workload {
        let model = WriteModels.records()
        let raw = WritingContenders.raw(template: template, entities: entities) { database, watch in
            try watch.measure {
                let select = try database.prepare("SELECT Z_PK, Z_OPT FROM ZRECORD WHERE ZREMOTEID >= ? AND ZREMOTEID < ?")
                let delete = try database.prepare("DELETE FROM ZRECORD WHERE Z_PK = ? AND Z_OPT = ?")
                var rows: [(key: Int64, version: Int64)] = []
                for range in batches(count, size: batch) {
                    try database.execute("BEGIN IMMEDIATE")
                    rows.removeAll(keepingCapacity: true)
                    select.bind(Int64(range.lowerBound), at: 1)
                    select.bind(Int64(range.upperBound), at: 2)
                    while try select.step() { rows.append((select.int64(0), select.int64(1))) }
                    select.reset()
                    for row in rows {
                        delete.bind(row.key, at: 1)
                        delete.bind(row.version, at: 2)
                        _ = try delete.step()
                        delete.reset()
                    }
                    try database.execute("COMMIT")
                }
            }
        }
        let ours = WritingContenders.ours("ours · fetch batch, delete, save + reset", template: template,
                                          model: model, entities: entities) { context, watch in
            try watch.measure {
                for range in batches(count, size: batch) {
                    for object in try context.fetch(recordsRequest(range)) { context.delete(object) }
                    try context.save()
                    context.reset()
                }
            }
        }
        let grdb = WritingContenders.grdb("GRDB · fetch keys, deleteOne", template: template, entities: entities) { queue, watch in
            try watch.measure {
                for range in batches(count, size: batch) {
                    try queue.write { db in
                        let keys = try Int64.fetchAll(db, sql: "SELECT Z_PK FROM ZRECORD WHERE ZREMOTEID >= ? AND ZREMOTEID < ?",
                                                      arguments: [range.lowerBound, range.upperBound])
                        for key in keys { _ = try RecordRow.deleteOne(db, key: key) }
                    }
                }
            }
        }
        return Workload(
            group: "saves", name: "delete in batched saves of \(batch.formatted())", rows: count,
            implementations: [raw, ours, grdb],
            targets: [Target(implementation: ours.name, maximumRatio: 3, description: "≤ 3× raw")])
    }

    /// The records whose remote IDs fall in `range`.
    static func recordsRequest(_ range: Range<Int>) -> NSFetchRequest<NSManagedObject> {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Record")
        request.predicate = NSPredicate(format: "remoteID >= %@ AND remoteID < %@", argumentArray: [range.lowerBound, range.upperBound])
        return request
    }
}
