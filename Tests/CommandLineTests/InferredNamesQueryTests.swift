import CoreDataTestSupport
import Foundation
import SQLiteDatabase
import Testing

/// Issue 16, item 6: `coredata query` and `count` on a store without a model cache whose column names hold a quote,
/// a backslash, a space and an escape character: the inferred model's names are quoted in every statement.
@Suite("coredata query on inferred models with unusual column names")
struct InferredNamesQueryTests {
    static func store() throws -> String {
        let directory = try TemporaryDirectory.make(prefix: "inferred-names")
        let path = directory.appendingPathComponent("Library.sqlite").path
        try FileManager.default.copyItem(
            atPath: Fixtures.projectRoot.appendingPathComponent("SampleStores/Library/Library.sqlite").path, toPath: path)
        let connection = try Connection(path: path, mode: .readWrite, busyTimeout: .seconds(5))
        try connection.execute(sql: """
            DROP TABLE Z_MODELCACHE;
            ALTER TABLE ZAUTHOR RENAME COLUMN ZNAME TO "ZNA""ME";
            ALTER TABLE ZAUTHOR RENAME COLUMN ZBORN TO "ZWITH SPACE\u{1B}[31m";
            ALTER TABLE ZAUTHOR ADD COLUMN "ZA\\B'C" VARCHAR;
            UPDATE ZAUTHOR SET "ZA\\B'C" = 'odd value' WHERE Z_PK = 1;
            ALTER TABLE ZAUTHOR ADD COLUMN "ZSTRAßE" VARCHAR;
            ALTER TABLE ZAUTHOR ADD COLUMN "Zcamel" VARCHAR;
            UPDATE ZAUTHOR SET Zcamel = 'mixed case column' WHERE Z_PK = 1;
            """)
        return path
    }

    @Test("JSON lines carry every renamed column's values")
    func jsonLines() throws {
        let path = try Self.store()
        let result = try CommandRunner.run(["query", path, "Author", "--format", "jsonl", "--limit", "3"])
        #expect(result.status == 0, "\(result.standardError)")
        let rows = try result.standardOutput.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(rows.count == 3)
        let connection = try Connection(path: path, mode: .readOnly, busyTimeout: .seconds(5))
        let names = try connection.query("SELECT \"ZNA\"\"ME\" FROM ZAUTHOR ORDER BY Z_PK LIMIT 3").map { $0[0].stringValue }
        #expect(rows.map { $0["na\"me"] as? String } == names)
        #expect(rows.first?["a\\b'c"] as? String == "odd value")
        #expect(rows.first?["with space\u{1B}[31m"] is String)
        #expect(rows.first?["camel"] as? String == "mixed case column")
        // No property name maps back to ZSTRAßE (its upper case is ZSTRASSE): the column is left out, with a note.
        #expect(rows.first?.keys.contains { $0.lowercased().hasPrefix("stra") } == false)
        let schema = try CommandRunner.run(["schema", path])
        #expect(schema.standardOutput.contains("ZAUTHOR.ZSTRAßE was left out"), "\(schema.standardOutput)")
    }

    @Test("The table, a to-many count through the join table and count all run")
    func tableAndCount() throws {
        let path = try Self.store()
        let table = try CommandRunner.run(["query", path, "Author", "--limit", "2"])
        #expect(table.status == 0, "\(table.standardError)")
        #expect(table.standardOutput.contains("odd value"))
        let books = try CommandRunner.run(["query", path, "Author", "--keys", "books.@count", "--limit", "2"])
        #expect(books.status == 0, "\(books.standardError)")
        let count = try CommandRunner.run(["count", path, "Author"])
        #expect(count.status == 0, "\(count.standardError)")
        #expect(count.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) == "30")
    }
}
