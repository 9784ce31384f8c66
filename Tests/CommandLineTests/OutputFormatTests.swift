import CoreDataTestSupport
import Foundation
import SQLiteDatabase
import Testing

/// Issue 22: `query` output in every format. Into a pipe, JSON and CSV hold the store's exact values (checked with
/// strict parsers); on a terminal every format is sanitised.
@Suite("query output formats")
struct OutputFormatTests {
    static let hostileName = "tab\tnew\nline cr\r quote\" comma, ctl\u{1}\u{1B}[2J\u{7} c1\u{85} bidi\u{202E} back\\slash é 🙂"
    static let hostileEmail = "\"quoted\",\r\n\"and more\"\u{7F}|pipe"
    static let hostileBytes: [UInt8] = [0xFF, 0xFE, 0x00, 0x80, 0x22, 0x2C, 0x0A, 0xC3]

    /// A copy of the Recipes sample with hostile strings in chef 1 and invalid UTF-8 in photo 1's image data.
    static func hostileStore() throws -> String {
        let directory = try TemporaryDirectory.make(prefix: "output-formats")
        let path = directory.appendingPathComponent("Recipes.sqlite").path
        try FileManager.default.copyItem(
            atPath: Fixtures.projectRoot.appendingPathComponent("SampleStores/Recipes/Recipes.sqlite").path, toPath: path)
        let connection = try Connection(path: path, mode: .readWrite, busyTimeout: .seconds(5))
        try connection.execute(sql: "UPDATE ZCHEF SET ZNAME = ?, ZEMAIL = ? WHERE Z_PK = 1", arguments: [.text(hostileName), .text(hostileEmail)])
        try connection.execute(sql: "UPDATE ZPHOTO SET ZIMAGEDATA = ? WHERE Z_PK = 1", arguments: [.blob(hostileBytes)])
        return path
    }

    static func run(_ arguments: [String]) throws -> String {
        let result = try CommandRunner.run(arguments)
        #expect(result.status == 0, "\(arguments): \(result.standardError)")
        return result.standardOutput
    }

    @Test("Hostile strings and bytes round-trip exactly through JSON, JSON lines, CSV and TSV into a pipe")
    func hostileValuesRoundTrip() throws {
        let path = try Self.hostileStore()
        let base = ["query", path, "Chef", "email BEGINSWITH '\"quoted'", "--keys", "name,email"]
        let json = try JSONSerialization.jsonObject(with: Data(try Self.run(base + ["--format", "json"]).utf8)) as? [[String: String]]
        #expect(json == [["name": Self.hostileName, "email": Self.hostileEmail]])
        let line = try Self.run(base + ["--format", "jsonl"])
        #expect(line.hasSuffix("}\n") && line.filter { $0 == "\n" }.count == 1, "one line per object: \(line.debugDescription)")
        #expect(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String] == ["name": Self.hostileName, "email": Self.hostileEmail])
        let csv = try StrictCSVReader.records(Data(try Self.run(base + ["--format", "csv"]).utf8))
        #expect(csv == [["name", "email"], [Self.hostileName, Self.hostileEmail]])
        let tsv = try Self.run(base + ["--format", "tsv", "--no-header"])
        let fields = tsv.dropLast().split(separator: "\t", omittingEmptySubsequences: false).map(Self.unescapeTSV)
        #expect(fields == [Self.hostileName, Self.hostileEmail], "\(tsv.debugDescription)")

        let photo = ["query", path, "Photo", "imageData != nil", "--keys", "imageData", "--limit", "1"]
        let photoJSON = try JSONSerialization.jsonObject(with: Data(try Self.run(photo + ["--format", "json"]).utf8)) as? [[String: String]]
        #expect(photoJSON?.first?["imageData"].flatMap { Data(base64Encoded: $0) }.map([UInt8].init) == Self.hostileBytes)
        let photoCSV = try StrictCSVReader.records(Data(try Self.run(photo + ["--format", "csv"]).utf8))
        #expect(photoCSV.last.flatMap { Data(base64Encoded: $0[0]) }.map([UInt8].init) == Self.hostileBytes)
        #expect(try Self.run(photo).contains("<8 bytes>"), "a table notes the size")
    }

    static func isRawControl(_ value: UInt32) -> Bool {
        if value < 0x20 { return value != 0x0A && value != 0x0D && value != 0x09 }
        return (0x7F...0x9F).contains(value) || value == 0x202E
    }

    static func unescapeTSV(_ field: Substring) -> String {
        var output = ""
        var escaped = false
        for character in field {
            if escaped {
                switch character {
                case "t": output.append("\t")
                case "n": output.append("\n")
                case "r": output.append("\r")
                default: output.append(character)
                }
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                output.append(character)
            }
        }
        return output
    }

    @Test("On a terminal every format is sanitised", .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "util-linux script is absent"))
    func everyFormatIsSanitisedOnATerminal() throws {
        let path = try Self.hostileStore()
        for format in ["table", "csv", "tsv", "json", "jsonl", "markdown"] {
            let output = try TerminalJSONOutputTests.onTerminal(["query", path, "Chef", "--keys", "name,email", "--format", format])
            let raw = output.unicodeScalars.map(\.value).filter(Self.isRawControl)
            #expect(raw.isEmpty, "\(format): \(raw)")
            if format.hasPrefix("json") {
                #expect(output.contains(#"\u001b[2J\u0007 c1\u0085 bidi\u202e"#), "\(format): \(output)")
            } else {
                // A table cuts the cell at 60 columns, before the bidi override.
                #expect(output.contains(format == "table" ? "ctl␁␛[2J␇ c1<U+0085>" : "ctl␁␛[2J␇ c1<U+0085> bidi<U+202E>"), "\(format): \(output)")
            }
        }
    }

    @Test("JSON and CSV parse strictly for every entity of every fixture store", .enabled(if: Fixtures.isAvailable, "\(Fixtures.absenceMessage)"))
    func everyFixtureParses() throws {
        for store in Fixtures.allStores() {
            let copy = try Fixtures.copy(store)
            let schema = try Self.run(["schema", copy.path, "--format", "json"])
            let entities = try #require((try JSONSerialization.jsonObject(with: Data(schema.utf8)) as? [String: Any])?["entities"] as? [[String: Any]])
            for entity in entities {
                let name = try #require(entity["name"] as? String)
                let rows = entity["rowCountIncludingSubentities"] as? Int
                let json = try CommandRunner.run(["query", copy.path, name, "--format", "json"])
                #expect(json.status == 0, "\(store) \(name): \(json.standardError)")
                let objects = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: Any]]
                #expect(objects?.count == rows, "\(store) \(name)")
                let csv = try CommandRunner.run(["query", copy.path, name, "--format", "csv"])
                #expect(csv.status == 0, "\(store) \(name): \(csv.standardError)")
                let records = try StrictCSVReader.records(Data(csv.standardOutput.utf8))
                #expect(records.count == (rows ?? -1) + 1, "\(store) \(name)")
                #expect(Set(records.map(\.count)).count <= 1, "\(store) \(name): every record has the header's fields")
            }
        }
    }

    static func plainStore() throws -> String {
        let directory = try TemporaryDirectory.make(prefix: "output-formats")
        let path = directory.appendingPathComponent("Recipes.sqlite").path
        try FileManager.default.copyItem(
            atPath: Fixtures.projectRoot.appendingPathComponent("SampleStores/Recipes/Recipes.sqlite").path, toPath: path)
        return path
    }

    @Test("A to-one relationship is its destination's label, and its URI and label in JSON")
    func relationshipsAreLabelled() throws {
        let path = try Self.plainStore()
        let expected = try sqliteLines(path, """
            SELECT r.ZNAME, ifnull(c.Z_PK, ''), ifnull(c.ZNAME, '') FROM ZRECIPE r LEFT JOIN ZCHEF c ON c.Z_PK = r.ZCHEF ORDER BY r.Z_PK
            """)
        let output = try Self.run(["query", path, "Recipe", "--keys", "name,chef", "--format", "jsonl"])
        let rows = try output.split(separator: "\n").map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        #expect(rows.count == expected.count && !expected.isEmpty)
        for (row, line) in zip(rows, expected) {
            let fields = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            #expect(row["name"] as? String == fields[0])
            if fields[1].isEmpty {
                #expect(row["chef"] is NSNull)
            } else {
                let chef = row["chef"] as? [String: String]
                #expect(chef?["uri"]?.hasPrefix("x-coredata://") == true && chef?["uri"]?.hasSuffix("/Chef/p\(fields[1])") == true)
                #expect(chef?["label"] == (fields[2].isEmpty ? "Chef p\(fields[1])" : fields[2]))
            }
        }
        let csv = try StrictCSVReader.records(Data(try Self.run(["query", path, "Recipe", "--keys", "chef.name,chef", "--format", "csv", "--no-header"]).utf8))
        #expect(csv.count == expected.count)
        for record in csv where !record[0].isEmpty { #expect(record[1] == record[0]) }
    }

    @Test("The store's SQL path and the object path print the same cells")
    func dictionaryAndObjectPathsAgree() throws {
        let path = try Self.hostileStore()
        let keys = "name,rating,created,isVegetarian,minutes,chef,chef.name,cuisine.region,identifier"
        let fast = try Self.run(["query", path, "Recipe", "--keys", keys, "--format", "jsonl", "--sort", "-rating,name"])
        // A to-many relationship is read through objects, so the extra column sends the whole query that way.
        let slow = try Self.run(["query", path, "Recipe", "--keys", keys + ",tags", "--format", "jsonl", "--sort", "-rating,name"])
        let fastRows = try fast.split(separator: "\n").map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        let slowRows = try slow.split(separator: "\n").map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        #expect(fastRows.count == slowRows.count && !fastRows.isEmpty)
        for (fastRow, slowRow) in zip(fastRows, slowRows) {
            var slowRow = slowRow
            #expect(slowRow.removeValue(forKey: "tags") is [Any])
            #expect(NSDictionary(dictionary: fastRow) == NSDictionary(dictionary: slowRow), "\(fastRow) \(slowRow)")
        }
        // Line by line too: the two paths write the shared columns in the same bytes.
        for (fastLine, slowLine) in zip(fast.split(separator: "\n"), slow.split(separator: "\n")) {
            #expect(slowLine.hasPrefix(fastLine.dropLast()), "\(fastLine)\n\(slowLine)")
        }
    }

    @Test("--dates, --null and --no-header")
    func dateStylesNullsAndHeaders() throws {
        let path = try Self.hostileStore()
        let expected = try sqliteLines(path, """
            SELECT ifnull(strftime('%Y-%m-%dT%H:%M:%fZ', ZJOINED + 978307200, 'unixepoch'), 'NULL'), ifnull(ZJOINED, 'NULL'),
                   ifnull(ZJOINED + 978307200, 'NULL') FROM ZCHEF ORDER BY Z_PK
            """).map { $0.split(separator: "|").map(String.init) }
        func column(_ style: String) throws -> [String] {
            try Self.run(["query", path, "Chef", "--keys", "joined", "--format", "tsv", "--no-header", "--null", "NULL", "--dates", style])
                .split(separator: "\n").map(String.init)
        }
        #expect(try column("iso") == expected.map { $0[0] })
        #expect(try column("apple").map { Double($0) ?? .nan }.elementsEqual(expected.map { Double($0[1]) ?? .nan }) { $0 == $1 || $0.isNaN && $1.isNaN })
        #expect(try column("unix").map { Double($0) ?? .nan }.elementsEqual(expected.map { Double($0[2]) ?? .nan }) { abs($0 - $1) < 1e-6 || $0.isNaN && $1.isNaN })
        let table = try Self.run(["query", path, "Chef", "--keys", "joined", "--no-header", "--limit", "1"])
        #expect(!table.contains("joined") && !table.contains("──"))
    }

    @Test("Markdown is a pipe table with escaped pipes")
    func markdown() throws {
        let path = try Self.hostileStore()
        let output = try Self.run(["query", path, "Chef", "--keys", "email", "--format", "markdown", "--limit", "1"])
        let lines = output.split(separator: "\n")
        #expect(lines.first == "| email |" && lines.dropFirst().first == "| --- |")
        #expect(lines.last?.hasSuffix("\\|pipe |") == true, "\(output)")
    }

    private func sqliteLines(_ path: String, _ sql: String) throws -> [String] {
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
}
