import CoreDataTestSupport
import Foundation
import Testing

/// Issue 6, item 8: another process writes the store while the browser runs; the status line says so, `r`
/// re-fetches keeping the sort and the cursor's object, and `--auto-refresh` re-fetches by itself.
@Suite(.enabled(if: BrowserPane.isAvailable, BrowserPane.skipMessage))
struct RefreshEndToEndTests {
    private func run(_ arguments: [String]) throws {
        let result = try CommandRunner.run(arguments)
        #expect(result.status == 0, "coredata \(arguments.joined(separator: " ")): \(result.standardError)")
    }

    @Test func anotherProcessWritesThenRefetchKeepsSortAndObject() throws {
        let pane = try BrowserPane()
        let store = try pane.copySample("Recipes")
        try pane.launch([store, "--entity", "Cuisine"])
        try pane.waitFor("Recipes.sqlite › Cuisine │ row 1 of 20 │ read-only")
        // Sort by name, descending, and put the cursor on the third row.
        try pane.press("]")
        try pane.waitFor("│ sort -name │")
        try pane.press("j", "j")
        var screen = try pane.waitFor("row 3 of 20")
        let third = try #require(pane.tableLines(screen).dropFirst(3).first?.split(separator: " ").first.map(String.init))

        // Another process: an update through the library, and an insert that sorts first.
        try run(["set", store, "Cuisine", "name == \"\(third)\"", "region=Atlantis", "--yes"])
        try run(["insert", store, "Cuisine", "name=Zzyzx", "region=Mojave"])
        screen = try pane.waitFor("store changed: r")
        #expect(screen.contains { $0.contains("the store changed on disk: r re-fetches") })
        #expect(!screen.contains { $0.contains("Atlantis") }, "nothing applied before r")

        try pane.press("r")
        screen = try pane.waitFor("re-fetched")
        let status = pane.statusLine(screen)
        #expect(status.contains("│ sort -name │ row 4 of 21"), "the same object, one row lower: \(status)")
        #expect(!status.contains("store changed"))
        let rows = pane.tableLines(screen).dropFirst()
        #expect(rows.first?.hasPrefix("Zzyzx") == true, "\(screen)")
        #expect(rows.dropFirst(3).first?.hasPrefix(third) == true && rows.dropFirst(3).first?.contains("Atlantis") == true)

        // Ctrl-L redraws everything.
        try pane.press("C-l")
        try pane.waitFor("│ sort -name │ row 4 of 21")
        try pane.press("q")
        #expect(try pane.exitStatus() == 0)
    }

    @Test func autoRefreshRefetchesWhenSQLiteWritesTheStore() throws {
        let pane = try BrowserPane()
        let store = try pane.copySample("Recipes")
        try pane.launch([store, "--entity", "Tag", "--auto-refresh"])
        try pane.waitFor("Recipes.sqlite › Tag │ row 1 of 16 │ read-only")
        // A raw write by another process (the app under test, say): sqlite3 when installed, else the library.
        let sqlite3 = ["/usr/bin/sqlite3", "/usr/local/bin/sqlite3"].first { FileManager.default.isExecutableFile(atPath: $0) }
        if let sqlite3 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: sqlite3)
            process.arguments = [store, "UPDATE ZTAG SET ZLABEL = 'renamed-by-sqlite3', Z_OPT = Z_OPT + 1 WHERE Z_PK = (SELECT MIN(Z_PK) FROM ZTAG)"]
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
        } else {
            try run(["set", store, "Tag", "TRUEPREDICATE", "label=renamed-by-sqlite3", "--yes"])
        }
        let screen = try pane.waitFor("renamed-by-sqlite3")
        #expect(pane.statusLine(screen).contains("row 1 of 16"))
        try pane.press("q")
        #expect(try pane.exitStatus() == 0)
    }
}
