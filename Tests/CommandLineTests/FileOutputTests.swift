import CoreDataTestSupport
import Foundation
import SQLiteDatabase
import Testing

/// Issue 22, acceptance: hostile strings round-trip exactly through JSON and CSV when the output is a file (as
/// into a pipe: neither is a terminal, so nothing is sanitised), and text that is not valid UTF-8 reads as the
/// library reads it (U+FFFD for each invalid sequence) in every format, still strict JSON and CSV.
@Suite("query output into a file")
struct FileOutputTests {
    /// Runs `coredata ARGUMENTS` with standard output redirected to a new file, and returns the file's bytes.
    static func runIntoFile(_ arguments: [String]) throws -> Data {
        let file = try TemporaryDirectory.make(prefix: "file-output").appendingPathComponent("out")
        #expect(FileManager.default.createFile(atPath: file.path, contents: nil))
        let handle = try FileHandle(forWritingTo: file)
        let process = Process()
        process.executableURL = CommandRunner.executable
        process.arguments = arguments
        process.standardOutput = handle
        let error = Pipe()
        process.standardError = error
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let message = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try handle.close()
        #expect(process.terminationStatus == 0, "\(arguments): \(String(decoding: message, as: UTF8.self))")
        return try Data(contentsOf: file)
    }

    @Test("JSON, JSON lines and CSV written to a file hold the hostile strings exactly, as into a pipe")
    func hostileStringsIntoAFile() throws {
        let path = try OutputFormatTests.hostileStore()
        let base = ["query", path, "Chef", "email BEGINSWITH '\"quoted'", "--keys", "name,email"]
        let expected = ["name": OutputFormatTests.hostileName, "email": OutputFormatTests.hostileEmail]
        for format in ["json", "jsonl", "csv", "tsv"] {
            let file = try Self.runIntoFile(base + ["--format", format])
            let piped = try CommandRunner.run(base + ["--format", format])
            #expect(file == Data(piped.standardOutput.utf8), "\(format): a file and a pipe get the same bytes")
        }
        let json = try JSONSerialization.jsonObject(with: try Self.runIntoFile(base + ["--format", "json"])) as? [[String: String]]
        #expect(json == [expected])
        let line = try JSONSerialization.jsonObject(with: try Self.runIntoFile(base + ["--format", "jsonl"])) as? [String: String]
        #expect(line == expected)
        let csv = try StrictCSVReader.records(try Self.runIntoFile(base + ["--format", "csv"]))
        #expect(csv == [["name", "email"], [OutputFormatTests.hostileName, OutputFormatTests.hostileEmail]])
    }

    @Test("text that is not valid UTF-8 reads as U+FFFD in JSON and CSV, which stay strict")
    func invalidUTF8Text() throws {
        let path = try OutputFormatTests.hostileStore()
        let connection = try Connection(path: path, mode: .readWrite, busyTimeout: .seconds(5))
        // "A", a stray 0xFF, "B", a truncated two-byte sequence, a line break, "x".
        try connection.execute(sql: "UPDATE ZCHEF SET ZNAME = CAST(x'41ff42c30a78' AS TEXT) WHERE Z_PK = 2")
        let base = ["query", path, "Chef", "email == %@", "--args", try Self.emailArgument(of: 2, in: connection), "--keys", "name"]
        let read = "A\u{FFFD}B\u{FFFD}\nx"
        let json = try JSONSerialization.jsonObject(with: try Self.runIntoFile(base + ["--format", "json"])) as? [[String: String]]
        #expect(json == [["name": read]])
        let csvData = try Self.runIntoFile(base + ["--format", "csv"])
        #expect(!csvData.contains(0xFF) && !csvData.contains(0xC3), "the invalid bytes are not passed through")
        let csv = try StrictCSVReader.records(csvData)
        #expect(csv == [["name"], [read]])
    }

    /// Chef `primaryKey`'s email as a one-element JSON array for `--args`.
    static func emailArgument(of primaryKey: Int64, in connection: Connection) throws -> String {
        let email = try #require(try connection.scalar("SELECT ZEMAIL FROM ZCHEF WHERE Z_PK = ?", arguments: [.integer(primaryKey)])?.stringValue)
        return String(decoding: try JSONSerialization.data(withJSONObject: [email]), as: UTF8.self)
    }
}
