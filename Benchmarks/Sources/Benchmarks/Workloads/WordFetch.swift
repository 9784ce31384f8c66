import Foundation
import GRDB
import OpenCoreData

/// The seeds' benchmark (WWDC 2007: "fetching 500,000 words from a dictionary database"): fetch every `Word` and
/// read every attribute, as managed objects (faulted, then fired; or unfaulted), as dictionaries, against
/// `sqlite3_step` on the same SQL and against GRDB rows and `Decodable` records.
///
/// Every contender folds what it read into one checksum (text bytes, length, whole seconds of the date, the score
/// in millionths), so all of them must have read every attribute of every row, and read it right.
enum WordFetch {
    /// The SELECT our store issues for a full fetch of `Word`: the floor reads the same columns.
    static let sql = "SELECT t0.Z_PK, t0.Z_ENT, t0.Z_OPT, t0.ZTEXT, t0.ZLENGTH, t0.ZCREATED, t0.ZSCORE FROM ZWORD t0 ORDER BY t0.Z_PK"

    @inline(__always)
    static func fold(text: String?, length: Int, created: Double, score: Double) -> Int {
        (text?.utf8.count ?? 0) + length + Int(created) + Int(score * 1_000_000)
    }

    static func workload(store url: URL, rows: Int) -> Workload {
        let model = Models.words(indexed: true)

        func readObjects(_ objects: [NSManagedObject], _ watch: Stopwatch) {
            var sum = 0
            for word in objects {
                sum &+= fold(text: word.value(forKey: "text") as? String, length: integer(word.value(forKey: "length")),
                             created: (word.value(forKey: "created") as? Date)?.timeIntervalSinceReferenceDate ?? 0,
                             score: word.value(forKey: "score") as? Double ?? 0)
            }
            watch.checksum = sum
        }

        // The same reads through `value(forKey:as:)`, the typed access `@Managed` properties of a subclass use (as
        // Apple's generated accessors do): no boxing into `Any` and no cast back.
        func readObjectsTyped(_ objects: [NSManagedObject], _ watch: Stopwatch) {
            var sum = 0
            for word in objects {
                sum &+= fold(text: word.value(forKey: "text", as: String.self), length: word.value(forKey: "length", as: Int.self) ?? 0,
                             created: word.value(forKey: "created", as: Date.self)?.timeIntervalSinceReferenceDate ?? 0,
                             score: word.value(forKey: "score", as: Double.self) ?? 0)
            }
            watch.checksum = sum
        }

        /// Fetches every word as objects (faults unless `asFaults` is false) and reads them with `read`.
        func objects(_ name: String, asFaults: Bool = true, rowCacheCapacity: Int? = nil,
                     read: @escaping ([NSManagedObject], Stopwatch) -> Void) -> Implementation {
            Contenders.ours(name, store: url, model: model, rowCacheCapacity: rowCacheCapacity) { context, watch in
                let objects = try watch.measure {
                    let request = NSFetchRequest<NSManagedObject>(entityName: "Word")
                    request.returnsObjectsAsFaults = asFaults
                    let objects = try context.fetch(request)
                    read(objects, watch)
                    return objects
                }
                keep(objects)
            }
        }

        let faulted = objects("ours · objects, faulted", read: readObjects)
        // The same, with a row cache that stores the whole fetch (one fetch stores at most a quarter of the cache):
        // what the faulted variant costs when every row is cached, as Core Data keeps a snapshot while its object lives.
        let faultedLargeCache = objects("ours · objects, faulted, row cache ≥ rows", rowCacheCapacity: 4 * rows + 4, read: readObjects)
        let unfaulted = objects("ours · objects, not faulted", asFaults: false, read: readObjects)
        let faultedTyped = objects("ours · objects, faulted, typed reads", read: readObjectsTyped)
        let unfaultedTyped = objects("ours · objects, not faulted, typed reads", asFaults: false, read: readObjectsTyped)
        // Dictionary results as `FetchedDictionary` rows (one key table per fetch), each value read in its type.
        let dictionaries = Contenders.ours("ours · dictionaries", store: url, model: model) { context, watch in
            let rows = try watch.measure {
                let request = NSFetchRequest<FetchedDictionary>(entityName: "Word")
                request.resultType = .dictionaryResultType
                request.propertiesToFetch = Models.wordAttributes
                let rows = try context.fetch(request)
                var sum = 0
                for row in rows {
                    sum &+= fold(text: row["text", as: String.self], length: row["length", as: Int.self] ?? 0,
                                 created: row["created", as: Date.self]?.timeIntervalSinceReferenceDate ?? 0,
                                 score: row["score", as: Double.self] ?? 0)
                }
                watch.checksum = sum
                return rows
            }
            keep(rows)
        }
        // The same rows as `[String: Any]`, read with a cast per value.
        let untypedDictionaries = Contenders.ours("ours · [String: Any] results", store: url, model: model) { context, watch in
            let rows = try watch.measure {
                let request = NSFetchRequest<[String: Any]>(entityName: "Word")
                request.resultType = .dictionaryResultType
                request.propertiesToFetch = Models.wordAttributes
                let rows = try context.fetch(request)
                var sum = 0
                for row in rows {
                    sum &+= fold(text: row["text"] as? String, length: integer(row["length"]),
                                 created: (row["created"] as? Date)?.timeIntervalSinceReferenceDate ?? 0,
                                 score: row["score"] as? Double ?? 0)
                }
                watch.checksum = sum
                return rows
            }
            keep(rows)
        }
        let raw = Contenders.raw(store: url) { database, watch in
            try watch.measure {
                let statement = try database.prepare(sql)
                var sum = 0
                while try statement.step() {
                    _ = statement.int64(0)
                    _ = statement.int64(1)
                    _ = statement.int64(2)
                    let created = Date(timeIntervalSinceReferenceDate: statement.double(5))
                    sum &+= fold(text: statement.text(3), length: Int(statement.int64(4)),
                                 created: created.timeIntervalSinceReferenceDate, score: statement.double(6))
                }
                watch.checksum = sum
            }
        }
        // Not a target: the floor read the way the untyped contenders read, each value handed back as `Any?` by a call
        // the caller cannot see into (as `value(forKey:)` is) and cast back with `as?`. What it costs over the floor is
        // what the `value(forKey:)` idiom costs on its own, whoever implements it.
        let rawThroughAny = Contenders.raw("raw SQLite, values through Any? and as?", store: url) { database, watch in
            try watch.measure {
                let statement = try database.prepare(sql)
                var sum = 0
                while try statement.step() {
                    _ = statement.int64(0)
                    _ = statement.int64(1)
                    _ = statement.int64(2)
                    // A NULL text is nil itself, as `value(forKey:)` returns it, not an empty optional inside an `Any`.
                    let text = statement.text(3).flatMap(boxed), length = boxed(statement.int64(4))
                    let created = boxed(Date(timeIntervalSinceReferenceDate: statement.double(5))), score = boxed(statement.double(6))
                    sum &+= fold(text: text as? String, length: integer(length),
                                 created: (created as? Date)?.timeIntervalSinceReferenceDate ?? 0, score: score as? Double ?? 0)
                }
                watch.checksum = sum
            }
        }
        let grdbRows = Contenders.grdb("GRDB · Row cursor", store: url) { database, watch in
            try watch.measure {
                let cursor = try Row.fetchCursor(database, sql: sql)
                var sum = 0
                while let row = try cursor.next() {
                    let _: Int64 = row[0], _: Int64 = row[1], _: Int64 = row[2]
                    let created = Date(timeIntervalSinceReferenceDate: row[5] as Double)
                    sum &+= fold(text: row[3] as String?, length: row[4] as Int,
                                 created: created.timeIntervalSinceReferenceDate, score: row[6] as Double)
                }
                watch.checksum = sum
            }
        }
        let grdbRecords = Contenders.grdb("GRDB · Decodable records", store: url) { database, watch in
            let records = try watch.measure {
                let records = try WordRecord.fetchAll(database, sql: sql)
                var sum = 0
                for record in records {
                    sum &+= fold(text: record.text, length: record.length, created: record.createdDate.timeIntervalSinceReferenceDate,
                                 score: record.score)
                }
                watch.checksum = sum
                return records
            }
            keep(records)
        }

        let objectTarget = "≤ 2× raw and faster than GRDB Decodable records"
        return Workload(
            group: "word list", name: "fetch every Word, read every attribute", rows: rows,
            implementations: [raw, rawThroughAny, faulted, faultedLargeCache, unfaulted, faultedTyped, unfaultedTyped, dictionaries,
                              untypedDictionaries, grdbRows, grdbRecords],
            targets: [
                Target(implementation: faulted.name, maximumRatio: 2, fasterThan: grdbRecords.name, description: objectTarget),
                Target(implementation: unfaulted.name, maximumRatio: 2, fasterThan: grdbRecords.name, description: objectTarget),
                Target(implementation: faultedTyped.name, maximumRatio: 2, fasterThan: grdbRecords.name, description: objectTarget),
                Target(implementation: unfaultedTyped.name, maximumRatio: 2, fasterThan: grdbRecords.name, description: objectTarget),
                Target(implementation: dictionaries.name, maximumRatio: 1.5, description: "≤ 1.5× raw"),
            ])
    }
}

/// `value` boxed as `Any?` by a call the optimiser may not look into, as `value(forKey:)` boxes a stored value: inlined,
/// the concrete type would show through and the caller's casts would be folded away.
@inline(never)
func boxed<Value>(_ value: Value) -> Any? { value }

/// A word as GRDB's `Decodable` record: the shape an application using GRDB would declare for the Core Data table.
struct WordRecord: Decodable, FetchableRecord {
    var id: Int64
    var entity: Int64
    var version: Int64
    var text: String?
    var length: Int
    /// Core Data stores dates as seconds since 2001 in a REAL; GRDB would read a REAL date as seconds since 1970,
    /// so the record decodes the number and converts it, as an application would.
    var created: Double
    var score: Double

    var createdDate: Date { Date(timeIntervalSinceReferenceDate: created) }

    enum CodingKeys: String, CodingKey {
        case id = "Z_PK", entity = "Z_ENT", version = "Z_OPT", text = "ZTEXT", length = "ZLENGTH", created = "ZCREATED", score = "ZSCORE"
    }
}
