import CoreDataTestSupport
import Foundation
import Testing

/// Issue 22, item 4: shell completion scripts, completion of entities and key paths from the store on the command
/// line, and `--quiet`.
@Suite("Command-line conveniences")
struct ConveniencesCommandTests {
    static let store = Fixtures.projectRoot.appendingPathComponent("SampleStores/Recipes/Recipes.sqlite").path

    @Test("completion scripts for bash, zsh and fish name the subcommands and call back for entities")
    func completionScripts() throws {
        for shell in ["bash", "zsh", "fish"] {
            let result = try CommandRunner.run(["--generate-completion-script", shell])
            #expect(result.status == 0, "\(shell): \(result.standardError)")
            for word in ["query", "aggregate", "diff", "---completion query -- positional@1"] where !(shell == "fish" && word.hasPrefix("---")) {
                #expect(result.standardOutput.contains(word), "\(shell) script lacks \(word)")
            }
        }
    }

    @Test("entity names come from the store named before them")
    func entityCompletion() throws {
        let result = try CommandRunner.run(["---completion", "query", "--", "positional@1", "3", "1", "coredata", "query", Self.store, "C"])
        #expect(result.standardOutput.split(separator: "\n") == ["Chef", "Cuisine"], "\(result.standardOutput)\(result.standardError)")
        let none = try CommandRunner.run(["---completion", "query", "--", "positional@1", "3", "0", "coredata", "query", "/nonexistent.sqlite", ""])
        #expect(none.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty && none.status == 0, "\(none.standardOutput)")
    }

    @Test("key paths complete after commas, signs and through relationships")
    func keyPathCompletion() throws {
        let keys = try CommandRunner.run(["---completion", "query", "--", "--keys", "5", "14", "coredata", "query", Self.store, "Recipe",
                                          "--keys", "name,chef.na"])
        #expect(keys.standardOutput.split(separator: "\n") == ["name,chef.name"], "\(keys.standardOutput)\(keys.standardError)")
        let sort = try CommandRunner.run(["---completion", "query", "--", "--sort", "5", "3", "coredata", "query", Self.store, "Recipe",
                                          "--sort", "-cu"])
        #expect(sort.standardOutput.split(separator: "\n") == ["-cuisine."], "\(sort.standardOutput)\(sort.standardError)")
    }

    @Test("--quiet silences notes on standard error, not the results")
    func quiet() throws {
        // Opening a store whose save was interrupted rolls it back and says so; --quiet leaves the note out.
        let loud = try CommandRunner.run(["count", try InterruptedSaveCommandTests.interruptedCopy(), "Book"])
        #expect(loud.standardError.contains("recovered an interrupted save"))
        let quiet = try CommandRunner.run(["count", try InterruptedSaveCommandTests.interruptedCopy(), "Book", "--quiet"])
        #expect(quiet.status == 0 && quiet.standardOutput == loud.standardOutput && quiet.standardError.isEmpty, "\(quiet.standardError)")
    }
}
