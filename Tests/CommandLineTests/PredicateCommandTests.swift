import CoreDataSQLiteFormat
import CoreDataTestSupport
import Foundation
import SQLiteDatabase
import Testing

/// `coredata predicate`, driven through the real executable.
@Suite("coredata predicate")
struct PredicateCommandTests {
    @Test(arguments: [
        ("name beginswith[cd] 'a' and age > 3", "name BEGINSWITH[cd] \"a\" AND age > 3\n"),
        ("a = 1 OR (b != nil AND NOT c IN {1, 2})", "a == 1 OR (b != nil AND NOT c IN {1, 2})\n"),
        ("ANY items.price >= 5", "ANY items.price >= 5\n"),
        ("items.@count > 2", "count:(items) > 2\n"),
    ])
    func printsTheCanonicalFormat(_ input: String, _ expected: String) throws {
        let result = try CommandRunner.run(["predicate", input])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput == expected)
        #expect(result.standardError.isEmpty)
    }

    @Test(arguments: [
        ("age > 30", #"{"age": 31}"#, "true"),
        ("age > 30", #"{"age": 30}"#, "false"),
        ("name BEGINSWITH[cd] 'zo'", #"{"name": "Zoë"}"#, "true"),
        ("ANY pets.name == 'Rex'", #"{"pets": [{"name": "Fido"}, {"name": "Rex"}]}"#, "true"),
        ("ALL pets.name == 'Rex'", #"{"pets": [{"name": "Fido"}, {"name": "Rex"}]}"#, "false"),
        ("SELF > 2", "3", "true"),
        ("SELF CONTAINS 'b'", #"["a", "b"]"#, "true"),
        ("missing == nil", "{}", "true"),
    ])
    func evaluatesAgainstJSON(_ format: String, _ json: String, _ expected: String) throws {
        let result = try CommandRunner.run(["predicate", format, "--evaluate", json])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput == expected + "\n")
    }

    @Test func syntaxErrorsShowACaretAndExitWithTwo() throws {
        let result = try CommandRunner.run(["predicate", "name == \"Ann\" AND"])
        #expect(result.status == 2)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError == """
            coredata: error: invalid predicate: expected an expression, found end of input
            name == "Ann" AND
                             ^ expected an expression, found end of input

            """)
    }

    @Test func caretLinesUpAfterWideAndControlCharacters() throws {
        let result = try CommandRunner.run(["predicate", "name == \"日本\u{1B}\" ANDD x"])
        #expect(result.status == 2)
        let lines = result.standardError.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(!result.standardError.contains("\u{1B}"), "escape characters never reach the terminal")
        #expect(lines.count == 4)
        if lines.count == 4 {
            // `name == "` (9) + two wide characters (4) + `␛` (1) + `" ` (2) = column 16.
            #expect(lines[2].hasPrefix(String(repeating: " ", count: 16) + "^ "), "\(lines)")
        }
    }

    @Test func invalidJSONIsARuntimeFailure() throws {
        let result = try CommandRunner.run(["predicate", "a > 1", "--evaluate", "{a"])
        #expect(result.status == 1)
        #expect(result.standardError == "coredata: error: --evaluate: not valid JSON: {a\n")
    }

    @Test func sqlWithoutAStoreIsAUsageError() throws {
        let result = try CommandRunner.run(["predicate", "a > 1", "--sql", "--entity", "Car"])
        #expect(result.status == 2)
        #expect(result.standardError.contains("--sql needs --entity and --store"))
    }

    @Test(.enabled(if: Fixtures.isAvailable, "../shared/fixtures is absent: Apple-fixture tests are skipped"))
    func sqlOnAnAppleStoreSelectsTheMatchingRows() throws {
        let copy = try Fixtures.copy("stores/coredataplus-inheritance-constraints/SampleModel_V1.sqlite")
        let result = try CommandRunner.run([
            "predicate", "maker BEGINSWITH 'M' AND owner.firstName CONTAINS[c] 'a'", "--sql",
            "--entity", "SportCar", "--store", copy.path,
        ])
        #expect(result.status == 0, "\(result.standardError)")
        let output = result.standardOutput
        #expect(output.hasPrefix("SQL(SELECT t0.Z_PK, t0.Z_ENT, t0.Z_OPT, "))
        #expect(output.hasSuffix(#"; bindings: [1: "M", 2: "N", 3: "a"])"# + "\n"), "\(output)")
        let sql = try #require(output.range(of: "; bindings: [", options: .backwards).map {
            String(output[output.index(output.startIndex, offsetBy: 4)..<$0.lowerBound])
        })
        #expect(sql.contains("FROM ZCAR t0 LEFT JOIN ZPERSON t1"))
        #expect(sql.contains("t0.Z_ENT BETWEEN 2 AND 3"))

        let connection = try Connection(path: copy.path, mode: .readOnly)
        try PredicateSQLFunctions.register(on: connection)
        let selected = try connection.query(sql, arguments: [.text("M"), .text("N"), .text("a")])
            .compactMap { $0.first?.int64Value }
        // The same selection by hand: every sports car, filtered in Swift.
        let cars = try connection.query("""
            SELECT c.Z_PK, c.ZMAKER, p.ZFIRSTNAME FROM ZCAR c LEFT JOIN ZPERSON p ON p.Z_PK = c.ZOWNER
            WHERE c.Z_ENT IN (2, 3)
            """)
        let expected = cars.filter { row in
            guard let maker = row[1].stringValue, let owner = row[2].stringValue else { return false }
            return maker.hasPrefix("M") && owner.lowercased().contains("a")
        }.compactMap { $0[0].int64Value }
        #expect(!expected.isEmpty)
        #expect(Set(selected) == Set(expected))
        #expect(selected.count == expected.count)
    }

    @Test(.enabled(if: Fixtures.isAvailable, "../shared/fixtures is absent: Apple-fixture tests are skipped"))
    func toManySQLOnAnAppleStoreFollowsTheOwnersKeys() throws {
        let copy = try Fixtures.copy("stores/coredataplus-inheritance-constraints/SampleModel_V1.sqlite")
        let result = try CommandRunner.run([
            "predicate", "ANY cars.maker == 'BMW' AND cars.@count >= 2", "--sql", "--entity", "Person",
            "--store", copy.path,
        ])
        #expect(result.status == 0, "\(result.standardError)")
        let output = result.standardOutput
        #expect(output.hasSuffix(#"; bindings: [1: "BMW", 2: 2])"# + "\n"), "\(output)")
        let sql = try #require(output.range(of: "; bindings: [", options: .backwards).map {
            String(output[output.index(output.startIndex, offsetBy: 4)..<$0.lowerBound])
        })
        let connection = try Connection(path: copy.path, mode: .readOnly)
        try PredicateSQLFunctions.register(on: connection)
        let selected = try connection.query(sql, arguments: [.text("BMW"), .integer(2)]).compactMap { $0.first?.int64Value }
        let expected = try connection.query("""
            SELECT ZOWNER FROM ZCAR GROUP BY ZOWNER
            HAVING ZOWNER IS NOT NULL AND COUNT(*) >= 2 AND SUM(ZMAKER = 'BMW') > 0
            """).compactMap { $0.first?.int64Value }
        #expect(!expected.isEmpty)
        #expect(selected.sorted() == expected.sorted())
    }

    @Test(.enabled(if: Fixtures.isAvailable, "../shared/fixtures is absent: Apple-fixture tests are skipped"))
    func unsupportedConstructsAreRefusedWithACaret() throws {
        let copy = try Fixtures.copy("stores/coredataplus-inheritance-constraints/SampleModel_V1.sqlite")
        let result = try CommandRunner.run([
            "predicate", "maker == 'BMW' AND FUNCTION(model, 'reverse') == 'x'", "--sql", "--entity", "Car",
            "--store", copy.path,
        ])
        #expect(result.status == 1)
        #expect(result.standardOutput.isEmpty)
        let lines = result.standardError.split(separator: "\n")
        #expect(lines.first?.hasPrefix("coredata: error: cannot compile FUNCTION expression") == true)
        #expect(lines.count == 3)
        #expect(lines.last?.hasPrefix(String(repeating: " ", count: 19) + "^ cannot compile FUNCTION expression") == true)
    }

    @Test(.enabled(if: Fixtures.isAvailable, "../shared/fixtures is absent: Apple-fixture tests are skipped"))
    func unknownEntityIsAFailure() throws {
        let copy = try Fixtures.copy("stores/coredataplus-inheritance-constraints/SampleModel_V1.sqlite")
        let result = try CommandRunner.run(["predicate", "a > 1", "--sql", "--entity", "Boat", "--store", copy.path])
        #expect(result.status == 1)
        #expect(result.standardError.contains("the model has no entity named 'Boat'"))
    }
}
