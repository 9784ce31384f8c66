import Foundation
import OpenCoreData
import SQLiteDatabase

/// Predicates against the same hand-written SQL (issue 7): a numeric range, BEGINSWITH, CONTAINS[cd], [n] on a
/// canonical attribute, MATCHES, ANY over a to-many and a SUBQUERY with @count.
///
/// Each is timed through `count(for:)`, so that what is compared is the predicate's evaluation in SQLite, not the
/// creation of objects (measured by the word-list workload). Until the predicate compiler lands, our fetches throw
/// "… arrive with the SQL compiler": the runner then prints a note and skips the workload, and it runs by itself
/// once the compiler is merged.
///
/// The hand-written SQL is what a developer would write with SQLite's built-ins: an index range for BEGINSWITH,
/// `lower` + `instr` for CONTAINS[cd] (the generated words are ASCII, so lower-casing is case and diacritic folding
/// here), a `regexp` function for MATCHES (it keeps its compiled pattern per statement).
///
/// Predicates with string options have a second floor: the SQL our compiler emits, with the functions it registers
/// (`ocd_contains`, `ocd_matches`, …), run on a bare connection. Their targets are taken against both floors, so
/// that the table shows what the functions cost against SQLite's built-ins and what the rest of a fetch costs on
/// top of the same SQL.
enum PredicateWorkloads {
    struct Case {
        var name: String
        var format: String
        var sql: String
        var stringOptions: Bool
    }

    static let wordCases = [
        Case(name: "numeric range", format: "score >= 0.25 AND score < 0.26",
             sql: "SELECT COUNT(*) FROM ZWORD WHERE ZSCORE >= 0.25 AND ZSCORE < 0.26", stringOptions: false),
        Case(name: "BEGINSWITH", format: "text BEGINSWITH 'ta'",
             sql: "SELECT COUNT(*) FROM ZWORD WHERE ZTEXT >= 'ta' AND ZTEXT < 'tb'", stringOptions: false),
        Case(name: "CONTAINS[cd]", format: "text CONTAINS[cd] 'OIN'",
             sql: "SELECT COUNT(*) FROM ZWORD WHERE instr(lower(ZTEXT), 'oin') > 0", stringOptions: true),
        Case(name: "BEGINSWITH[n] (canonical)", format: "text BEGINSWITH[n] 'ta'",
             sql: "SELECT COUNT(*) FROM ZWORD WHERE ZTEXT >= 'ta' AND ZTEXT < 'tb'", stringOptions: true),
        Case(name: "MATCHES", format: "text MATCHES 'ta.*n'",
             sql: "SELECT COUNT(*) FROM ZWORD WHERE ZTEXT REGEXP 'ta.*n'", stringOptions: true),
    ]

    static let recipeCases = [
        Case(name: "ANY over a to-many", format: "ANY ingredients.name == 'salt'",
             sql: "SELECT COUNT(*) FROM ZRECIPE r WHERE EXISTS (SELECT 1 FROM ZINGREDIENT i WHERE i.ZRECIPE = r.Z_PK AND i.ZNAME = 'salt')",
             stringOptions: false),
        Case(name: "SUBQUERY @count", format: "SUBQUERY(ingredients, $i, $i.quantity > 3).@count >= 2",
             sql: "SELECT COUNT(*) FROM ZRECIPE r WHERE (SELECT COUNT(*) FROM ZINGREDIENT i WHERE i.ZRECIPE = r.Z_PK AND i.ZQUANTITY > 3) >= 2",
             stringOptions: false),
    ]

    static func workloads(words: URL, wordRows: Int, recipes: URL, recipeRows: Int) -> [Workload] {
        wordCases.map { workload($0, entity: "Word", store: words, model: Models.words(indexed: true), rows: wordRows) }
            + recipeCases.map { workload($0, entity: "Recipe", store: recipes, model: Models.recipes(), rows: recipeRows) }
    }

    static func workload(_ item: Case, entity: String, store url: URL, model: NSManagedObjectModel, rows: Int) -> Workload {
        let ours = Contenders.ours("ours · count(for:) with predicate", store: url, model: model) { context, watch in
            try watch.measure {
                let request = NSFetchRequest<NSManagedObject>(entityName: entity)
                request.predicate = NSPredicate(format: item.format)
                watch.checksum = try context.count(for: request)
            }
        }
        let raw = Contenders.raw(store: url) { database, watch in
            try database.registerRegexp()
            try watch.measure { watch.checksum = try database.scalar(item.sql) }
        }
        // A second floor only where the compiled SQL calls our functions (BEGINSWITH[n] compiles to a plain range).
        guard item.stringOptions, compiledCallsOurFunctions(item, entity: entity, model: model) else {
            return Workload(group: "predicates", name: "\(item.name): \(item.format)", rows: rows, implementations: [raw, ours])
        }
        let sameFunctions = sameFunctionsFloor(item, entity: entity, store: url, model: model)
        return Workload(group: "predicates", name: "\(item.name): \(item.format)", rows: rows,
                        implementations: [raw, sameFunctions, ours],
                        targets: [
                            Target(implementation: ours.name, maximumRatio: 1.5, description: "≤ 1.5× the hand-written SQL"),
                            Target(implementation: ours.name, maximumRatio: 1.5, floor: sameFunctions.name,
                                   description: "≤ 1.5× the same SQL with the same functions"),
                        ])
    }

    static func compiledCallsOurFunctions(_ item: Case, entity: String, model: NSManagedObjectModel) -> Bool {
        let query = try? PredicateSQLCompiler(model: model)
            .fetch(entityName: entity, predicate: NSPredicate(format: item.format), selection: .count)
        return query?.sql.contains("ocd_") ?? false
    }

    /// The compiler's own SQL and registered functions on a bare connection: `SELECT COUNT(*) … WHERE
    /// ocd_contains(t0.ZTEXT, ?, 3)`, prepared, bound and stepped under the stopwatch like the hand-written floor.
    static func sameFunctionsFloor(_ item: Case, entity: String, store url: URL, model: NSManagedObjectModel) -> Implementation {
        Implementation(name: "raw SQLite · our SQL and functions", contender: .raw) { watch in
            let connection = try Connection(path: url.path, mode: .readOnly)
            try PredicateSQLFunctions.register(on: connection)
            let query = try PredicateSQLCompiler(model: model)
                .fetch(entityName: entity, predicate: NSPredicate(format: item.format), selection: .count)
            try watch.measure {
                watch.checksum = Int(try connection.scalar(query.sql, arguments: query.bindings)?.int64Value ?? -1)
            }
        }
    }
}
