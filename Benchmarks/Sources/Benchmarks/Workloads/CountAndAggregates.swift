import Foundation
import GRDB
import OpenCoreData

/// The cheapest fetches the seeds recommend: `count(for:)`, which must be one `SELECT count(*)`, and aggregates
/// grouped in SQLite through dictionary results, against the same SQL by hand and through GRDB.
enum CountAndAggregates {
    /// Counts per iteration: a single count is a few milliseconds, too short to time alone on a noisy machine.
    static let countsPerIteration = 10

    static func workloads(store url: URL, rows: Int) -> [Workload] {
        let model = Models.words(indexed: true)

        let count = Workload(group: "count & aggregates", name: "count every Word", rows: rows, implementations: [
            Contenders.raw(store: url) { database, watch in
                var total = 0
                try watch.measure {
                    for _ in 0..<countsPerIteration { total += try database.scalar("SELECT COUNT(*) FROM ZWORD t0") }
                }
                watch.operations = countsPerIteration
                watch.checksum = total
            },
            Contenders.ours("ours · count(for:)", store: url, model: model) { context, watch in
                var total = 0
                try watch.measure {
                    for _ in 0..<countsPerIteration {
                        total += try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Word"))
                    }
                }
                watch.operations = countsPerIteration
                watch.checksum = total
            },
            Contenders.grdb("GRDB · Int.fetchOne", store: url) { database, watch in
                var total = 0
                try watch.measure {
                    for _ in 0..<countsPerIteration { total += try Int.fetchOne(database, sql: "SELECT COUNT(*) FROM ZWORD t0") ?? 0 }
                }
                watch.operations = countsPerIteration
                watch.checksum = total
            },
        ], targets: [Target(implementation: "ours · count(for:)", maximumRatio: 1.1, description: "≤ 1.1× the same SQL")],
        // A round is a few milliseconds: more rounds keep a neighbour's build from deciding the median.
        minimumIterations: 15)

        // Words per length, with the sum and the average of their scores: the SQL our store generates.
        let sql = "SELECT t0.ZLENGTH, COUNT(t0.ZTEXT), SUM(t0.ZSCORE), AVG(t0.ZSCORE) FROM ZWORD t0 GROUP BY t0.ZLENGTH"
        func fold(count: Int, sum: Double, average: Double) -> Int { count + Int(sum) + Int(average * 1_000_000) }

        let grouped = Workload(group: "count & aggregates", name: "count, sum, avg GROUP BY length", rows: rows, implementations: [
            Contenders.raw(store: url) { database, watch in
                try watch.measure {
                    let statement = try database.prepare(sql)
                    var checksum = 0
                    while try statement.step() {
                        checksum += Int(statement.int64(0))
                        checksum += fold(count: Int(statement.int64(1)), sum: statement.double(2), average: statement.double(3))
                    }
                    watch.checksum = checksum
                }
            },
            Contenders.ours("ours · dictionaries, propertiesToGroupBy", store: url, model: model) { context, watch in
                try watch.measure {
                    let request = NSFetchRequest<[String: Any]>(entityName: "Word")
                    request.resultType = .dictionaryResultType
                    request.propertiesToFetch = [
                        "length",
                        aggregate("count", "count:", "text", .integer64AttributeType),
                        aggregate("sum", "sum:", "score", .doubleAttributeType),
                        aggregate("average", "average:", "score", .doubleAttributeType),
                    ]
                    request.propertiesToGroupBy = ["length"]
                    var checksum = 0
                    for group in try context.fetch(request) {
                        checksum += integer(group["length"])
                        checksum += fold(count: integer(group["count"]), sum: group["sum"] as? Double ?? 0,
                                         average: group["average"] as? Double ?? 0)
                    }
                    watch.checksum = checksum
                }
            },
            Contenders.grdb("GRDB · Row.fetchAll", store: url) { database, watch in
                try watch.measure {
                    var checksum = 0
                    for row in try Row.fetchAll(database, sql: sql) {
                        checksum += row[0] as Int
                        checksum += fold(count: row[1], sum: row[2], average: row[3])
                    }
                    watch.checksum = checksum
                }
            },
        ], targets: [Target(implementation: "ours · dictionaries, propertiesToGroupBy", maximumRatio: 1.1,
                            description: "≤ 1.1× the same SQL")])
        return [count, grouped]
    }

    /// `function(keyPath)` under `name` in dictionary results, as Core Data's `NSExpressionDescription`.
    static func aggregate(_ name: String, _ function: String, _ keyPath: String, _ type: NSAttributeType) -> NSExpressionDescription {
        NSExpressionDescription(name: name, expression: NSExpression(forFunction: function, arguments: [NSExpression(forKeyPath: keyPath)]),
                                resultType: type)
    }
}
