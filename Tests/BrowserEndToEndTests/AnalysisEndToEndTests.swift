import CoreDataTestSupport
import Foundation
import Testing

/// Issue 6, item 9: `F`, the frequency of the current column over the whole entity with the filter applied, with
/// Enter drilling into a value; `D`, the describe view.
@Suite(.enabled(if: BrowserPane.isAvailable, BrowserPane.skipMessage))
struct AnalysisEndToEndTests {
    @Test func frequencyDrillsIntoAValueAndDescribeSummarises() throws {
        let pane = try BrowserPane()
        let store = try pane.copySample("Recipes")
        try pane.launch([store, "--entity", "Cuisine"])
        try pane.waitFor("Recipes.sqlite › Cuisine │ row 1 of 20")
        try pane.press("l", "F")
        var screen = try pane.waitFor("Frequency of region:")
        #expect(screen.contains { $0.contains(try! Regex("Frequency of region: [0-9]+ values, 20 objects")) }, "\(screen)")
        // The second value: its count, then Enter filters the table on it.
        try pane.press("j")
        screen = try pane.waitFor("Frequency of region:")
        let lines = screen.compactMap { $0.firstMatch(of: /│([0-9]+) +[0-9.]+%  ■+ +(\S[^│]*?) *│/) }
        #expect(lines.count >= 2, "\(screen)")
        let (count, value) = (String(lines[1].1), String(lines[1].2))
        try pane.press("Enter")
        screen = try pane.waitFor("/ region == \"\(value)\" │ row 1 of \(count) │")
        #expect(pane.tableLines(screen).dropFirst().filter { !$0.isEmpty }.count == Int(count))

        // Frequency under that filter: only the filtered objects.
        try pane.press("l", "F")
        screen = try pane.waitFor("Frequency of region: 1 values, \(count) objects")
        try pane.press("Escape")
        try pane.waitUntil("the overlay closed") { !$0.contains { $0.contains("Frequency of") } }

        try pane.press("D")
        screen = try pane.waitFor("Describe Cuisine")
        #expect(screen.contains { $0.contains("attribute") && $0.contains("nil") && $0.contains("distinct") && $0.contains("min … max") })
        #expect(screen.contains { $0.contains(try! Regex("region +String +\(count) +0 +1 +\(value) … \(value)")) }, "\(screen)")
        try pane.press("Escape", "q")
        #expect(try pane.exitStatus() == 0)
    }
}
