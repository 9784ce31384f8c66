import Predicates
import CoreDataObjectGraph
import Foundation
import SQLiteDatabase
import StoreBrowser
import Testing
import TerminalUI

/// Issue 21, item 6: the smaller things a user met.
@Suite("Small fixes of the second pass")
struct BrowserSmallFixesTests {
    @Test("/ shows the current filter selected: typing replaces it, an arrow key first keeps it for editing")
    func filterPrefillIsReplaced() throws {
        let browser = try BrowserHarness(entity: "Recipe")
        try browser.type("/minutes < 30\n")
        try browser.type("/servings > 4\n")
        #expect(!browser.app.messageIsError)
        #expect(browser.app.table.query.filter?.predicateFormat == "servings > 4")
        try browser.press(.character("/"))
        #expect(browser.editor.text == "servings > 4")
        try browser.press(.end)
        try browser.type(" AND minutes < 30\n")
        #expect(!browser.app.messageIsError)
        #expect(browser.app.table.query.filter?.predicateFormat == "servings > 4 AND minutes < 30")
    }

    @Test("Setting a value to nil shows old → nil in the detail pane")
    func nilShownAfterArrow() throws {
        let browser = try BrowserHarness(entity: "Recipe", edit: true)
        let rated = try StoreFile.integer(browser.storePath, "SELECT MIN(Z_PK) FROM ZRECIPE WHERE ZRATING IS NOT NULL")
        for _ in 1..<rated { try browser.press(.character("j")) }
        try browser.press(.enter)
        try browser.selectField("rating")
        let before = try #require(browser.app.detail?.selectedField?.value)
        try browser.press(.character("x"))
        #expect(browser.text.contains("\(before) → nil"))
    }

    @Test("F orders groups of equal size by value, numerically, and scales the bars to the largest group")
    func frequencyTiesAndBars() throws {
        let browser = try BrowserHarness(entity: "Recipe", size: BrowserAnalysisTests.tall)
        let path = browser.storePath
        try browser.selectColumn("minutes")
        try browser.press(.character("F"))
        let groups = try StoreFile.rows(path, "SELECT ZMINUTES, COUNT(*) FROM ZRECIPE WHERE ZMINUTES IS NOT NULL GROUP BY ZMINUTES")
        let counts = groups.compactMap { $0[1].int64Value }.map(Int.init)
        let largest = try #require(counts.max())
        // The sample's minutes have tied groups spanning a digit count (40, 200, 205 appear 7 times each today).
        let tied = Dictionary(grouping: groups, by: { Int($0[1].int64Value ?? 0) })
            .filter { $0.value.count > 1 && $0.value.contains { ($0[0].int64Value ?? 0) < 100 } && $0.value.contains { ($0[0].int64Value ?? 0) >= 100 } }
        let (count, members) = try #require(tied.first, "the sample has no tie across 100")
        let expected = members.compactMap { $0[0].int64Value }.sorted().map(String.init)
        // Each overlay line: count, share, bar, value; the value is captured.
        let pattern = try NSRegularExpression(pattern: #"│\s*"# + String(count) + #"\s+[0-9.]+%\s+(■*)\s+(\S+)\s*│"#)
        let matches = browser.screen.compactMap { line in
            pattern.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)).map { match in
                (bar: String(line[Range(match.range(at: 1), in: line)!]), value: String(line[Range(match.range(at: 2), in: line)!]))
            }
        }
        let shown = matches.map(\.value)
        #expect(shown == expected, "\(browser.screen)")
        // The largest group fills the bar (20 squares); the others in proportion.
        let bars = browser.screen.map { $0.filter { $0 == "■" }.count }
        #expect(bars.max() == 20, "\(browser.screen)")
        for match in matches {
            #expect(match.bar.count == Int((Double(count) / Double(largest) * 20).rounded()), "\(match)")
        }
    }

    @Test("Line and paragraph separators show as visible line breaks (␤, ¶) in the table and the detail pane, as ␊ does")
    func separatorsShowAsLineBreaks() throws {
        let browser = try BrowserHarness(size: Size(columns: 140, rows: 40)) { path in
            try StoreFile.write(path, """
                INSERT INTO ZCHEF (Z_PK, Z_ENT, Z_OPT, ZRECIPECOUNT, ZEMAIL, ZNAME)
                    VALUES (1000, 1, 1, 0, 's@sep.test', 'one' || char(8232) || 'two' || char(8233) || 'three' || char(10) || 'four');
                UPDATE Z_PRIMARYKEY SET Z_MAX = 1000 WHERE Z_NAME = 'Chef';
                """)
        }
        try browser.press(.character("G"))
        try browser.settle()
        #expect(browser.text.contains("one␤two¶three␊four"), "\(browser.screen)")
        try browser.press(.enter)
        #expect(browser.text.contains("one␤two¶three␊four"), "\(browser.screen)")
        #expect(!browser.terminal.written.unicodeScalars.contains { $0.value == 0x2028 || $0.value == 0x2029 })
    }

    @Test(":export onto an existing file asks first: n keeps the file, y replaces it")
    func exportAsksBeforeOverwriting() throws {
        let browser = try BrowserHarness(entity: "Recipe", predicate: "servings >= 4")
        let path = browser.directory.appendingPathComponent("kept.csv").path
        try Data("precious\n".utf8).write(to: URL(fileURLWithPath: path))
        try browser.type(":export csv \(path)\n")
        #expect(browser.text.contains("Overwrite \(path)?"), "\(browser.screen)")
        #expect(!FileManager.default.fileExists(atPath: path + ".partial"), "nothing starts before the answer")
        try browser.press(.character("n"))
        try browser.settle()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "precious\n")
        #expect(!browser.text.contains("Overwrite"))

        try browser.type(":export csv \(path)\n")
        try browser.press(.character("y"))
        for _ in 0..<10 where !browser.messageLine.hasPrefix("exported") { try browser.settle() }
        let count = try StoreFile.integer(browser.storePath, "SELECT COUNT(*) FROM ZRECIPE WHERE ZSERVINGS >= 4")
        #expect(browser.messageLine.contains("exported \(count) objects to \(path)"))
        #expect(BrowserExportTests.parseCSV(try String(contentsOfFile: path, encoding: .utf8)).count == count + 1)
    }

    @Test("The picker of a to-one opens on its current destination; Enter there keeps it")
    func pickerPreselectsTheCurrentValue() throws {
        let browser = try BrowserHarness(entity: "Recipe", edit: true, batchSize: 10)
        let path = browser.storePath
        // A recipe whose chef lies past the first batch of the picker, so the search has to read on.
        let recipe = try StoreFile.integer(path, "SELECT MIN(Z_PK) FROM ZRECIPE WHERE ZCHEF > 15")
        let chef = try StoreFile.integer(path, "SELECT ZCHEF FROM ZRECIPE WHERE Z_PK = \(recipe)")
        for _ in 1..<recipe { try browser.press(.character("j")) }
        try browser.press(.enter)
        try browser.selectField("chef")
        try browser.press(.character("e"))
        #expect(browser.screen[0].contains("Pick for chef: Chef"))
        #expect(browser.app.table.selectedObject?.objectID.uriRepresentation().lastPathComponent == "p\(chef)")
        #expect(browser.app.table.selection == chef - 1, "chefs are listed in primary-key order")
        try browser.press(.enter)
        let name = try #require(try StoreFile.text(path, "SELECT ZNAME FROM ZCHEF WHERE Z_PK = \(chef)"))
        #expect(browser.messageLine.contains("chef: picked \(name)"))
        #expect(browser.app.detail?.selectedField?.value == "\(name) (Chef p\(chef))")
    }
}
