import Foundation
import GRDB
import OpenCoreData

/// The third seed's import (WWDC 2013, "Efficiently Importing Data"): `count` records arrive in no particular order;
/// each one updates the stored record with its remote ID, or is inserted. Half of them exist already.
///
/// - sorted merge: sort the input by remote ID; per batch, one fetch of the existing records with `IN` over the
///   batch's IDs, sorted by ID; walk both sorted lists together: equal IDs update, others insert.
/// - naive: one fetch per record (`remoteID == %@`, limit 1), in arrival order.
///
/// The floor and GRDB run the same sorted merge. Each batch is one save (`reset()` after it).
enum FindOrCreate {
    static let entities = ["Record"]

    static func workload(factory: StoreFactory, count: Int, batch: Int) throws -> Workload {
        // Existing records hold the even remote IDs 0, 2, …; the import holds every ID below `count`.
        let template = try factory.recordStore(rows: count / 2, step: 2)
        var shuffler = SeededGenerator(seed: benchmarkSeed + 3)
        let input = RecordValues.generate(count, seed: benchmarkSeed + 2).shuffled(using: &shuffler)
        let model = WriteModels.records()

        let raw = WritingContenders.raw(template: template, entities: entities) { database, watch in
            try watch.measure {
                let sorted = input.sorted { $0.remoteID < $1.remoteID }
                let update = try database.prepare(
                    "UPDATE ZRECORD SET ZNAME = ?, ZVALUE = ?, ZCOUNT = ?, ZCREATED = ?, Z_OPT = Z_OPT + 1 WHERE Z_PK = ? AND Z_OPT = ?")
                let insert = try database.prepare(
                    "INSERT INTO ZRECORD (Z_PK, Z_ENT, Z_OPT, ZREMOTEID, ZNAME, ZVALUE, ZCOUNT, ZCREATED) VALUES (?, 1, 1, ?, ?, ?, ?, ?)")
                var selects: [Int: RawStatement] = [:]
                var existing: [(key: Int64, version: Int64, remoteID: Int64)] = []
                for range in batches(sorted.count, size: batch) {
                    try database.execute("BEGIN IMMEDIATE")
                    var nextKey = Int64(try database.scalar("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Record'"))
                    let select = try selects[range.count] ?? database.prepare(
                        "SELECT Z_PK, Z_OPT, ZREMOTEID FROM ZRECORD WHERE ZREMOTEID IN ("
                            + Array(repeating: "?", count: range.count).joined(separator: ", ") + ") ORDER BY ZREMOTEID")
                    selects[range.count] = select
                    for (offset, index) in range.enumerated() { select.bind(sorted[index].remoteID, at: Int32(offset + 1)) }
                    existing.removeAll(keepingCapacity: true)
                    while try select.step() { existing.append((select.int64(0), select.int64(1), select.int64(2))) }
                    select.reset()
                    var next = 0
                    for index in range {
                        let record = sorted[index]
                        if next < existing.count, existing[next].remoteID == record.remoteID {
                            update.bind(record.name, at: 1)
                            update.bind(record.value, at: 2)
                            update.bind(Int64(record.count), at: 3)
                            update.bind(record.created, at: 4)
                            update.bind(existing[next].key, at: 5)
                            update.bind(existing[next].version, at: 6)
                            _ = try update.step()
                            update.reset()
                            next += 1
                        } else {
                            nextKey += 1
                            insert.bind(nextKey, at: 1)
                            insert.bind(record: record, from: 2)
                            _ = try insert.step()
                            insert.reset()
                        }
                    }
                    try database.setPrimaryKeyMaximum(nextKey, entity: "Record")
                    try database.execute("COMMIT")
                }
            }
        }
        let sortedMerge = WritingContenders.ours("ours · sorted merge (IN fetch per batch)", template: template,
                                                 model: model, entities: entities) { context, watch in
            try watch.measure {
                let sorted = input.sorted { $0.remoteID < $1.remoteID }
                for range in batches(sorted.count, size: batch) {
                    let request = NSFetchRequest<NSManagedObject>(entityName: "Record")
                    request.predicate = NSPredicate(format: "remoteID IN %@", argumentArray: [sorted[range].map(\.remoteID)])
                    request.sortDescriptors = [NSSortDescriptor(key: "remoteID", ascending: true)]
                    let existing = try context.fetch(request)
                    var next = 0
                    for index in range {
                        let record = sorted[index]
                        if next < existing.count, Int64(integer(existing[next].value(forKey: "remoteID"))) == record.remoteID {
                            assign(record, to: existing[next])
                            next += 1
                        } else {
                            let object = NSEntityDescription.insertNewObject(forEntityName: "Record", into: context)
                            object.setValue(record.remoteID, forKey: "remoteID")
                            assign(record, to: object)
                        }
                    }
                    try context.save()
                    context.reset()
                }
            }
        }
        let naive = WritingContenders.ours("ours · naive (fetch per record)", template: template,
                                           model: model, entities: entities) { context, watch in
            try watch.measure {
                for range in batches(input.count, size: batch) {
                    for index in range {
                        let record = input[index]
                        let request = NSFetchRequest<NSManagedObject>(entityName: "Record")
                        request.predicate = NSPredicate(format: "remoteID == %@", argumentArray: [record.remoteID])
                        request.fetchLimit = 1
                        if let object = try context.fetch(request).first {
                            assign(record, to: object)
                        } else {
                            let object = NSEntityDescription.insertNewObject(forEntityName: "Record", into: context)
                            object.setValue(record.remoteID, forKey: "remoteID")
                            assign(record, to: object)
                        }
                    }
                    try context.save()
                    context.reset()
                }
            }
        }
        let grdb = WritingContenders.grdb("GRDB · sorted merge with records", template: template, entities: entities) { queue, watch in
            try watch.measure {
                let sorted = input.sorted { $0.remoteID < $1.remoteID }
                for range in batches(sorted.count, size: batch) {
                    try queue.write { db in
                        var nextKey = try Int64.fetchOne(db, sql: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Record'") ?? 0
                        let existing = try RecordRow.filter(sorted[range].map(\.remoteID).contains(Column("ZREMOTEID")))
                            .order(Column("ZREMOTEID")).fetchAll(db)
                        var next = 0
                        for index in range {
                            let record = sorted[index]
                            if next < existing.count, existing[next].remoteID == record.remoteID {
                                var stored = existing[next]
                                stored.name = record.name
                                stored.value = record.value
                                stored.count = Int64(record.count)
                                stored.created = record.created
                                stored.version += 1
                                try stored.update(db)
                                next += 1
                            } else {
                                nextKey += 1
                                try RecordRow(key: nextKey, record: record).insert(db)
                            }
                        }
                        try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_NAME = 'Record'", arguments: [nextKey])
                    }
                }
            }
        }
        return Workload(
            group: "saves", name: "find-or-create import, half existing, \(batch.formatted()) per save", rows: count,
            implementations: [raw, sortedMerge, naive, grdb])
    }

    /// The imported values of one record (all but the remote ID).
    static func assign(_ record: RecordValues, to object: NSManagedObject) {
        object.setValue(record.name, forKey: "name")
        object.setValue(record.value, forKey: "value")
        object.setValue(record.count, forKey: "count")
        object.setValue(record.date, forKey: "created")
    }
}
