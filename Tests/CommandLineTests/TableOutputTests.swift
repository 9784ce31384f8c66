import CoreDataTestSupport
import Foundation
import Testing

/// Issue 22: `--format table` writes the rows after its sizing sample straight into the output buffer (numbers,
/// dates and booleans without an intermediate string); every row must read as the sample's rows do, padded to its
/// column or cut with an ellipsis.
@Suite("query --format table")
struct TableOutputTests {
    /// Every row of a 2,000-row table against the CSV of the same query: numbers and dates padded, or cut at a
    /// narrow terminal width, the same way before and after the 200 rows that size the columns.
    @Test("Rows past the sizing sample are padded and cut as the sample's rows are", arguments: ["300", "40"])
    func rowsAfterTheSampleMatchTheCSV(columns: String) throws {
        let directory = try TemporaryDirectory.make(prefix: "table-output")
        let path = directory.appendingPathComponent("Earthquakes.sqlite").path
        try FileManager.default.copyItem(
            atPath: Fixtures.projectRoot.appendingPathComponent("SampleStores/Earthquakes/Earthquakes.sqlite").path, toPath: path)
        let keys = "magnitude,depth,time,code,latitude"
        let table = try CommandRunner.run(["query", path, "Quake", "--keys", keys, "--format", "table"], environment: ["COLUMNS": columns])
        #expect(table.status == 0, "\(table.standardError)")
        let csv = try CommandRunner.run(["query", path, "Quake", "--keys", keys, "--format", "csv", "--no-header"])
        let records = try StrictCSVReader.records(Data(csv.standardOutput.utf8))
        let lines = table.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        #expect(lines.count == records.count + 2 && records.count == 2_000)
        let widths = try #require(lines.dropFirst().first).components(separatedBy: "  ").map(\.count)
        #expect(widths.count == 5)
        if columns == "40" { #expect(widths.reduce(0, +) + 8 <= 40, "\(widths)") }
        var cut = 0
        for (line, record) in zip(lines.dropFirst(2), records) {
            var expected: [String] = []
            for (value, width) in zip(record, widths) {
                if value.count <= width {
                    expected.append(value + String(repeating: " ", count: width - value.count))
                } else {
                    expected.append(String(value.prefix(width - 1)) + "…")
                    cut += 1
                }
            }
            #expect(line == expected.joined(separator: "  "), "\(line)\n\(expected.joined(separator: "  "))")
        }
        // At 40 columns the dates are cut, past the sample too.
        #expect(columns == "300" ? cut == 0 : cut > 2 * 1_000, "\(cut) cells cut")
    }
}
