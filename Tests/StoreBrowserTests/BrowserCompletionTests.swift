import StoreBrowser
import Testing
import TerminalUI

/// Issue 21, item 6: Tab completion in the filter prompt follows where the cursor is in the predicate.
@Suite("Filter completion in context")
struct BrowserCompletionTests {
    @Test("A to-one completes to chef. with no space, so the key path goes on")
    func toOneGoesOnWithoutSpace() throws {
        let browser = try BrowserHarness(entity: "Recipe")
        try browser.type("/che")
        try browser.press(.tab)
        #expect(browser.editor.text == "chef.")
        try browser.type("na")
        try browser.press(.tab)
        #expect(browser.editor.text == "chef.name ")
    }

    @Test("After a key path and a space, Tab lists the operators that may follow it, not key paths")
    func operatorsAfterAKeyPath() throws {
        let browser = try BrowserHarness(entity: "Recipe")
        try browser.type("/minutes ")
        try browser.press(.tab)
        let candidates = browser.editor.completionCandidates
        #expect(candidates.contains("<") && candidates.contains(">=") && candidates.contains("BETWEEN"), "\(candidates)")
        #expect(!candidates.contains("name") && !candidates.contains("chef"), "\(candidates)")
        // A number takes no string operator.
        #expect(!candidates.contains("BEGINSWITH"), "\(candidates)")
        try browser.press(.escape)
        try browser.type("/chef.name BEG")
        try browser.press(.tab)
        #expect(browser.editor.text == "chef.name BEGINSWITH ")
    }

    @Test("Nothing is completed inside a quoted string")
    func nothingInsideQuotes() throws {
        let browser = try BrowserHarness(entity: "Recipe")
        try browser.type("/name == 'che")
        try browser.press(.tab)
        #expect(browser.editor.text == "name == 'che")
        #expect(browser.editor.completionCandidates.isEmpty)
        try browser.press(.escape)
        try browser.type(#"/name == "it\"s che"#)
        try browser.press(.tab)
        #expect(browser.editor.text == #"name == "it\"s che"#)
        // After the string closes, completion works again.
        try browser.press(.escape)
        try browser.type("/name == 'x' AND che")
        try browser.press(.tab)
        #expect(browser.editor.text == "name == 'x' AND chef.")
    }
}
