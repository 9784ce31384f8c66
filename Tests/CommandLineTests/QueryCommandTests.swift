import CoreDataTestSupport
import Foundation
import Testing

/// `coredata query`, `count` and `aggregate` through the real executable, checked against SQL on Apple's stores.
@Suite("coredata query, count, aggregate", .enabled(if: Fixtures.isAvailable, "../shared/fixtures is absent: query tests skipped"))
struct QueryCommandTests {
    /// Runs sqlite3 on a store and returns its output lines (the independent oracle).
    private func sqlite(_ path: String, _ sql: String) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = ["-readonly", path, sql]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    private func jsonLines(_ output: String) throws -> [[String: Any]] {
        try output.split(separator: "\n").map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
    }

    @Test func stringAndIntegerValuesMatchSQL() throws {
        let copy = try Fixtures.copy("stores/coredataplus-inheritance-constraints/SampleModel_V1.sqlite")
        let result = try CommandRunner.run(["query", copy.path, "Car", "--keys", "maker,model,numberPlate", "--format", "jsonl"])
        #expect(result.status == 0, "\(result.standardError)")
        let rows = try jsonLines(result.standardOutput)
        let expected = try sqlite(copy.path, "SELECT ifnull(ZMAKER,'∅'), ifnull(ZMODEL,'∅'), ZNUMBERPLATE FROM ZCAR ORDER BY Z_PK")
        #expect(rows.count == expected.count)
        for (row, line) in zip(rows, expected) {
            let fields = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            #expect((row["maker"] as? String ?? "∅") == fields[0])
            #expect((row["model"] as? String ?? "∅") == fields[1])
            #expect(row["numberPlate"] as? String == fields[2])
        }
    }

    @Test func datesDecimalsAndRelationshipsDecode() throws {
        let copy = try Fixtures.copy("stores/coredataplus-derived-decimal-history/SampleModel2_V1.sqlite")
        let result = try CommandRunner.run(["query", copy.path, "Book", "--keys", "price,publishedAt,author.alias,pages.@count", "--format", "jsonl", "--limit", "5"])
        #expect(result.status == 0, "\(result.standardError)")
        let rows = try jsonLines(result.standardOutput)
        let expected = try sqlite(copy.path, """
            SELECT printf('%.15g', b.ZPRICE), strftime('%Y-%m-%dT%H:%M:%S', b.ZPUBLISHEDAT + 978307200, 'unixepoch'), w.ZALIAS,
                   (SELECT count(*) FROM ZPAGE p WHERE p.ZBOOK = b.Z_PK)
            FROM ZBOOK b LEFT JOIN ZWRITER w ON w.Z_PK = b.ZAUTHOR ORDER BY b.Z_PK LIMIT 5
            """)
        #expect(rows.count == 5)
        for (row, line) in zip(rows, expected) {
            let fields = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            #expect("\(row["price"]!)" == fields[0])
            #expect((row["publishedAt"] as? String)?.hasPrefix(fields[1]) == true)
            #expect(row["author.alias"] as? String == fields[2])
            #expect("\(row["pages.@count"]!)" == fields[3])
        }
    }

    @Test func countMatchesSQLForEveryEntityOfEveryStore() throws {
        for store in Fixtures.allStores() {
            let copy = try Fixtures.copy(store)
            let schema = try CommandRunner.run(["schema", copy.path, "--format", "json"])
            let json = try JSONSerialization.jsonObject(with: Data(schema.standardOutput.utf8)) as! [String: Any]
            for entity in json["entities"] as! [[String: Any]] {
                let name = entity["name"] as! String
                let result = try CommandRunner.run(["count", copy.path, name])
                #expect(result.status == 0, "\(store) \(name): \(result.standardError)")
                #expect(Int(result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)) == entity["rowCountIncludingSubentities"] as? Int,
                        "\(store) \(name)")
            }
        }
    }

    @Test func aggregateGroupsInSQL() throws {
        let copy = try Fixtures.copy("stores/coredataplus-inheritance-constraints/SampleModel_V1.sqlite")
        let result = try CommandRunner.run(["aggregate", copy.path, "Car", "--group-by", "maker", "--count", "--format", "jsonl"])
        #expect(result.status == 0, "\(result.standardError)")
        let rows = try jsonLines(result.standardOutput)
        let expected = try sqlite(copy.path, "SELECT ifnull(ZMAKER,'∅'), count(*) FROM ZCAR GROUP BY ZMAKER ORDER BY ZMAKER")
        #expect(rows.count == expected.count)
        for (row, line) in zip(rows, expected) {
            let fields = line.split(separator: "|").map(String.init)
            #expect((row["maker"] as? String ?? "∅") == fields[0])
            #expect("\(row["count"]!)" == fields[1])
        }
    }

    @Test func badInputGivesClearErrors() throws {
        let copy = try Fixtures.copy("stores/coredataplus-inheritance-constraints/SampleModel_V1.sqlite")
        let unknownEntity = try CommandRunner.run(["query", copy.path, "Cars"])
        #expect(unknownEntity.status == 1 && unknownEntity.standardError.contains("unknown entity \"Cars\"")
                && unknownEntity.standardError.contains("Car,"), "\(unknownEntity.standardError)")
        // A name that differs only in case finds the one entity it names.
        let folded = try CommandRunner.run(["count", copy.path, "car"])
        let cars = try CommandRunner.run(["count", copy.path, "Car"])
        #expect(folded.status == 0 && folded.standardOutput == cars.standardOutput, "\(folded.standardError)")
        let unknownKey = try CommandRunner.run(["query", copy.path, "Car", "--keys", "owner.nme"])
        #expect(unknownKey.status == 1 && unknownKey.standardError.contains("unknown key \"nme\""))
        let badPredicate = try CommandRunner.run(["query", copy.path, "Car", "maker == 'FIAT' AND"])
        #expect(badPredicate.status == 2, "a malformed predicate is a usage error")
        // A headline, then the format on its own line with the caret under the bad character (the end of input).
        #expect(badPredicate.standardError == """
            coredata: error: invalid predicate: expected an expression, found end of input
            maker == 'FIAT' AND
                               ^ expected an expression, found end of input

            """, "\(badPredicate.standardError)")
        let negative = try CommandRunner.run(["query", copy.path, "Car", "--limit", "-3"])
        #expect(negative.status == 2)
    }

    @Test func controlCharactersNeverReachTheTerminal() throws {
        let copy = try Fixtures.copy("stores/coredataplus-simple-ios17/SampleModel3_V1.sqlite")
        let update = Process()
        update.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        update.arguments = [copy.path, "UPDATE ZUSER SET ZNAME = char(27) || ']0;owned' || char(7) || char(27) || '[2J' || char(8238) WHERE Z_PK = 1"]
        try update.run()
        update.waitUntilExit()
        // Tables are sanitised wherever they go; CSV on a terminal (into a pipe it carries the exact value).
        let table = try CommandRunner.run(["query", copy.path, "User", "--format", "table"])
        #expect(table.status == 0)
        for output in [table.standardOutput, try TerminalJSONOutputTests.onTerminal(["query", copy.path, "User", "--format", "csv"])] {
            #expect(!output.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x202E })
            #expect(output.contains("␛]0;owned␇␛[2J<U+202E>"))
        }
        let json = try CommandRunner.run(["query", copy.path, "User", "--format", "json"])
        #expect(json.standardOutput.contains("\\u001b]0;owned\\u0007"))
    }
}
