import Foundation
import SQLiteDatabase
import StoreBrowser
import Testing
import TerminalUI

/// Issue 16, item 6: a store without a model cache whose column names hold a quote, a backslash, a space and an
/// escape character. The inferred model takes its names from those columns, and every statement built from them
/// quotes them, so the browser lists the rows instead of failing with an SQL syntax error.
@Suite("Inferred models with unusual column names")
struct BrowserInferredNamesTests {
    /// Renames three of Author's columns (`ZNAME`, `ZBORN`, and a new one) and drops the model cache.
    static let script = """
        DROP TABLE Z_MODELCACHE;
        ALTER TABLE ZAUTHOR RENAME COLUMN ZNAME TO "ZNA""ME";
        ALTER TABLE ZAUTHOR RENAME COLUMN ZBORN TO "ZWITH SPACE\u{1B}[31m";
        ALTER TABLE ZAUTHOR ADD COLUMN "ZA\\B'C" VARCHAR;
        UPDATE ZAUTHOR SET "ZA\\B'C" = 'odd value' WHERE Z_PK = 1;
        """

    @Test("The table of an entity whose columns need quoting lists its rows")
    func tableListsRows() throws {
        let browser = try BrowserHarness(sample: "Library", entity: "Author", size: Size(columns: 160, rows: 30)) { path in
            try StoreFile.write(path, Self.script)
        }
        let text = browser.text
        #expect(text.contains("na\"me"))
        #expect(text.contains("odd value"))
        #expect(text.contains("with space␛[31m"))
        // The first author's name, read from the renamed column.
        let connection = try Connection(path: browser.storePath, mode: .readOnly, busyTimeout: .seconds(5))
        let name = try #require(try connection.query("SELECT \"ZNA\"\"ME\" FROM ZAUTHOR ORDER BY Z_PK LIMIT 1").first?[0].stringValue)
        #expect(text.contains(name))
        #expect(!text.contains("syntax error") && !text.contains("unrecognized token"))
    }
}
