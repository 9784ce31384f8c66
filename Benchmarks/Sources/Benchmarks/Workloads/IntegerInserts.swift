import Foundation
import GRDB
import OpenCoreData

/// GRDB's own insert suite (`InsertPositionalValuesTests`, `InsertRecordStructTests` and the Core Data test beside
/// them): `count` rows of ten integers, row i holding i in every column, inserted in one transaction (one `save()` for
/// ours) into an empty `Item` store laid out as Core Data lays it out, the same table the fetch half reads.
enum IntegerInserts {
    static let entities = ["Item"]

    static func workload(factory: StoreFactory, count: Int) throws -> Workload {
        let template = try factory.emptyItemStore()
        let model = Models.items()
        let columns = Models.itemAttributes.map { "Z" + $0.uppercased() }
        let insertSQL = "INSERT INTO ZITEM (Z_PK, Z_ENT, Z_OPT, \(columns.joined(separator: ", "))) VALUES (?, 1, 1, "
            + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"

        // What Core Data's format asks of any writer: keys allocated past Z_MAX, read inside the transaction, and
        // Z_MAX advanced before the commit.
        let raw = WritingContenders.raw(template: template, entities: entities) { database, watch in
            try watch.measure {
                try database.execute("BEGIN IMMEDIATE")
                let first = Int64(try database.scalar(maximumKeySQL)) + 1
                let insert = try database.prepare(insertSQL)
                for index in 0..<count {
                    let value = Int64(index)
                    insert.bind(first + value, at: 1)
                    // Parameter 1 is the key; the ten integers follow.
                    for parameter in 2...Int32(columns.count + 1) { insert.bind(value, at: parameter) }
                    _ = try insert.step()
                    insert.reset()
                }
                try database.setPrimaryKeyMaximum(first + Int64(count) - 1, entity: "Item")
                try database.execute("COMMIT")
            }
        }
        let ours = WritingContenders.ours("ours · insertNewObject + setValue ×10, one save", template: template,
                                          model: model, entities: entities) { context, watch in
            try watch.measure {
                // Each key spelled out, as GRDB's Core Data insert test writes `item.setValue(NSNumber(value: i),
                // forKey: "i0")` to `"i9"` (and as the fetch half reads them).
                for index in 0..<count {
                    let value = Int64(index)
                    let item = NSEntityDescription.insertNewObject(forEntityName: "Item", into: context)
                    item.setValue(value, forKey: "i0")
                    item.setValue(value, forKey: "i1")
                    item.setValue(value, forKey: "i2")
                    item.setValue(value, forKey: "i3")
                    item.setValue(value, forKey: "i4")
                    item.setValue(value, forKey: "i5")
                    item.setValue(value, forKey: "i6")
                    item.setValue(value, forKey: "i7")
                    item.setValue(value, forKey: "i8")
                    item.setValue(value, forKey: "i9")
                }
                try context.save()
            }
        }
        let grdbRecords = WritingContenders.grdb("GRDB · struct records insert", template: template,
                                                 entities: entities) { queue, watch in
            try watch.measure {
                try queue.write { db in
                    let first = try Int64.fetchOne(db, sql: maximumKeySQL)! + 1
                    for index in 0..<count { try ItemRow(key: first + Int64(index), value: Int64(index)).insert(db) }
                    try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_NAME = 'Item'",
                                   arguments: [first + Int64(count) - 1])
                }
            }
        }
        // GRDB's positional-values test: the SQL and an argument array per row. `execute(sql:arguments:)` prepares the
        // statement again for every row (GRDB caches statements for records, not for this call).
        let grdbValues = WritingContenders.grdb("GRDB · execute(sql:arguments:)", template: template,
                                                entities: entities) { queue, watch in
            try watch.measure {
                try queue.write { db in
                    let first = try Int64.fetchOne(db, sql: maximumKeySQL)! + 1
                    for index in 0..<count {
                        let value = Int64(index)
                        try db.execute(sql: insertSQL, arguments: [first + value, value, value, value, value, value,
                                                                   value, value, value, value, value])
                    }
                    try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_NAME = 'Item'",
                                   arguments: [first + Int64(count) - 1])
                }
            }
        }
        return Workload(
            group: "GRDB suite", name: "insert \(count.formatted()) rows of 10 integers", rows: count,
            implementations: [raw, ours, grdbRecords, grdbValues],
            targets: [Target(implementation: ours.name, maximumRatio: 3, description: "≤ 3× raw")])
    }

    private static let maximumKeySQL = "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Item'"
}

/// An `Item` row for GRDB's insert, encoded by hand as GRDB's struct-record test does: the key and version Core
/// Data's format requires, then `value` in all ten integer columns.
struct ItemRow: PersistableRecord {
    static let databaseTableName = "ZITEM"
    private static let columns = Models.itemAttributes.map { "Z" + $0.uppercased() }

    var key: Int64
    var value: Int64

    func encode(to container: inout PersistenceContainer) {
        container["Z_PK"] = key
        container["Z_ENT"] = 1
        container["Z_OPT"] = 1
        for column in Self.columns { container[column] = value }
    }
}
