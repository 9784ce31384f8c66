import CoreDataTestSupport
import Foundation
import SQLiteDatabase
import Testing

/// Issue 16, item 6: `coredata query --format json` writes C1 controls, DEL, bidi overrides and invisible format
/// characters as `\u` escapes when standard output is a terminal (run under `script`, which gives it a
/// pseudo-terminal), and the data's own characters into a pipe; tables show the invisible ones.
@Suite("JSON and tables on a terminal", .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"),
                                               "util-linux script is absent"))
struct TerminalJSONOutputTests {
    static let hostile = "c1\u{85}\u{9B}31m del\u{7F} bidi\u{202E}x zw\u{200B}sp bom\u{FEFF}"

    static func store() throws -> String {
        let directory = try TemporaryDirectory.make(prefix: "terminal-json")
        let path = directory.appendingPathComponent("Recipes.sqlite").path
        try FileManager.default.copyItem(
            atPath: Fixtures.projectRoot.appendingPathComponent("SampleStores/Recipes/Recipes.sqlite").path, toPath: path)
        let connection = try Connection(path: path, mode: .readWrite, busyTimeout: .seconds(5))
        try connection.execute(sql: "UPDATE ZCHEF SET ZNAME = ?, ZEMAIL = 'hostile@terminal.test' WHERE Z_PK = 1", arguments: [.text(hostile)])
        return path
    }

    /// Runs `coredata` with a pseudo-terminal as standard output.
    static func onTerminal(_ arguments: [String]) throws -> String {
        let command = ([CommandRunner.executable.path] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
            .joined(separator: " ")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qec", command, "/dev/null"]
        process.environment = ProcessInfo.processInfo.environment.merging(["COLUMNS": "200"]) { _, new in new }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return String(decoding: data, as: UTF8.self)
    }

    static func dangerous(_ text: String) -> [UInt32] {
        text.unicodeScalars.map(\.value).filter {
            (0x7F...0x9F).contains($0) || [0x202E, 0x200B, 0xFEFF].contains($0)
        }
    }

    @Test("JSON on a terminal escapes them and still decodes to the data")
    func jsonOnATerminal() throws {
        let path = try Self.store()
        let output = try Self.onTerminal(["query", path, "Chef", "email == 'hostile@terminal.test'", "--keys", "name", "--format", "jsonl"])
        #expect(Self.dangerous(output).isEmpty, "\(Self.dangerous(output))")
        #expect(output.contains(#"c1\u0085\u009b31m del\u007f bidi\u202ex zw\u200bsp bom\ufeff"#), "\(output)")
        let line = try #require(output.split(whereSeparator: \.isNewline).first)
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String]
        #expect(object?["name"] == Self.hostile)
    }

    @Test("JSON into a pipe keeps the data's own characters")
    func jsonIntoAPipe() throws {
        let path = try Self.store()
        let result = try CommandRunner.run(["query", path, "Chef", "email == 'hostile@terminal.test'", "--keys", "name", "--format", "jsonl"])
        #expect(result.status == 0, "\(result.standardError)")
        let object = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: String]
        #expect(object?["name"] == Self.hostile)
        #expect(result.standardOutput.contains("\u{85}\u{9B}31m"))
    }

    @Test("A table shows the invisible characters")
    func tableOnATerminal() throws {
        let path = try Self.store()
        let output = try Self.onTerminal(["query", path, "Chef", "email == 'hostile@terminal.test'", "--keys", "name"])
        #expect(Self.dangerous(output).isEmpty, "\(Self.dangerous(output))")
        #expect(output.contains("zw<U+200B>sp bom<U"), "\(output)")  // the column is 60 wide
    }
}
