import CoreDataTestSupport
import Foundation
import SQLiteDatabase
import StoreBrowser
import Testing

/// The browser on a store whose last save was interrupted: it opens, and its message line says what was recovered.
struct BrowserRecoveryTests {
    /// Leaves the store at `path` as a crash in the middle of a large save would: part of the save in the main file,
    /// the pages that undo it in `-journal`.
    static func interruptSave(at path: String) throws {
        let work = try TemporaryDirectory.make().appendingPathComponent("work.sqlite").path
        try FileManager.default.copyItem(atPath: path, toPath: work)
        let writer = try Connection(path: work, mode: .readWrite)
        _ = try writer.setJournalMode(.delete)
        try writer.execute(sql: "PRAGMA cache_size = 5")
        try writer.beginTransaction()
        try writer.execute(sql: """
            CREATE TABLE ZJUNK(x);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000)
            INSERT INTO ZJUNK SELECT randomblob(1000) FROM n;
            """)
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.copyItem(atPath: work, toPath: path)
        try FileManager.default.copyItem(atPath: work + "-journal", toPath: path + "-journal")
        try writer.rollback()
    }

    @Test func theMessageLineSaysAnInterruptedSaveWasRecovered() throws {
        let browser = try BrowserHarness(sample: "Recipes", prepare: Self.interruptSave)
        #expect(browser.app.message?.contains("recovered an interrupted save from Recipes.sqlite-journal") == true,
                "\(browser.app.message ?? "no message")")
        #expect(!FileManager.default.fileExists(atPath: browser.storePath + "-journal"))
        #expect(try Connection(path: browser.storePath, mode: .readOnly).tableExists("ZJUNK") == false)
    }

    /// Apple's Core Data opens a store that records persistent history read-only when history tracking is off;
    /// `--edit` does the same here and says why, instead of refusing to open.
    @Test func editingAStoreThatRecordsHistoryOpensItReadOnlyAndSaysWhy() throws {
        let browser = try BrowserHarness(sample: "Recipes", edit: true) { path in
            try Connection(path: path, mode: .readWrite).execute(
                sql: "CREATE TABLE ATRANSACTION (Z_PK INTEGER PRIMARY KEY); CREATE TABLE ACHANGE (Z_PK INTEGER PRIMARY KEY)")
        }
        #expect(!browser.session.isEditable)
        #expect(browser.app.message?.contains("records persistent history") == true, "\(browser.app.message ?? "no message")")
        #expect(browser.app.message?.contains("opened read-only") == true)
    }
}
