import Foundation
import SQLiteDatabase
import StoreBrowser
import Testing
import TerminalUI

/// Issue 21, item 5: relationships read as names (each entity's display key) in tables, the detail pane, pickers,
/// F and exports; `:label ENTITY KEY` changes the key and is remembered per store.
@Suite("Labels")
struct BrowserLabelTests {
    static let wide = Size(columns: 200, rows: 30)

    @Test("A recipe's chef shows as the chef's name in the table and in the detail pane, not as Chef p2")
    func tableAndDetailShowNames() throws {
        let browser = try BrowserHarness(entity: "Recipe", size: Self.wide)
        let path = browser.storePath
        let chef = try #require(try StoreFile.text(path, "SELECT c.ZNAME FROM ZRECIPE r JOIN ZCHEF c ON c.Z_PK = r.ZCHEF ORDER BY r.Z_PK LIMIT 1"))
        let key = try StoreFile.integer(path, "SELECT ZCHEF FROM ZRECIPE ORDER BY Z_PK LIMIT 1")
        try browser.selectColumn("chef")
        #expect(browser.screen[2].contains(chef), "\(browser.screen[2])")
        #expect(!browser.text.contains("Chef p"), "\(browser.screen)")
        try browser.press(.enter)
        #expect(browser.app.detail?.fields.first { $0.key == "chef" }?.value == "\(chef) (Chef p\(key))")
    }

    @Test("F on a to-one lists its destinations by name")
    func frequencyShowsNames() throws {
        let browser = try BrowserHarness(entity: "Recipe", size: Size(columns: 160, rows: 60))
        try browser.selectColumn("cuisine")
        try browser.press(.character("F"))
        let top = try #require(try StoreFile.text(browser.storePath, """
            SELECT c.ZNAME FROM ZRECIPE r JOIN ZCUISINE c ON c.Z_PK = r.ZCUISINE GROUP BY r.ZCUISINE ORDER BY COUNT(*) DESC, c.Z_PK LIMIT 1
            """))
        #expect(browser.text.contains(top), "\(browser.screen)")
        #expect(!browser.text.contains("Cuisine p"), "\(browser.screen)")
    }

    @Test("CSV carries the label; JSON keeps the URI and adds the label beside it")
    func exports() throws {
        let browser = try BrowserHarness(entity: "Recipe", predicate: "servings >= 4")
        let csvPath = browser.directory.appendingPathComponent("r.csv").path
        let jsonPath = browser.directory.appendingPathComponent("r.json").path
        try browser.type(":export csv \(csvPath)\n")
        for _ in 0..<10 where !browser.messageLine.hasPrefix("exported") { try browser.settle() }
        try browser.type(":export json \(jsonPath)\n")
        for _ in 0..<10 where !browser.messageLine.hasPrefix("exported") { try browser.settle() }
        let expected = try StoreFile.rows(browser.storePath, """
            SELECT c.ZNAME, r.ZCHEF FROM ZRECIPE r LEFT JOIN ZCHEF c ON c.Z_PK = r.ZCHEF WHERE r.ZSERVINGS >= 4 ORDER BY r.Z_PK
            """)
        let records = BrowserExportTests.parseCSV(try String(contentsOfFile: csvPath, encoding: .utf8))
        let chefColumn = try #require(records.first?.firstIndex(of: "chef"))
        #expect(records.dropFirst().map { $0[chefColumn] } == expected.map { $0[0].stringValue ?? "" })
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: jsonPath))) as? [[String: Any]])
        #expect(json.count == expected.count)
        for (object, row) in zip(json, expected) {
            #expect((object["chef"] as? String)?.hasSuffix("/Chef/p\(row[1].int64Value ?? 0)") == true)
            #expect(object["chef.label"] as? String == row[0].stringValue)
        }
    }

    @Test(":label Chef email names chefs by email, in this session and the next on the same store")
    func labelCommandIsRemembered() throws {
        let state = try TemporaryDirectoryForLabels.make()
        let browser = try BrowserHarness(entity: "Recipe", size: Self.wide, stateDirectory: state)
        let email = try #require(try StoreFile.text(browser.storePath, "SELECT c.ZEMAIL FROM ZRECIPE r JOIN ZCHEF c ON c.Z_PK = r.ZCHEF ORDER BY r.Z_PK LIMIT 1"))
        try browser.type(":label Chef nope\n")
        #expect(browser.app.messageIsError && browser.text.contains("Chef has no attribute \"nope\""))
        try browser.press(.escape)
        try browser.type(":label Chef email\n")
        #expect(!browser.app.messageIsError, "\(browser.messageLine)")
        try browser.selectColumn("chef")
        #expect(browser.screen[2].contains(email), "\(browser.screen[2])")
        // The picker of a recipe's chef starts on the column that names chefs.
        let reopened = try BrowserHarness(entity: "Recipe", edit: true, size: Self.wide, stateDirectory: state) { path in
            try FileManager.default.removeItem(atPath: path)
            try FileManager.default.copyItem(atPath: browser.storePath, toPath: path)
        }
        // Another store keeps its own labels: this copy lives at another path.
        #expect(Self.firstChef(reopened.app) != email)
        try reopened.type(":label Chef email\n")
        try reopened.press(.enter)
        try reopened.selectField("chef")
        try reopened.press(.character("e"))
        #expect(reopened.app.table.columns[reopened.app.table.currentColumn].key == "email")
        try reopened.press(.enter)
        #expect(reopened.messageLine.contains("chef: picked \(email)"), "\(reopened.messageLine)")
        let again = try BrowserHarness(entity: "Recipe", size: Self.wide, stateDirectory: state) { path in
            try FileManager.default.removeItem(atPath: path)
            try FileManager.default.copyItem(atPath: browser.storePath, toPath: path)
        }
        #expect(Self.firstChef(again.app) != email, "a new copy is a new store")
        let sameStore = try BrowserSessionReopen.app(of: browser.storePath, state: state, size: Self.wide)
        #expect(Self.firstChef(sameStore) == email)
    }

    /// The chef cell of the first row, as the table writes it.
    static func firstChef(_ app: StoreBrowserApp) -> String? {
        app.session.perform {
            guard let column = app.table.columns.first(where: { $0.key == "chef" }), let object = app.table.object(at: 0) else { return nil }
            return app.table.text(of: column, for: object)
        }
    }
}

enum TemporaryDirectoryForLabels {
    static func make() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("labels-state-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// A second browser on the very same store file (not a copy), to see what is remembered for it.
enum BrowserSessionReopen {
    static func app(of storePath: String, state: URL, size: Size) throws -> StoreBrowserApp {
        let options = BrowserOptions(storePath: storePath, entityName: "Recipe", stateDirectory: state.path)
        let session = try BrowserSession(options: options)
        var app = try StoreBrowserApp(session: session, editor: BasicLineEditor(), theme: .monochrome)
        let terminal = VirtualTerminal(size: size, showsColor: false)
        session.waitForBackgroundWork()
        terminal.enqueue(inputs: [.timeout])
        try TerminalUI.run(app: &app, terminal: terminal)
        return app
    }
}
