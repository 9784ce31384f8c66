import Foundation
import SQLiteDatabase
import StoreBrowser
import Testing
import TerminalUI

/// Issue 6, item 9: the frequency table (GROUP BY over the whole filtered entity, Enter drills in) and describe.
@Suite("Analysis")
struct BrowserAnalysisTests {
    static let tall = Size(columns: 120, rows: 60)

    /// Whether the frequency overlay shows `count` objects for the value `text`.
    static func showsGroup(_ browser: BrowserHarness, count: Int, text: String) -> Bool {
        let pattern = #"│\s*"# + String(count) + #"\s+[0-9.]+%\s+■*\s+"# + NSRegularExpression.escapedPattern(for: text) + #"\s*│"#
        return browser.screen.contains { $0.range(of: pattern, options: .regularExpression) != nil }
    }

    @Test("F counts each value over the whole filtered entity, as GROUP BY does; Enter drills into one value")
    func frequencyAndDrill() throws {
        let browser = try BrowserHarness(entity: "Recipe", predicate: "isVegetarian == NO", size: Self.tall, batchSize: 20)
        let path = browser.storePath
        try browser.selectColumn("servings")
        try browser.press(.character("F"))
        let groups = try StoreFile.rows(path, """
            SELECT ZSERVINGS, COUNT(*) FROM ZRECIPE WHERE ZISVEGETARIAN = 0 GROUP BY ZSERVINGS ORDER BY COUNT(*) DESC, ZSERVINGS
            """)
        let total = try StoreFile.integer(path, "SELECT COUNT(*) FROM ZRECIPE WHERE ZISVEGETARIAN = 0")
        #expect(browser.text.contains("Frequency of servings: \(groups.count) values, \(total) objects (Enter drills in)"))
        for group in groups {
            let value = Int(group[0].int64Value ?? -1), count = Int(group[1].int64Value ?? -1)
            #expect(Self.showsGroup(browser, count: count, text: String(value)), "no line for \(value): \(count)")
        }

        // The most frequent value is first; j moves to the second, Enter drills into it.
        try browser.press(.character("j"), .enter)
        let value = try #require(groups[1][0].int64Value)
        let count = try #require(groups[1][1].int64Value)
        try browser.settle()
        #expect(browser.statusLine.contains("/ isVegetarian == 0 AND servings == \(value) │ row 1 of \(count) │"))
        // Back returns to the unfiltered-by-value table.
        try browser.press(.backspace)
        #expect(browser.statusLine.contains("/ isVegetarian == 0 │"))
    }

    @Test("F on a column with nils counts the nil group, and drilling into it filters on nil")
    func frequencyWithNil() throws {
        let browser = try BrowserHarness(sample: "Library", size: Self.tall)
        let path = browser.storePath
        try browser.selectColumn("born")
        try browser.press(.character("F"))
        let nils = try StoreFile.integer(path, "SELECT COUNT(*) FROM ZAUTHOR WHERE ZBORN IS NULL")
        #expect(nils > 0)
        #expect(Self.showsGroup(browser, count: nils, text: "(nil)"))
        // nil is the largest group here (every other birth date is distinct).
        try browser.press(.enter)
        try browser.settle()
        #expect(browser.statusLine.contains("/ born == nil │ row 1 of \(nils) │"))
    }

    @Test("F on a to-one column groups by destination and drills into one of them")
    func frequencyOfToOne() throws {
        let browser = try BrowserHarness(sample: "Earthquakes", entity: "Quake", size: Self.tall)
        let path = browser.storePath
        try browser.selectColumn("region")
        try browser.press(.character("F"))
        let top = try StoreFile.rows(path, "SELECT ZREGION, COUNT(*) FROM ZQUAKE GROUP BY ZREGION ORDER BY COUNT(*) DESC, ZREGION LIMIT 1")[0]
        #expect(browser.text.contains("Frequency of region: 18 values, 2,000 objects"))
        let region = try #require(top[0].int64Value), count = try #require(top[1].int64Value)
        let name = try #require(try StoreFile.text(path, "SELECT ZNAME FROM ZREGION WHERE Z_PK = \(region)"))
        #expect(Self.showsGroup(browser, count: Int(count), text: name))
        try browser.press(.enter)
        try browser.settle()
        #expect(!browser.app.messageIsError)
        #expect(browser.app.table.knownCount == Int(count))
        #expect(browser.statusLine.contains("/ region == x-coredata://"))
    }

    @Test("D describes every attribute over the filtered entity: values, nils, distinct, min and max as SQL has them")
    func describe() throws {
        let browser = try BrowserHarness(entity: "Recipe", predicate: "servings >= 4", size: Size(columns: 140, rows: 40))
        let path = browser.storePath
        try browser.press(.character("D"))
        let text = browser.text
        let total = try StoreFile.integer(path, "SELECT COUNT(*) FROM ZRECIPE WHERE ZSERVINGS >= 4")
        #expect(text.contains("Describe Recipe"))
        #expect(text.contains("\(total) objects"))
        for (key, column) in [("minutes", "ZMINUTES"), ("servings", "ZSERVINGS")] {
            let row = try StoreFile.rows(path, """
                SELECT COUNT(\(column)), COUNT(*) - COUNT(\(column)), COUNT(DISTINCT \(column)), MIN(\(column)), MAX(\(column))
                FROM ZRECIPE WHERE ZSERVINGS >= 4
                """)[0].map { $0.int64Value ?? -1 }
            let pattern = "│" + key + #"\s+Integer 16\s+"# + "\(row[0])" + #"\s+"# + "\(row[1])" + #"\s+"# + "\(row[2])"
                + #"\s+"# + "\(row[3]) … \(row[4])"
            #expect(browser.screen.contains { $0.range(of: pattern, options: .regularExpression) != nil }, "no \(pattern)")
        }
        // Nils are counted: rating is optional.
        let ratingNils = try StoreFile.integer(path, "SELECT COUNT(*) FROM ZRECIPE WHERE ZSERVINGS >= 4 AND ZRATING IS NULL")
        let ratingPattern = #"│rating\s+Double\s+\d+\s+"# + "\(ratingNils)" + #"\s"#
        #expect(browser.screen.contains { $0.range(of: ratingPattern, options: .regularExpression) != nil })
        try browser.press(.escape)
        #expect(!browser.text.contains("Describe Recipe"))
    }
}
