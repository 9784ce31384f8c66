import CoreDataSQLiteFormat
import Foundation
import Predicates
import SQLiteDatabase
import Testing

/// The SQL path and the in-memory evaluator select exactly the same objects, predicate by predicate, on a
/// generated store full of Unicode text and NULLs.
@Suite("Query: SQL and evaluator agree")
struct QueryDifferentialTests {
    /// One store for the whole suite: building it is the expensive part.
    static let store: QueryTestStore = try! QueryTestStore()

    /// A predicate format and its `%@` arguments.
    struct Case: CustomTestStringConvertible, Sendable {
        var format: String
        var arguments: [ArgumentValue]
        init(_ format: String, _ arguments: ArgumentValue...) {
            self.format = format
            self.arguments = arguments
        }
        var testDescription: String { format + (arguments.isEmpty ? "" : " \(arguments)") }
    }

    enum ArgumentValue: Sendable {
        case string(String), date(Double), uuid(String), url(String), strings([String?])
        var value: Any? {
            switch self {
            case .string(let text): text
            case .date(let seconds): Date(timeIntervalSinceReferenceDate: seconds)
            case .uuid(let text): UUID(uuidString: text)
            case .url(let text): URL(string: text)
            case .strings(let texts): texts.map { $0 as Any? ?? NSNull() } as [Any]
            }
        }
    }

    static let cases: [Case] = [
        // Equality and inequality, with every option.
        Case("name == \"Zoë\""), Case("name == \"zoe\""), Case("name ==[c] \"zoe\""), Case("name ==[cd] \"zoe\""),
        Case("name ==[d] \"Zoe\""), Case("name ==[n] \"Zoë\""), Case("name != \"abc\""), Case("name !=[c] \"abc\""),
        Case("name ==[c] \"STRASSE\""), Case("name ==[cd] \"istanbul\""), Case("name ==[c] \"i̇stanbul\""),
        Case("name ==[cd] \"cafe\""), Case("name == %@", .string("cafe\u{301}")), Case("name ==[c] \"ﬁle\""),
        // NULL.
        Case("name == nil"), Case("name != nil"), Case("nil == name"), Case("age == nil"), Case("age != nil"),
        Case("name < nil"),
        // Ordering of strings.
        Case("name < \"M\""), Case("name >= \"café\""), Case("name <[c] \"m\""), Case("name >[cd] \"e\""),
        Case("name > %@", .string("Ma\u{E000}")), Case("name BETWEEN {\"a\", \"m\"}"),
        Case("nickname BETWEEN {\"Z\", \"é\"}"),
        // BEGINSWITH.
        Case("name BEGINSWITH \"Zo\""), Case("name BEGINSWITH \"caf\""), Case("name BEGINSWITH \"cafe\""),
        Case("name BEGINSWITH \"\""), Case("name BEGINSWITH %@", .string("\u{10FFFF}")),
        Case("name BEGINSWITH %@", .string("Ma\u{D7FF}")), Case("name BEGINSWITH[c] \"zo\""),
        Case("name BEGINSWITH[cd] \"ZO\""), Case("name BEGINSWITH[n] \"Zo\""), Case("name BEGINSWITH[c] \"i\""),
        Case("name BEGINSWITH \"😀\""), Case("name BEGINSWITH \"emoji 👩\""),
        // ENDSWITH, CONTAINS.
        Case("name ENDSWITH \"e\""), Case("name ENDSWITH[cd] \"E\""), Case("name ENDSWITH \"👧\""),
        Case("name ENDSWITH \"\""), Case("name CONTAINS \"an\""), Case("name CONTAINS[c] \"AN\""),
        Case("name CONTAINS[cd] \"o\""), Case("name CONTAINS \"\""), Case("name CONTAINS \"'\""),
        Case("name CONTAINS[cd] \"ß\""), Case("name CONTAINS[n] \"ss\""), Case("name CONTAINS \"\u{301}\""),
        Case("\"Straße and café\" CONTAINS name"),
        // LIKE and MATCHES.
        Case("name LIKE \"*e\""), Case("name LIKE[c] \"z?e\""), Case("name LIKE \"a%b_c\""),
        Case("name LIKE \"x\\\\*y*\""), Case("name LIKE[cd] \"*E*\""), Case("name LIKE \"?\""),
        Case("name MATCHES \"[a-z]+\""), Case("name MATCHES[c] \"z.e\""), Case("name MATCHES \"(?i)str.*\""),
        Case("name MATCHES[cd] \"res.me\""), Case("nickname LIKE[cd] \"*e*\""),
        // IN.
        Case("name IN {\"abc\", \"ABC\", \"Zoë\"}"), Case("name IN[c] {\"abc\", \"zoe\"}"),
        Case("name IN %@", .strings(["abc", nil])), Case("name IN %@", .strings([])),
        Case("name IN \"Straße and café\""), Case("name IN[cd] \"STRASSE AND CAFE\""),
        // Numbers.
        Case("age == 30"), Case("age != 30"), Case("age < 18"), Case("age >= 65 OR age == nil"),
        Case("age BETWEEN {18, 30}"), Case("age IN {1, 2, 3, 37, 74}"), Case("age == 30.0"), Case("age > 29.5"),
        Case("18 < age"), Case("30 == age"), Case("score > 10.5"), Case("score <= 0"), Case("score == nil"),
        Case("age < score"), Case("age == age"), Case("age != score"), Case("NOT (age < 30)"),
        // Booleans, dates, UUIDs, URIs.
        Case("active == YES"), Case("active == NO"), Case("active != YES"), Case("active == 1"),
        Case("born < CAST(0, \"NSDate\")"), Case("born BETWEEN {CAST(-100000000, \"NSDate\"), CAST(100000000, \"NSDate\")}"),
        Case("born > %@", .date(200_000_000)), Case("born == nil"),
        Case("token == %@", .uuid("00000000-0000-4000-8000-000000000003")),
        Case("home == %@", .url("https://example.com/2")), Case("home != %@", .url("https://example.com/2")),
        // Two key paths.
        Case("name == nickname"), Case("name != nickname"), Case("name !=[c] nickname"), Case("name ==[cd] nickname"),
        Case("name BEGINSWITH nickname"), Case("name < nickname"), Case("nickname CONTAINS[c] name"),
        // To-one.
        Case("employer == nil"), Case("employer != nil"), Case("employer.title == \"Acme\""),
        Case("employer.title BEGINSWITH[cd] \"a\""), Case("employer.headcount > 100"),
        Case("employer.headcount > 100 AND name != nil"), Case("employer.title != \"Acme\""),
        Case("ANY employer.title ==[c] \"acme\""), Case("ALL employer.title == \"Acme\""),
        // To-many.
        Case("ANY pets.name == \"Rex\""), Case("ANY pets.weight > 10"), Case("ALL pets.weight > 5"),
        Case("NONE pets.name BEGINSWITH \"R\""), Case("SOME pets.name CONTAINS[c] \"x\""),
        Case("ANY pets.name ==[cd] \"rex\""), Case("ANY pets.name == nil"), Case("ALL pets.name != nil"),
        Case("pets.@count == 0"), Case("pets.@count >= 2"), Case("pets.@sum.weight > 20"),
        Case("pets.@sum.weight == 0"), Case("pets.@avg.weight < 8"), Case("pets.@max.weight > 15"),
        Case("pets.@min.weight <= 2"), Case("pets.@avg.weight == nil"), Case("count:(pets) > 3"),
        Case("SUBQUERY(pets, $p, $p.weight > 5 AND $p.name BEGINSWITH \"R\").@count > 0"),
        Case("SUBQUERY(pets, $p, $p.weight > age).@count >= 1"),
        Case("SUBQUERY(pets, $p, NOT ($p.name LIKE[c] \"r*\")).@count == pets.@count"),
        Case("\"Rex\" IN pets.name"), Case("pets.name CONTAINS \"Rex\""),
        Case("ANY clubs.label == \"Chess\""), Case("ANY clubs.label ==[c] \"chess\""), Case("clubs.@count > 1"),
        Case("ALL clubs.label != \"Chess\""), Case("NONE clubs.label BEGINSWITH[cd] \"e\""),
        // Single values under ANY/ALL.
        Case("ANY name == \"abc\""), Case("ALL name == \"abc\""),
        // Compounds and constants.
        Case("TRUEPREDICATE"), Case("FALSEPREDICATE"), Case("NOT name BEGINSWITH \"a\""),
        Case("(name BEGINSWITH \"a\" OR name ENDSWITH \"c\") AND NOT age > 50"),
        Case("name MATCHES \".*e.*\" AND age > 20 AND name BEGINSWITH[c] \"z\""),
        // Combining marks, ligatures and control characters under literal and folded tests.
        Case("name ENDSWITH %@", .string("\u{308}")), Case("name BEGINSWITH \"Zoe\""),
        Case("name CONTAINS %@", .string("e\u{301}")), Case("name ==[cd] \"resume\""), Case("name <[n] \"Z\""),
        Case("name BEGINSWITH[cd] \"ﬁ\""), Case("name CONTAINS %@", .string("\t")), Case("name LIKE \"\""),
        Case("name MATCHES \"\""), Case("name LIKE[n] \"Z*\""), Case("name MATCHES \".\""),
        // The prepared functions' byte path on ASCII names, next to non-ASCII ones, and their mirrored forms.
        Case("name CONTAINS[cd] \"AB\""), Case("name CONTAINS[c] \"Ss\""), Case("name ==[c] \"ISTANBUL\""),
        Case("name BEGINSWITH[c] \"I\""), Case("name ENDSWITH[c] \"BUL\""), Case("name LIKE[c] \"*S?E\""),
        Case("name LIKE[cd] \"A*\""), Case("name MATCHES[c] \"ab.\""), Case("name MATCHES[d] \"resume\""),
        Case("name <[c] \"b\""), Case("name >=[cd] \"ISTANBUL\""), Case("name IN[c] \"xABCx and Rexy\""),
        Case("\"ABC and Straße\" CONTAINS[c] name"), Case("\"r\" IN[c] name"), Case("name ==[c] \"\""),
        Case("name CONTAINS[cd] \"SS\""), Case("name ENDSWITH[cd] \"E\""), Case("name !=[cd] \"abc\""),
        Case("nickname BEGINSWITH[c] \"r\" AND name CONTAINS[cd] \"e\""), Case("name LIKE[c] \"tab*\""),
        // Lists, bounds and aggregates across relationships.
        Case("ANY pets.name IN {\"Rex\", \"Max\"}"), Case("ANY pets.name IN[c] {\"rex\"}"),
        Case("ALL pets.weight BETWEEN {1, 15}"), Case("employer.title IN {\"Acme\", nil}"),
        Case("NOT (employer.title IN {\"Acme\", nil})"), Case("clubs.@count == pets.@count"),
        Case("SUBQUERY(pets, $p, $p.name ==[cd] name).@count > 0"), Case("ANY pets.weight > score"),
        Case("SUBQUERY(pets, $p, $p.name BEGINSWITH[c] \"r\").@count BETWEEN {1, 2}"),
        Case("SUBQUERY(pets, $p, $p.weight > 3).@count IN {0, 2}"),
        Case("NOT (name == nil OR age == nil)"), Case("NOT (ANY pets.weight > 10)"), Case("1 == 1"), Case("1 == 2"),
    ]

    @Test(arguments: cases)
    func sqlSelectsWhatTheEvaluatorAccepts(_ testCase: Case) throws {
        let store = Self.store
        let predicate = try Predicates.NSPredicate(parsing: testCase.format, argumentArray: testCase.arguments.map(\.value))
        let query = try PredicateSQLCompiler(model: store.model).fetch(entityName: "Person", predicate: predicate)
        let selected = try store.fetchKeys(query)
        let expected = try store.evaluatedKeys(predicate, among: store.people.keys)
        #expect(selected == expected, "\(query.debugDescription)\nSQL only: \(selected.subtracting(expected).sorted().prefix(10)); evaluator only: \(expected.subtracting(selected).sorted().prefix(10))")
    }

    /// Guards against a vacuous comparison: most cases must select some objects but not all of them.
    @Test func casesAreSelective() throws {
        let store = Self.store
        var selective = 0
        for testCase in Self.cases {
            let predicate = try Predicates.NSPredicate(parsing: testCase.format, argumentArray: testCase.arguments.map(\.value))
            let count = try store.evaluatedKeys(predicate, among: store.people.keys).count
            if count > 0 && count < store.people.count { selective += 1 }
        }
        #expect(selective >= 120, "only \(selective) of \(Self.cases.count) cases select a proper subset")
    }

    @Test(arguments: [
        "school BEGINSWITH[cd] \"n\"", "school == \"North\"", "name CONTAINS[c] \"e\" AND school != nil",
        "ANY pets.weight > 3", "TRUEPREDICATE",
    ])
    func subentityFetchesOnlyItsRows(_ format: String) throws {
        let store = Self.store
        let predicate = try Predicates.NSPredicate(parsing: format)
        let query = try PredicateSQLCompiler(model: store.model).fetch(entityName: "Student", predicate: predicate)
        #expect(try store.fetchKeys(query) == store.evaluatedKeys(predicate, among: store.studentKeys))
    }

    @Test(arguments: ["employer.title ==[c] \"acme\"", "ANY pets.weight > 10", "TRUEPREDICATE"])
    func countSelectionCountsTheMatches(_ format: String) throws {
        let store = Self.store
        let predicate = try Predicates.NSPredicate(parsing: format)
        let query = try PredicateSQLCompiler(model: store.model).fetch(
            entityName: "Person", predicate: predicate,
            sortDescriptors: [Predicates.NSSortDescriptor(key: "employer.title", ascending: true)], selection: .count)
        #expect(query.sql.hasPrefix("SELECT COUNT(*) FROM ZPERSON t0"))
        #expect(!query.sql.contains("ORDER BY"))
        let count = try store.rows(query).first?.first?.int64Value
        #expect(count == Int64(try store.evaluatedKeys(predicate, among: store.people.keys).count))
    }

    @Test func excludingSubentitiesLeavesOutStudents() throws {
        let store = Self.store
        let predicate = try Predicates.NSPredicate(parsing: "age > 40")
        let query = try PredicateSQLCompiler(model: store.model)
            .fetch(entityName: "Person", predicate: predicate, includesSubentities: false)
        let people = store.people.keys.filter { !store.studentKeys.contains($0) }
        #expect(try store.fetchKeys(query) == store.evaluatedKeys(predicate, among: people))
        #expect(!store.studentKeys.isEmpty)
    }

    @Test(arguments: SortComparison.allCases)
    func sortOrderMatchesTheSortDescriptor(_ comparison: SortComparison) throws {
        let store = Self.store
        let descriptors = [
            Predicates.NSSortDescriptor(key: "name", ascending: comparison != .caseInsensitiveCompare, comparison: comparison),
            Predicates.NSSortDescriptor(key: "employer.title", ascending: true),
        ]
        let query = try PredicateSQLCompiler(model: store.model)
            .fetch(entityName: "Person", predicate: nil, sortDescriptors: descriptors, selection: .primaryKeys)
        let keys = try store.rows(query).compactMap { $0.first?.int64Value }
        #expect(keys.count == store.people.count)
        for (earlier, later) in zip(keys, keys.dropFirst()) {
            let first = store.people[earlier]!, second = store.people[later]!
            let order = descriptors.lazy.map { $0.compare(first, to: second) }.first { $0 != .orderedSame }
            #expect(order != ComparisonResult.orderedDescending, "\(first["name"] ?? "nil") before \(second["name"] ?? "nil")")
        }
    }
}
