import Foundation
import GRDB
import OpenCoreData

/// GRDB's own performance suite (`FetchPositionalValuesTests`, `FetchRecordStructTests`, and the Core Data test of
/// `FetchRecordClassTests`): 200,000 rows of ten integers, every value read. Ours reads them as dictionaries and
/// as managed objects through `value(forKey:)`, as GRDB's Core Data test does.
enum IntegerColumns {
    static func workload(store url: URL, rows: Int) -> Workload {
        let model = Models.items()
        let columns = Models.itemAttributes.map { "Z" + $0.uppercased() }
        let sql = "SELECT \(columns.joined(separator: ", ")) FROM ZITEM ORDER BY Z_PK"

        let raw = Contenders.raw(store: url) { database, watch in
            try watch.measure {
                let statement = try database.prepare(sql)
                var sum = 0
                while try statement.step() {
                    for column in 0..<Int32(10) { sum &+= Int(statement.int64(column)) }
                }
                watch.checksum = sum
            }
        }
        // Not a target: the floor of the `value(forKey:)` idiom, as in the word list. Each value leaves a call the
        // optimiser cannot see into as an `Any?` and is cast back with the same helper the objects are read with.
        let rawThroughAny = Contenders.raw("raw SQLite, values through Any? and as?", store: url) { database, watch in
            try watch.measure {
                let statement = try database.prepare(sql)
                var sum = 0
                while try statement.step() {
                    for column in 0..<Int32(10) { sum &+= integer(boxed(statement.int64(column))) }
                }
                watch.checksum = sum
            }
        }
        /// Fetches every item as objects and sums every value, read with `read` (all ten of an item).
        func objectsContender(_ name: String, read: @escaping (NSManagedObject) -> Int) -> Implementation {
            Contenders.ours(name, store: url, model: model) { context, watch in
                let objects = try watch.measure {
                    let objects = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Item"))
                    var sum = 0
                    for item in objects { sum &+= read(item) }
                    watch.checksum = sum
                    return objects
                }
                keep(objects)
            }
        }
        // Each key spelled out, as GRDB's Core Data test reads `item.value(forKey: "i0")` to `"i9"`; a loop over the
        // key list calling a closure per value cost a tenth of the fetch in retains of the list and its keys.
        let objects = objectsContender("ours · objects, value(forKey:)") { item in
            integer(item.value(forKey: "i0")) &+ integer(item.value(forKey: "i1")) &+ integer(item.value(forKey: "i2"))
                &+ integer(item.value(forKey: "i3")) &+ integer(item.value(forKey: "i4")) &+ integer(item.value(forKey: "i5"))
                &+ integer(item.value(forKey: "i6")) &+ integer(item.value(forKey: "i7")) &+ integer(item.value(forKey: "i8"))
                &+ integer(item.value(forKey: "i9"))
        }
        // The same objects read through `value(forKey:as:)` (what `@Managed` properties use): no `Any` per value.
        let typedObjects = objectsContender("ours · objects, typed reads") { item in
            func read(_ key: String) -> Int { item.value(forKey: key, as: Int.self) ?? 0 }
            return read("i0") &+ read("i1") &+ read("i2") &+ read("i3") &+ read("i4") &+ read("i5") &+ read("i6")
                &+ read("i7") &+ read("i8") &+ read("i9")
        }
        // Dictionary results as `FetchedDictionary` rows (one key table per fetch), each value read as an `Int`.
        let dictionaries = Contenders.ours("ours · dictionaries", store: url, model: model) { context, watch in
            let results = try watch.measure {
                let request = NSFetchRequest<FetchedDictionary>(entityName: "Item")
                request.resultType = .dictionaryResultType
                request.propertiesToFetch = Models.itemAttributes
                let results = try context.fetch(request)
                var sum = 0
                // The keys spelled out, as the object contenders read them.
                for row in results {
                    func read(_ key: String) -> Int { row[key, as: Int.self] ?? 0 }
                    sum &+= read("i0") &+ read("i1") &+ read("i2") &+ read("i3") &+ read("i4") &+ read("i5") &+ read("i6")
                        &+ read("i7") &+ read("i8") &+ read("i9")
                }
                watch.checksum = sum
                return results
            }
            keep(results)
        }
        // The same rows as `[String: Any]`, read with a cast per value.
        let untypedDictionaries = Contenders.ours("ours · [String: Any] results", store: url, model: model) { context, watch in
            let results = try watch.measure {
                let request = NSFetchRequest<[String: Any]>(entityName: "Item")
                request.resultType = .dictionaryResultType
                request.propertiesToFetch = Models.itemAttributes
                let results = try context.fetch(request)
                var sum = 0
                for row in results {
                    sum &+= integer(row["i0"]) &+ integer(row["i1"]) &+ integer(row["i2"]) &+ integer(row["i3"]) &+ integer(row["i4"])
                        &+ integer(row["i5"]) &+ integer(row["i6"]) &+ integer(row["i7"]) &+ integer(row["i8"]) &+ integer(row["i9"])
                }
                watch.checksum = sum
                return results
            }
            keep(results)
        }
        let grdbRows = Contenders.grdb("GRDB · Row cursor by index", store: url) { database, watch in
            try watch.measure {
                let cursor = try Row.fetchCursor(database, sql: sql)
                var sum = 0
                while let row = try cursor.next() {
                    for column in 0..<10 { sum &+= row[column] as Int }
                }
                watch.checksum = sum
            }
        }
        let grdbRecords = Contenders.grdb("GRDB · struct records", store: url) { database, watch in
            let records = try watch.measure {
                let records = try ItemRecord.fetchAll(database, sql: sql)
                watch.checksum = records.reduce(0) { $0 &+ $1.sum }
                return records
            }
            keep(records)
        }
        return Workload(
            group: "GRDB suite", name: "fetch 10 integer columns", rows: rows,
            implementations: [raw, rawThroughAny, objects, typedObjects, dictionaries, untypedDictionaries, grdbRows, grdbRecords],
            targets: [
                Target(implementation: objects.name, maximumRatio: 2, description: "≤ 2× raw"),
                Target(implementation: typedObjects.name, maximumRatio: 2, description: "≤ 2× raw"),
                Target(implementation: dictionaries.name, maximumRatio: 1.5, description: "≤ 1.5× raw"),
            ])
    }
}

/// GRDB's `FetchRecordStruct` shape: a struct initialised from a row by column index.
struct ItemRecord: FetchableRecord {
    var values: (Int, Int, Int, Int, Int, Int, Int, Int, Int, Int)

    init(row: Row) {
        values = (row[0], row[1], row[2], row[3], row[4], row[5], row[6], row[7], row[8], row[9])
    }

    var sum: Int {
        values.0 &+ values.1 &+ values.2 &+ values.3 &+ values.4 &+ values.5 &+ values.6 &+ values.7 &+ values.8 &+ values.9
    }
}
