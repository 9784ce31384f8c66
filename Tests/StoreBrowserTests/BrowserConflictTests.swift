import CoreDataObjectGraph
import CoreDataTestSupport
import Foundation
import Predicates
import StoreAccess
import StoreBrowser
import Testing
import TerminalUI

/// Issue 21, item 4: a write refused because another process changed the rows opens the conflict pane (mine /
/// theirs / read per field, by label), and each way out leaves a store the next write agrees with. The other
/// process is a second coordinator on the same file, saving through the library as another program would.
@Suite("Write conflicts")
struct BrowserConflictTests {
    /// The browser's edit of chef 1, accepted but not written: a new name and e-mail.
    static func editChef(_ browser: BrowserHarness) throws {
        try browser.press(.enter)
        try browser.selectField("name")
        try browser.editSelectedField(to: "Mine Name")
        try browser.selectField("email")
        try browser.editSelectedField(to: "mine@example.com")
        try browser.press(.character("a"))
        #expect(browser.statusLine.contains("1 pending"))
    }

    /// Another coordinator renames chef 1 and changes its recipe count, and saves.
    static func otherProcessChangesChef(_ path: String) throws {
        let other = try StoreSession(storePath: path, modelPath: nil, readOnly: false)
        try other.context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Chef")
            request.predicate = Predicates.NSPredicate(format: "name == %@", argumentArray: ["Dario García"])
            let chef = try #require(try other.context.fetch(request).first)
            chef.setValue("Their Name", forKey: "name")
            chef.setValue(77, forKey: "recipeCount")
            try other.context.save()
        }
    }

    /// Opens the pane: `:w`, `y`, refused by the conflict.
    static func writeIntoConflict(_ browser: BrowserHarness) throws -> String {
        try browser.type(":w\n")
        try browser.press(.character("y"))
        let text = browser.text
        #expect(text.contains("Write conflict: mine / theirs / read"), "\(text)")
        #expect(text.contains("Chef Mine Name"))
        #expect(text.range(of: #"name\s+mine: "Mine Name"   theirs: "Their Name"   read: "Dario García"   → keep mine"#,
                           options: .regularExpression) != nil, "\(text)")
        #expect(text.range(of: #"email\s+mine: "mine@example.com"   theirs: "dario.garcia@example.com"   read: "dario.garcia@example.com"   → keep mine"#,
                           options: .regularExpression) != nil)
        #expect(text.range(of: #"recipeCount\s+mine: \d+   theirs: 77   read: \d+   → take theirs"#, options: .regularExpression) != nil)
        #expect(!text.contains("x-coredata:") && !text.contains("Chef p1"))
        #expect(browser.messageLine.contains("conflict: another process changed 1 object"))
        return text
    }

    static func chef(_ path: String) throws -> (name: String?, email: String?, count: Int) {
        (try StoreFile.text(path, "SELECT ZNAME FROM ZCHEF WHERE Z_PK = 1"),
         try StoreFile.text(path, "SELECT ZEMAIL FROM ZCHEF WHERE Z_PK = 1"),
         try StoreFile.integer(path, "SELECT ZRECIPECOUNT FROM ZCHEF WHERE Z_PK = 1"))
    }

    @Test("Per field: take theirs for the name, keep mine for the e-mail; their other change stays; the write goes through")
    func perField() throws {
        let browser = try BrowserHarness(edit: true, size: Size(columns: 160, rows: 30))
        try Self.editChef(browser)
        try Self.otherProcessChangesChef(browser.storePath)
        let text = try Self.writeIntoConflict(browser)
        // The fields in key order: email, name, recipeCount; j to the name, t takes theirs.
        try browser.press(.character("j"), .character("t"))
        #expect(browser.text.contains(#"theirs: "Their Name"   read: "Dario García"   → take theirs"#))
        // m on a field only they changed is refused with the reason.
        try browser.press(.character("j"), .character("m"))
        #expect(browser.messageLine.contains("only the other process changed that field"))
        try browser.press(.character("w"))
        #expect(browser.messageLine.contains("written to Recipes.sqlite after resolving the conflict"), "\(browser.messageLine)")
        let stored = try Self.chef(browser.storePath)
        #expect(stored.name == "Their Name")
        #expect(stored.email == "mine@example.com")
        #expect(stored.count == 77)
        #expect(browser.session.pendingChangeCount == 0)
    }

    @Test("M keeps mine everywhere (object trump: their other change stays); T takes theirs and leaves nothing to write")
    func allMineOrAllTheirs() throws {
        let mine = try BrowserHarness(edit: true, size: Size(columns: 160, rows: 30))
        try Self.editChef(mine)
        try Self.otherProcessChangesChef(mine.storePath)
        _ = try Self.writeIntoConflict(mine)
        try mine.press(.character("M"), .character("w"))
        #expect(mine.messageLine.contains("after resolving the conflict"), "\(mine.messageLine)")
        let kept = try Self.chef(mine.storePath)
        #expect(kept.name == "Mine Name")
        #expect(kept.email == "mine@example.com")
        #expect(kept.count == 77)

        let theirs = try BrowserHarness(edit: true, size: Size(columns: 160, rows: 30))
        try Self.editChef(theirs)
        try Self.otherProcessChangesChef(theirs.storePath)
        _ = try Self.writeIntoConflict(theirs)
        try theirs.press(.character("T"), .character("w"))
        #expect(theirs.messageLine.contains("took theirs: nothing left to write"), "\(theirs.messageLine)")
        #expect(theirs.session.pendingChangeCount == 0)
        let taken = try Self.chef(theirs.storePath)
        #expect(taken.name == "Their Name")
        #expect(taken.email == "dario.garcia@example.com")
        // The table shows the store's values again.
        #expect(theirs.tableLines.first?.contains("Their Name") == true, "\(theirs.tableLines)")
    }

    @Test("Esc leaves the changes pending; a later :w meets the conflict again rather than failing the same way")
    func escapeLeavesPending() throws {
        let browser = try BrowserHarness(edit: true, size: Size(columns: 160, rows: 30))
        try Self.editChef(browser)
        try Self.otherProcessChangesChef(browser.storePath)
        _ = try Self.writeIntoConflict(browser)
        try browser.press(.escape)
        #expect(browser.messageLine.contains("nothing written: the changes are still pending"))
        #expect(browser.statusLine.contains("1 pending"))
        _ = try Self.writeIntoConflict(browser)
        try browser.press(.character("M"), .enter)
        #expect(try Self.chef(browser.storePath).name == "Mine Name")
    }
}
