import CoreDataTestSupport
import Foundation
import Testing

/// Issue 22, item 4: the progress bar of large `set` and `delete` on a terminal's standard error, and its silence
/// with `--quiet`, off a terminal and for small changes.
@Suite("Progress bars of set and delete", .enabled(if: FileManager.default.fileExists(atPath: "/dev/ptmx"), "no pseudo-terminals here (/dev/ptmx)"))
struct ProgressBarCommandTests {
    /// A copy of the Earthquakes sample: 2,000 quakes, enough for a bar (1,000 objects or more).
    static func earthquakes() throws -> String {
        try DiffCommandTests.copy(Fixtures.projectRoot.appendingPathComponent("SampleStores/Earthquakes/Earthquakes.sqlite").path)
    }

    /// The percentages a bar drew, in order, checking that each update redraws the line in place.
    static func percentages(_ terminal: String, label: String) -> [Int] {
        let updates = terminal.split(separator: "\r", omittingEmptySubsequences: true)
        return updates.compactMap { update -> Int? in
            guard update.hasPrefix("\(label) [") else { return nil }
            let text = update.split(separator: " ").last?.trimmingCharacters(in: CharacterSet(charactersIn: "%\n")) ?? ""
            return Int(text)
        }
    }

    @Test("set on 2,000 objects draws a bar on a terminal that reaches 100% after the save, then ends its line")
    func setShowsProgress() throws {
        let store = try Self.earthquakes()
        let result = try CommandRunner.runWithTerminalStandardError(["set", store, "Quake", "depth >= 0", "depth=1.5", "--yes"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.hasSuffix("changed 2000 objects\n"), "\(result.standardOutput.suffix(200))")
        let shown = Self.percentages(result.standardError, label: "changing Quake")
        #expect(shown.first == 0 && shown.last == 100 && shown == shown.sorted() && shown.count > 10, "\(shown)")
        // Until the save is done the bar stays below 100%.
        #expect(shown.dropLast().allSatisfy { $0 < 100 })
        #expect(result.standardError.hasSuffix("100%\n"), "\(result.standardError.suffix(80).debugDescription)")
        let count = try CommandRunner.run(["count", store, "Quake", "depth == 1.5"])
        #expect(count.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) == "2000", "\(count.standardOutput)")
    }

    @Test("delete on 2,000 objects draws a bar on a terminal")
    func deleteShowsProgress() throws {
        let store = try Self.earthquakes()
        let result = try CommandRunner.runWithTerminalStandardError(["delete", store, "Quake", "TRUEPREDICATE", "--yes"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("deleted 2000 objects (2000 matched"), "\(result.standardOutput.suffix(200))")
        let shown = Self.percentages(result.standardError, label: "deleting Quake")
        #expect(shown.first == 0 && shown.last == 100 && shown == shown.sorted() && shown.count > 10, "\(shown)")
        #expect(result.standardError.hasSuffix("100%\n"), "\(result.standardError.suffix(80).debugDescription)")
    }

    @Test("migrate draws its bar on a terminal, to 100%, and none with --quiet", .enabled(if: Fixtures.isAvailable, "\(Fixtures.absenceMessage)"))
    func migrateShowsProgress() throws {
        let folder = "stores/coredataplus-inheritance-constraints"
        for quiet in [false, true] {
            let store = try Fixtures.copy("\(folder)/SampleModel_V1.sqlite")
            let model = try Fixtures.copy("\(folder)/SampleModel.xcdatamodeld")
            let result = try CommandRunner.runWithTerminalStandardError(
                ["migrate", store.path, "--model", model.path, "--to", "SampleModel3", "--no-backup"] + (quiet ? ["--quiet"] : []))
            #expect(result.status == 0 && result.standardOutput.contains("migrated to SampleModel3"), "\(result.standardError)")
            if quiet {
                #expect(result.standardError.isEmpty, "\(result.standardError.debugDescription)")
            } else {
                let shown = Self.percentages(result.standardError, label: "migrating")
                #expect(shown.last == 100 && shown == shown.sorted(), "\(shown) \(result.standardError.debugDescription)")
                #expect(result.standardError.hasSuffix("100%\n"), "\(result.standardError.suffix(80).debugDescription)")
            }
        }
    }

    @Test("no bar with --quiet, off a terminal, or for fewer than 1,000 objects")
    func silentCases() throws {
        let quiet = try CommandRunner.runWithTerminalStandardError(["set", try Self.earthquakes(), "Quake", "depth >= 0", "depth=2", "--yes", "--quiet"])
        #expect(quiet.status == 0 && quiet.standardError.isEmpty, "\(quiet.standardError.debugDescription)")
        #expect(quiet.standardOutput.hasSuffix("changed 2000 objects\n"))
        let piped = try CommandRunner.run(["delete", try Self.earthquakes(), "Quake", "TRUEPREDICATE", "--yes"])
        #expect(piped.status == 0 && piped.standardError.isEmpty, "\(piped.standardError.debugDescription)")
        let small = try CommandRunner.runWithTerminalStandardError(["set", try Self.earthquakes(), "Quake", "magnitude >= 5", "depth=3", "--yes"])
        #expect(small.status == 0 && small.standardError.isEmpty, "\(small.standardError.debugDescription)")
        #expect(small.standardOutput.contains("changed ") && !small.standardOutput.hasSuffix("changed 0 objects\n"), "\(small.standardOutput.suffix(100))")
    }
}
