import CoreDataTestSupport
import Foundation
import Testing

/// Issue 21: the second pass's flows in a real terminal (tmux, readline, curses): relationships read as names,
/// `:label`, `:columns`, `c` and `-`, Tab completion of a to-one (`chef.` with no space) and the help scrolled to its
/// end, on the Recipes sample, labels remembered in the state directory for the next run.
@Suite(.enabled(if: BrowserPane.isAvailable, BrowserPane.skipMessage))
struct SecondPassEndToEndTests {
    @Test func labelsColumnsCompletionAndHelp() throws {
        let pane = try BrowserPane(columns: 140, rows: 30)
        let store = try pane.copySample("Recipes")
        try pane.launch([store, "--entity", "Recipe"])
        try pane.waitFor("Recipes.sqlite › Recipe │ row 1 of 200")

        // Key-path columns: the chef's name beside the recipe's, and the ingredient count.
        try pane.type(":columns name,chef.name,ingredients.@count")
        try pane.press("Enter")
        var screen = try pane.waitFor("columns: name, chef.name, ingredients.@count")
        #expect(pane.tableLines(screen).first?.contains("chef.name") == true, "\(screen)")
        #expect(!screen.contains { $0.contains("Chef p") }, "\(screen)")

        // c adds a key path (Tab completes the to-one without a space), - hides it again.
        try pane.press("c")
        try pane.type("cuisine.na")
        try pane.press("Tab")
        try pane.waitFor("column: cuisine.name")
        try pane.press("Enter")
        try pane.waitFor("added the column cuisine.name")
        try pane.press("-")
        try pane.waitFor("hid cuisine.name")

        // The filter prompt completes a to-one to chef. and goes on into its keys.
        try pane.type("/che")
        try pane.press("Tab")
        // (A space after chef. would make the filter below a syntax error.)
        try pane.waitFor("/chef.")
        try pane.type("name BEGINSWITH 'A'")
        try pane.press("Enter")
        try pane.waitFor("/ chef.name BEGINSWITH \"A\"")

        // :label names chefs by email in the chef column of the table.
        try pane.type(":columns")
        try pane.press("Enter")
        try pane.type(":label Chef email")
        try pane.press("Enter")
        try pane.waitFor("Chef objects are labelled by email")
        try pane.type("cchef")
        try pane.press("Enter")
        try pane.waitFor("@example.com")

        // The help scrolls to its last line.
        try pane.press("?")
        try pane.waitFor("Keys  (Esc closes)")
        try pane.press("G")
        try pane.waitFor(":undo  :redo  :refresh  :help")
        try pane.press("Escape")
        try pane.press("q")
        #expect(try pane.exitStatus() == 0)

        // The next run on the same store remembers the label.
        try pane.launch([store, "--entity", "Recipe"])
        try pane.waitFor("Recipes.sqlite › Recipe │ row 1 of 200")
        try pane.type("cchef")
        try pane.press("Enter")
        try pane.waitFor("@example.com")
        try pane.press("q")
        #expect(try pane.exitStatus() == 0)
    }
}

/// Issue 21: long work in the real binary. A sort, `D` and `F` run off the event loop and land; Ctrl-C reaches the
/// browser as a key (curses raw mode), so with nothing running it quits as `q` does, with status 0, instead of
/// killing the process. (Cancelling a long `G` with Esc and Ctrl-C needs a store large enough to be slow: the
/// million-row walk in LargeStoreEndToEndTests, `make test-browser-large`.)
@Suite(.enabled(if: BrowserPane.isAvailable, BrowserPane.skipMessage))
struct LongWorkEndToEndTests {
    @Test func sortDescribeFrequencyAndControlC() throws {
        let pane = try BrowserPane(columns: 140, rows: 30)
        let store = try pane.copySample("Recipes")
        try pane.launch([store, "--entity", "Recipe"])
        try pane.waitFor("Recipes.sqlite › Recipe │ row 1 of 200")
        try pane.type("cname")
        try pane.press("Enter")
        try pane.press("]")
        try pane.waitFor("sort -name")
        try pane.press("D")
        try pane.waitFor("200 objects")
        try pane.press("Escape")
        try pane.press("F")
        try pane.waitFor("Frequency of name")
        try pane.press("Escape")
        try pane.press("C-c")
        #expect(try pane.exitStatus() == 0)
    }
}
