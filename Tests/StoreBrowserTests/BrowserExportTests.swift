import CoreDataTestSupport
import Foundation
import SQLiteDatabase
import StoreBrowser
import Testing
import TerminalUI

/// Issue 6, item 10: `:export csv|json PATH` streams the whole filtered, sorted table (not only what is loaded)
/// through a `.partial` file renamed at the end, with progress on ticks; Esc cancels and leaves nothing.
@Suite("Export")
struct BrowserExportTests {
    @Test(":export csv writes every filtered object in the table's order, with a header of the columns")
    func csv() throws {
        let browser = try BrowserHarness(entity: "Recipe", predicate: "servings >= 4", batchSize: 20)
        let path = browser.directory.appendingPathComponent("recipes.csv").path
        try browser.type(":sort -minutes\n")
        try browser.type(":export csv \(path)\n")
        #expect(browser.messageLine.contains("exporting to \(path)"))
        try browser.settle()
        let expected = try StoreFile.rows(browser.storePath,
                                          "SELECT ZNAME FROM ZRECIPE WHERE ZSERVINGS >= 4 ORDER BY ZMINUTES DESC, Z_PK")
        #expect(browser.messageLine.contains("exported \(expected.count) objects to \(path)"))
        #expect(!FileManager.default.fileExists(atPath: path + ".partial"))
        let records = Self.parseCSV(try String(contentsOfFile: path, encoding: .utf8))
        #expect(records.count == expected.count + 1)
        #expect(records[0] == browser.app.table.columns.map(\.key))
        let nameColumn = try #require(browser.app.table.columns.firstIndex { $0.key == "name" })
        #expect(records.dropFirst().map { $0[nameColumn] } == expected.compactMap { $0[0].stringValue })
        #expect(Set(records.map(\.count)) == [browser.app.table.columns.count])
    }

    /// RFC 4180 records: quoted fields may hold commas, quotes (doubled) and line breaks.
    static func parseCSV(_ text: String) -> [[String]] {
        var records: [[String]] = [], record: [String] = [], field = "", quoted = false
        var characters = Array(text)[...]
        while let character = characters.popFirst() {
            if quoted {
                if character == "\"" {
                    if characters.first == "\"" { field.append("\""); characters.removeFirst() } else { quoted = false }
                } else {
                    field.append(character)
                }
            } else if character == "\"" {
                quoted = true
            } else if character == "," {
                record.append(field); field = ""
            } else if character == "\r\n" || character == "\n" {
                record.append(field); records.append(record); record = []; field = ""
            } else {
                field.append(character)
            }
        }
        if !field.isEmpty || !record.isEmpty { record.append(field); records.append(record) }
        return records
    }

    @Test(":export json writes an array of objects with their IDs and values")
    func json() throws {
        let browser = try BrowserHarness(sample: "Library", predicate: "name BEGINSWITH 'A'")
        let path = browser.directory.appendingPathComponent("authors.json").path
        try browser.type(":export json \(path)\n")
        try browser.settle()
        let objects = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [[String: Any]])
        let expected = try StoreFile.rows(browser.storePath, "SELECT Z_PK, ZNAME FROM ZAUTHOR WHERE ZNAME LIKE 'A%' ORDER BY Z_PK")
        #expect(objects.count == expected.count)
        #expect(objects.map { $0["name"] as? String } == expected.map { $0[1].stringValue })
        #expect((objects.first?["objectID"] as? String)?.hasSuffix("/Author/p\(expected[0][0].int64Value ?? -1)") == true)
        #expect(objects.allSatisfy { $0.keys.contains("born") })
    }

    @Test("A large export streams over several ticks with progress; Esc cancels and leaves no file")
    func progressAndCancel() throws {
        // Wide enough for the whole message with a long temporary directory in the path.
        let browser = try BrowserScrollingTests.bigStore(size: Size(columns: 180, rows: 30))
        let path = browser.directory.appendingPathComponent("quakes.csv").path
        let count = try StoreFile.integer(browser.storePath, "SELECT COUNT(*) FROM ZQUAKE WHERE ZMAGNITUDE >= 8.8")
        #expect(count > 5_000)
        try browser.type("/magnitude >= 8.8\n")
        try browser.settle()
        try browser.type(":export csv \(path)\n")
        try browser.settle()
        #expect(browser.messageLine.contains("exporting 5,000 of \(NumberFormatter.grouped(count)) objects to \(path)… (Esc cancels)"))
        #expect(FileManager.default.fileExists(atPath: path + ".partial"))
        #expect(!FileManager.default.fileExists(atPath: path))
        try browser.press(.escape)
        #expect(browser.messageLine.contains("export cancelled; nothing written to \(path)"))
        #expect(!FileManager.default.fileExists(atPath: path + ".partial"))
        #expect(!FileManager.default.fileExists(atPath: path))

        // Again, to the end this time: the loaded batches of the table are not what is exported.
        try browser.type(":export csv \(path)\n")
        for _ in 0..<10 where !browser.messageLine.hasPrefix("exported") { try browser.settle() }
        #expect(browser.messageLine.contains("exported \(NumberFormatter.grouped(count)) objects"))
        #expect(Self.parseCSV(try String(contentsOfFile: path, encoding: .utf8)).count == count + 1)
        #expect(browser.app.table.residentBatches.count <= 8)
    }

    @Test("A wrong format or an unwritable path is a clear error and writes nothing")
    func errors() throws {
        let browser = try BrowserHarness()
        try browser.type(":export xml out.xml\n")
        #expect(browser.app.messageIsError)
        #expect(browser.text.contains(":export takes csv or json and a file path"))
        try browser.press(.escape)
        try browser.type(":export csv /nonexistent-directory/out.csv\n")
        #expect(browser.app.messageIsError)
        #expect(browser.text.contains("cannot create /nonexistent-directory/out.csv.partial"))
    }
}
