import CoreDataTestSupport
import Foundation
import Testing

/// Issue 5, item 8: on a terminal, `coredata set` and `coredata delete` ask before changing more than one object;
/// anything but y changes nothing, y changes them and prints what changed. (Without a terminal they refuse unless
/// `--yes` is given: `EditCommandTests.severalObjectsNeedConfirmation`.)
@Suite(.enabled(if: BrowserPane.isAvailable, BrowserPane.skipMessage))
struct EditCommandConfirmationEndToEndTests {
    private func labels(_ store: String) throws -> [String] {
        let result = try CommandRunner.run(["query", store, "Tag", "--sort", "label", "--keys", "label", "--format", "csv"])
        #expect(result.status == 0, "\(result.standardError)")
        return BrowserPane.csvRows(result.standardOutput)
    }

    @Test func setAndDeleteAskOnATerminal() throws {
        let pane = try BrowserPane()
        let store = try pane.copySample("Recipes")
        let before = try labels(store)
        let matching = before.filter { $0.hasPrefix("w") }
        try #require(matching.count > 1, "the sample has several tags beginning with w: \(before)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: store))

        // n: nothing changes.
        try pane.launch(["set", store, "Tag", "label BEGINSWITH \"w\"", "label=W"])
        try pane.waitFor("change \(matching.count) objects? [y/N]")
        try pane.tmux.sendLine("n")
        try pane.waitFor("coredata: error: nothing changed")
        #expect(try pane.exitStatus() == 1)
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == bytes, "the file is byte-identical")

        // y: each object is changed and reported.
        try pane.launch(["set", store, "Tag", "label BEGINSWITH \"w\"", "label=W"])
        try pane.waitFor("change \(matching.count) objects? [y/N]")
        try pane.tmux.sendLine("y")
        let screen = try pane.waitFor("changed \(matching.count) objects")
        for label in matching { #expect(screen.contains { $0.hasSuffix("  label: \(label) → W") }, "\(screen)") }
        #expect(try pane.exitStatus() == 0)
        #expect(try labels(store).filter { $0 == "W" }.count == matching.count)

        // delete asks too; y deletes and lists the objects.
        try pane.launch(["delete", store, "Tag", "label == \"W\""])
        try pane.waitFor("delete \(matching.count) objects? [y/N]")
        try pane.tmux.sendLine("y")
        try pane.waitFor("deleted \(matching.count) objects")
        #expect(try pane.exitStatus() == 0)
        #expect(try labels(store) == before.filter { !$0.hasPrefix("w") })
    }
}
