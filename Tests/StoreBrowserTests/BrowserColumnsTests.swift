import CoreDataModel
import CoreDataObjectGraph
import Foundation
import Predicates
import SQLiteDatabase
import StoreBrowser
import Testing
import TerminalUI

/// Issue 21, item 5: `:columns` with key paths and to-many aggregates, `c` to jump to (or add) a column by name,
/// `-` to hide one, and the set kept for the entity's later tables.
@Suite("Columns")
struct BrowserColumnsTests {
    static let size = Size(columns: 140, rows: 30)

    @Test(":columns name,chef.name,ingredients.@count shows those key paths, each row's values from the store")
    func keyPathColumns() throws {
        let browser = try BrowserHarness(entity: "Recipe", size: Self.size)
        try browser.type(":columns name,chef.name,ingredients.@count\n")
        #expect(!browser.app.messageIsError, "\(browser.messageLine)")
        #expect(browser.app.table.columns.map(\.key) == ["name", "chef.name", "ingredients.@count"])
        let rows = try StoreFile.rows(browser.storePath, """
            SELECT r.ZNAME, c.ZNAME, (SELECT COUNT(*) FROM ZINGREDIENT i WHERE i.ZRECIPE = r.Z_PK)
            FROM ZRECIPE r LEFT JOIN ZCHEF c ON c.Z_PK = r.ZCHEF ORDER BY r.Z_PK LIMIT 3
            """)
        for (offset, row) in rows.enumerated() {
            let line = browser.screen[2 + offset]
            let pattern = "│" + NSRegularExpression.escapedPattern(for: row[0].stringValue ?? "") + #"\s+"#
                + NSRegularExpression.escapedPattern(for: row[1].stringValue ?? "") + #"\s+"# + String(row[2].int64Value ?? -1) + #"\s*│"#
            #expect(line.range(of: pattern, options: .regularExpression) != nil, "\(line) !~ \(pattern)")
        }
        // An unknown key is refused, naming it.
        try browser.type(":columns name,chef.nmae\n")
        #expect(browser.app.messageIsError && browser.text.contains("unknown key \"nmae\""))
        try browser.press(.escape)
        // Sorting by a to-one key path works; the set stays for the entity's next table.
        try browser.selectColumn("chef.name")
        try browser.press(.character("["))
        #expect(!browser.app.messageIsError, "\(browser.messageLine)")
        // In compare:'s order (Foundation's), as the store's collation sorts.
        let descriptor = Predicates.NSSortDescriptor(key: nil, ascending: true)
        let names = try StoreFile.rows(browser.storePath, "SELECT c.ZNAME FROM ZRECIPE r JOIN ZCHEF c ON c.Z_PK = r.ZCHEF").compactMap { $0[0].stringValue }
        let first = names.min { descriptor.compare($0, to: $1) == .orderedAscending }
        #expect(browser.screen[2].contains(first ?? "?"), "\(browser.screen[2])")
        try browser.type(":entity Chef\n")
        try browser.type(":entity Recipe\n")
        #expect(browser.app.table.columns.map(\.key) == ["name", "chef.name", "ingredients.@count"])
        // A new session on the same store (state directory) starts with the set.
        let again = try BrowserSessionReopen.app(of: browser.storePath, state: browser.directory.appendingPathComponent("state"), size: Self.size)
        #expect(again.table.columns.map(\.key) == ["name", "chef.name", "ingredients.@count"])
        try browser.type(":columns\n")
        #expect(browser.app.table.columns.count > 3)
        let reset = try BrowserSessionReopen.app(of: browser.storePath, state: browser.directory.appendingPathComponent("state"), size: Self.size)
        #expect(reset.table.columns.count > 3)
    }

    @Test("c jumps to a column by name (Tab completes) and adds a key path that is not shown; - hides the current one")
    func jumpAndHide() throws {
        let browser = try BrowserHarness(entity: "Recipe", size: Self.size)
        let keys = browser.app.table.columns.map(\.key)
        let last = try #require(keys.last)
        try browser.type("c")
        #expect(browser.editor.activeKind != nil)
        try browser.type(String(last.prefix(3)))
        try browser.press(.tab)
        try browser.press(.enter)
        #expect(browser.app.table.columns[browser.app.table.currentColumn].key == last)
        try browser.type("ccuisine.name\n")
        let current = browser.app.table.columns[browser.app.table.currentColumn]
        #expect(current.key == "cuisine.name", "\(browser.messageLine)")
        try browser.press(.character("-"))
        #expect(!browser.app.table.columns.contains { $0.key == "cuisine.name" })
        try browser.type("cname\n")
        try browser.press(.character("-"))
        #expect(!browser.app.table.columns.contains { $0.key == "name" })
        #expect(!browser.screen[1].contains(" name "))
        #expect(browser.app.table.columns.count == keys.count - 1)
    }
}

/// Issue 21, item 5: a very wide entity (Notes' ICNote has 19 empty columns) opens without its empty columns.
@Suite("Empty columns of wide entities")
struct BrowserWideEntityTests {
    /// A store of a `Wide` entity with 20 string attributes of which only `a00`, `a05` and `a10` hold values, and a
    /// small `Narrow` entity with one empty attribute.
    static func makeStore(in directory: URL) throws -> String {
        let wide = NSEntityDescription(name: "Wide")
        wide.setProperties((0..<20).map { NSAttributeDescription(name: String(format: "a%02d", $0), type: .stringAttributeType) })
        let narrow = NSEntityDescription(name: "Narrow")
        narrow.setProperties([NSAttributeDescription(name: "title", type: .stringAttributeType),
                              NSAttributeDescription(name: "unused", type: .stringAttributeType)])
        let model = NSManagedObjectModel(entities: [narrow, wide])
        let path = directory.appendingPathComponent("Wide.sqlite").path
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        _ = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, at: URL(fileURLWithPath: path), options: nil)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            for index in 0..<30 {
                let object = NSManagedObject(entity: wide, insertInto: context)
                object.setValue("first \(index)", forKey: "a00")
                if index % 3 == 0 { object.setValue("fifth", forKey: "a05") }
                if index == 29 { object.setValue("only the last", forKey: "a10") }
                NSManagedObject(entity: narrow, insertInto: context).setValue("n\(index)", forKey: "title")
            }
            try context.save()
        }
        return path
    }

    @Test("Its table opens on the columns that hold a value, with a note; :columns alone shows them all")
    func emptyColumnsHidden() throws {
        let directory = try TemporaryDirectoryForLabels.make()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try Self.makeStore(in: directory)
        let session = try BrowserSession(options: BrowserOptions(storePath: path, entityName: "Narrow"))
        var app = try StoreBrowserApp(session: session, editor: BasicLineEditor(), theme: .monochrome)
        let terminal = VirtualTerminal(size: Size(columns: 160, rows: 30), showsColor: false)
        session.waitForBackgroundWork()
        terminal.enqueue(inputs: [.timeout])
        try TerminalUI.run(app: &app, terminal: terminal)
        // A narrow entity keeps its empty column.
        #expect(app.table.columns.map(\.key) == ["title", "unused"])
        terminal.type(":entity Wide\n")
        try TerminalUI.run(app: &app, terminal: terminal)
        #expect(app.table.columns.map(\.key) == ["a00", "a05", "a10"])
        #expect(app.message == "hid 17 empty columns of Wide: :columns shows every column")
        terminal.type(":columns\n")
        try TerminalUI.run(app: &app, terminal: terminal)
        #expect(app.table.columns.count == 20)
    }
}
