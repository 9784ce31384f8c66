import CoreDataObjectGraph
import CoreDataSQLiteFormat
import CoreDataTestSupport
import Foundation
import Predicates
import SQLiteDatabase
import StoreAccess
import StoreBrowser
import Synchronization
import Testing
import TerminalUI

/// Issue 21, item 3: long work never blocks the screen. The store is made deliberately slow: the collation every
/// text sort compares with waits at a gate the test holds closed, so a sort (or `G` on a sorted table) cannot end
/// until the test says so. Meanwhile every key must be answered with a frame, and Esc must stop the statement.
@Suite("Long work off the event loop")
struct BrowserLongWorkTests {
    /// Closed, every text comparison of the store waits here (up to a generous deadline, so that a browser that
    /// blocks fails the test instead of hanging it); it counts the comparisons made after it opened.
    final class Gate: Sendable {
        private let isOpen = Atomic<Bool>(false)
        private let comparisonsAfterOpening = Atomic<Int>(0)
        /// One deadline for the whole gate, not per comparison (a sort compares hundreds of times).
        private let deadline = ContinuousClock.now + .seconds(60)

        func open() { isOpen.store(true, ordering: .releasing) }
        func close() {
            isOpen.store(false, ordering: .releasing)
            comparisonsAfterOpening.store(0, ordering: .releasing)
        }
        var comparisonsSinceOpened: Int { comparisonsAfterOpening.load(ordering: .acquiring) }

        /// Whether a comparison stopped waiting because the deadline ran out: only a browser that blocked on the
        /// store can draw a frame after that, so the tests assert it did not happen instead of timing the frames.
        var expired: Bool { expiredFlag.load(ordering: .acquiring) }
        private let expiredFlag = Atomic<Bool>(false)

        func pass() {
            while !isOpen.load(ordering: .acquiring) {
                if ContinuousClock.now >= deadline {
                    expiredFlag.store(true, ordering: .releasing)
                    break
                }
                usleep(1_000)
            }
            comparisonsAfterOpening.add(1, ordering: .relaxed)
        }
    }

    /// Replaces the store connection's text collation with one that waits at `gate` before each comparison.
    static func slowDown(_ browser: BrowserHarness, gate: Gate) throws {
        let store = try #require(browser.session.store.coordinator.persistentStores.first as? NSSQLiteStore)
        try store.withConnection { connection in
            try connection.createCollation(name: PredicateSQLFunctions.collationName(for: .compare)) { left, right in
                gate.pass()
                return left == right ? .orderedSame : (left < right ? .orderedAscending : .orderedDescending)
            }
        }
    }

    /// Presses `key` and returns how long the browser took to draw the frame answering it. Each press runs the event
    /// loop afresh, which draws once on entry, then once for the key.
    static func answer(_ browser: BrowserHarness, _ key: Key) throws -> Duration {
        let frames = browser.terminal.drawCount
        let start = ContinuousClock.now
        try browser.press(key)
        let elapsed = ContinuousClock.now - start
        #expect(browser.terminal.drawCount == frames + 2, "a frame for \(key)")
        return elapsed
    }

    @Test("While a sort runs, keys move over the rows shown, ? opens the help, a tick redraws the spinner, and Esc interrupts the sort")
    func sortKeepsTheScreenAnswering() throws {
        let browser = try BrowserHarness(entity: "Recipe", batchSize: 20)
        try browser.selectColumn("name")
        let unsorted = browser.tableLines
        let gate = Gate()
        try Self.slowDown(browser, gate: gate)
        browser.waitsForJobs = false
        defer { gate.open() }

        var latencies: [Duration] = []
        latencies.append(try Self.answer(browser, .character("[")))
        #expect(browser.app.jobs.isBusy)
        #expect(browser.messageLine.contains("sorting Recipe by name…"), "\(browser.messageLine)")
        #expect(browser.messageLine.contains("Esc cancels"))
        // The old rows stay up and j moves over them.
        #expect(browser.tableLines == unsorted)
        latencies.append(try Self.answer(browser, .character("j")))
        #expect(browser.statusLine.contains("row 2 of 200"), "\(browser.statusLine)")
        // A move past the loaded batch waits for the sort, and says so.
        latencies.append(try Self.answer(browser, .pageDown))
        #expect(browser.messageLine.contains("those rows are not loaded yet"), "\(browser.messageLine)")
        // A command that needs the store is refused with the reason, not queued or dropped silently.
        latencies.append(try Self.answer(browser, .character("/")))
        #expect(browser.messageLine.contains("busy sorting Recipe by name: wait, or Esc cancels"), "\(browser.messageLine)")
        latencies.append(try Self.answer(browser, .character("?")))
        #expect(browser.text.contains("Keys  (Esc closes)"))
        latencies.append(try Self.answer(browser, .escape))
        #expect(!browser.text.contains("Keys  (Esc closes)"))
        #expect(browser.app.jobs.isBusy, "closing the help does not cancel the sort")
        // Ticks redraw the spinner while nothing is pressed.
        let frames = browser.terminal.drawCount
        browser.terminal.enqueue(inputs: [.timeout, .timeout])
        try browser.press()
        #expect(browser.terminal.drawCount == frames + 3)
        #expect(browser.messageLine.contains("sorting Recipe by name…"))

        // Esc interrupts the statement: once the gate opens, the sort stops within a row instead of comparing on.
        latencies.append(try Self.answer(browser, .escape))
        #expect(browser.messageLine.contains("cancelling sorting Recipe by name"), "\(browser.messageLine)")
        gate.open()
        try browser.finishJobs()
        #expect(gate.comparisonsSinceOpened < 100, "the sort went on after Esc: \(gate.comparisonsSinceOpened) comparisons")
        #expect(browser.messageLine.contains("cancelled sorting Recipe by name"), "\(browser.messageLine)")
        #expect(browser.app.table.query.sortKeys.isEmpty)
        #expect(!browser.app.jobs.isBusy)

        // Nothing blocked: every key drew its frame while the sort was held at the closed gate (a blocked loop could
        // only draw once the gate's deadline ran out). The latencies are printed for the record, not asserted.
        #expect(!gate.expired, "a key waited for the store")
        let slowest = try #require(latencies.max())
        print("BrowserLongWorkTests: slowest key-to-frame while sorting: \(slowest)")
    }

    @Test("A sort that is left to finish replaces the table; G on it runs off the loop too and Esc cancels it")
    func sortFinishesAndGCancels() throws {
        let browser = try BrowserHarness(entity: "Recipe", batchSize: 20)
        try browser.selectColumn("name")
        let gate = Gate()
        try Self.slowDown(browser, gate: gate)
        browser.waitsForJobs = false
        defer { gate.open() }

        try browser.press(.character("["))
        #expect(browser.app.jobs.isBusy)
        gate.open()
        try browser.finishJobs()
        #expect(browser.app.table.query.sortKeys.map(\.key) == ["name"])
        let names = try StoreFile.rows(browser.storePath, "SELECT ZNAME FROM ZRECIPE").compactMap { $0[0].stringValue }
        let first = try #require(names.min())
        #expect(browser.tableLines.first?.contains(first) == true, "\(browser.tableLines.first ?? "")")

        gate.close()
        try browser.press(.character("G"))
        #expect(browser.app.jobs.isBusy)
        #expect(browser.messageLine.contains("jumping to the last row…"), "\(browser.messageLine)")
        try browser.press(.character("j"))
        #expect(browser.statusLine.contains("row 2 of 200"), "\(browser.statusLine)")
        try browser.press(.control("c"))
        gate.open()
        try browser.finishJobs()
        #expect(browser.messageLine.contains("cancelled jumping to the last row"), "\(browser.messageLine)")
        #expect(browser.statusLine.contains("row 2 of 200"), "\(browser.statusLine)")

        // Left alone, G gets there.
        browser.waitsForJobs = true
        try browser.press(.character("G"))
        #expect(browser.statusLine.contains("row 200 of 200"), "\(browser.statusLine)")
    }

    @Test("An export's batches are read off the loop too: keys work while a step waits on the store, and Esc cancels it")
    func exportStepsRunOffTheLoop() throws {
        let browser = try BrowserHarness(entity: "Recipe", batchSize: 20)
        try browser.selectColumn("name")
        let gate = Gate()
        gate.open()
        try Self.slowDown(browser, gate: gate)
        defer { gate.open() }
        try browser.press(.character("["))
        #expect(browser.app.table.query.sortKeys.map(\.key) == ["name"])

        gate.close()
        browser.waitsForJobs = false
        let path = browser.directory.appendingPathComponent("recipes.csv").path
        try browser.type(":export csv \(path)\n")
        browser.terminal.enqueue(inputs: [.timeout])
        try browser.press()
        #expect(browser.app.jobs.isBusy)
        #expect(browser.messageLine.contains("exporting 0 of 200 objects to \(path)…"), "\(browser.messageLine)")
        try browser.press(.character("j"))
        #expect(browser.statusLine.contains("row 2 of 200"), "\(browser.statusLine)")
        try browser.press(.escape)
        gate.open()
        try browser.finishJobs()
        #expect(browser.messageLine.contains("export cancelled; nothing written to \(path)"), "\(browser.messageLine)")
        #expect(!FileManager.default.fileExists(atPath: path + ".partial"))
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("q with unsaved changes while a sort runs: the question shows, but w (write and quit) waits for the sort")
    func writingWaitsForTheStore() throws {
        let browser = try BrowserHarness(entity: "Recipe", edit: true, batchSize: 20)
        try browser.press(.enter)
        try browser.selectField("minutes")
        try browser.editSelectedField(to: "7")
        try browser.press(.character("a"))
        #expect(browser.statusLine.contains("1 pending"))
        try browser.selectColumn("name")
        let gate = Gate()
        try Self.slowDown(browser, gate: gate)
        browser.waitsForJobs = false
        defer { gate.open() }

        try browser.press(.character("["))
        #expect(browser.app.jobs.isBusy)
        try browser.press(.character("q"))
        #expect(browser.text.contains("Unsaved changes"))
        try browser.press(.character("w"))
        #expect(browser.messageLine.contains("busy sorting Recipe by name"), "\(browser.messageLine)")
        #expect(browser.text.contains("Unsaved changes"))
        try browser.press(.escape)
        #expect(!browser.text.contains("Unsaved changes"))
        gate.open()
        try browser.finishJobs()
        #expect(browser.statusLine.contains("1 pending"))
        #expect(browser.app.table.query.sortKeys.map(\.key) == ["name"])
    }
}
