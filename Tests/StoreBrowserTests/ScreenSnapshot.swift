import Foundation
import Testing

/// Screen snapshots kept as text files in `Snapshots/` beside the tests (one file per snapshot, one line per
/// screen row). The last fetch's time in the status line varies from run to run, so it is masked as `# ms`.
///
/// A missing snapshot is written and the test fails once, so a new snapshot is always looked at before it is
/// committed; set `SNAPSHOT_RECORD=1` to rewrite them all after an intended change.
enum ScreenSnapshot {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Snapshots")

    static func masked(_ lines: [String]) -> [String] {
        lines.map { $0.replacingOccurrences(of: #"in \d+(\.\d+)? ms"#, with: "in # ms", options: .regularExpression) }
    }

    static func assertMatches(_ lines: [String], named name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let file = directory.appendingPathComponent(name + ".txt")
        let actual = masked(lines).joined(separator: "\n") + "\n"
        let record = ProcessInfo.processInfo.environment["SNAPSHOT_RECORD"] == "1"
        guard !record, let expected = try? String(contentsOf: file, encoding: .utf8) else {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try actual.write(to: file, atomically: true, encoding: .utf8)
            Issue.record("recorded snapshot \(name); check it and run again", sourceLocation: sourceLocation)
            return
        }
        #expect(actual == expected, "screen differs from Snapshots/\(name).txt:\n\(actual)", sourceLocation: sourceLocation)
    }
}
