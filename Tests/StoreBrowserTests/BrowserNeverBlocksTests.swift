import CoreDataObjectGraph
import Foundation
import SQLiteDatabase
import StoreAccess
import StoreBrowser
import Synchronization
import Testing
import TerminalUI

/// Issue 21: "nothing the user does blocks input for more than 100 ms, measured from key to next drawn frame under
/// the virtual terminal with a slow store", checked without a clock. The store is held: every statement on the
/// browser's connection and on its counter's connection stops at a gate (a progress handler) for as long as the test
/// keeps it closed. A key answered with its frame while a statement is still held there did not wait for the store
/// at all, however slow the store is; a key that waited for the store would be answered only after the held
/// statements gave up at the gate's hang guard, which the gate records (`expired`), so the test fails instead of
/// hanging. Unlike the collation gate of `BrowserLongWorkTests`, this holds every kind of statement: sorts that
/// walk an index (no collation), counts, `F`'s grouping, `D`'s scan on the counter's connection, filters.
@Suite("Never blocks: keys answered while the store is held")
struct BrowserNeverBlocksTests {
    final class StoreGate: Sendable {
        private let isOpen = Atomic<Bool>(true)
        private let held = Atomic<Int>(0)
        private let expiredFlag = Atomic<Bool>(false)
        /// A hang guard for the whole test, not a measurement: nothing is asserted about time.
        private let deadline = ContinuousClock.now + .seconds(60)

        func open() { isOpen.store(true, ordering: .releasing) }
        func close() { isOpen.store(false, ordering: .releasing) }
        /// Statements waiting at the gate now.
        var holding: Int { held.load(ordering: .acquiring) }
        /// Whether a statement stopped waiting because the hang guard ran out.
        var expired: Bool { expiredFlag.load(ordering: .acquiring) }

        /// A running statement's progress: waits while the gate is closed.
        func pass() {
            guard !isOpen.load(ordering: .acquiring) else { return }
            held.add(1, ordering: .acquiringAndReleasing)
            defer { held.subtract(1, ordering: .acquiringAndReleasing) }
            while !isOpen.load(ordering: .acquiring) {
                if ContinuousClock.now >= deadline {
                    expiredFlag.store(true, ordering: .releasing)
                    return
                }
                usleep(200)
            }
        }

        /// Waits for a statement to reach the gate; false if none did before the hang guard.
        func waitUntilHolding() -> Bool {
            while holding == 0 {
                if ContinuousClock.now >= deadline { return false }
                usleep(200)
            }
            return true
        }
    }

    /// Makes every statement of the browser's store connection and of its counter's connection pass `gate`.
    static func hold(_ browser: BrowserHarness, at gate: StoreGate) throws {
        let store = try #require(browser.session.store.coordinator.persistentStores.first as? NSSQLiteStore)
        try store.withConnection { $0.setProgressHandler(every: 10) { gate.pass(); return true } }
        try browser.session.counter.withConnection { $0.setProgressHandler(every: 10) { gate.pass(); return true } }
    }

    /// Presses `key` while the store is held: the browser must draw the frame answering it (the loop draws once on
    /// entry, once for the key) with a statement still held at the gate.
    static func expectAnswered(_ browser: BrowserHarness, _ gate: StoreGate, _ key: Key, while title: String,
                               sourceLocation: SourceLocation = #_sourceLocation) throws {
        let frames = browser.terminal.drawCount
        try browser.press(key)
        #expect(browser.terminal.drawCount == frames + 2, "no frame for \(key) while \(title)", sourceLocation: sourceLocation)
        #expect(gate.holding > 0 && !gate.expired, "\(key) waited for the store while \(title)", sourceLocation: sourceLocation)
    }

    @Test("Sort by an indexed column, G, F, D, a filter: each held in the store, keys draw frames and Esc cancels it")
    func everyLongActionAnswersWhileTheStoreIsHeld() throws {
        let browser = try BrowserHarness(entity: "Recipe", batchSize: 20)
        try browser.selectColumn("normalizedName")
        let gate = StoreGate()
        try Self.hold(browser, at: gate)
        defer { gate.open() }

        let actions: [(title: String, start: () throws -> Void)] = [
            ("sorting Recipe by normalizedName", { try browser.press(.character("[")) }),
            ("jumping to the last row", { try browser.press(.character("G")) }),
            ("counting the values of normalizedName", { try browser.press(.character("F")) }),
            ("describing Recipe", { try browser.press(.character("D")) }),
            ("filtering Recipe", { try browser.type("/minutes < 30\n") }),
        ]
        for (title, start) in actions {
            browser.waitsForJobs = false
            gate.close()
            try start()
            #expect(browser.app.jobs.isBusy, "\(title) did not start")
            #expect(gate.waitUntilHolding(), "\(title) never reached the store")
            #expect(browser.messageLine.contains(title + "…"), "\(browser.messageLine)")
            for key: Key in [.character("j"), .character("k"), .character("l"), .character("h"), .character("?"), .escape] {
                try Self.expectAnswered(browser, gate, key, while: title)
            }
            // A tick with no key redraws the spinner.
            let frames = browser.terminal.drawCount
            browser.terminal.enqueue(inputs: [.timeout])
            try browser.press()
            #expect(browser.terminal.drawCount == frames + 2)
            #expect(gate.holding > 0 && !gate.expired)

            try Self.expectAnswered(browser, gate, .escape, while: title)
            #expect(browser.messageLine.contains("cancelling \(title)"), "\(browser.messageLine)")
            gate.open()
            try browser.finishJobs()
            #expect(browser.messageLine.contains("cancelled \(title)"), "\(browser.messageLine)")
            #expect(!browser.app.jobs.isBusy)

            // Left alone with the store answering, the same action completes (so the next one starts from it).
            browser.waitsForJobs = true
            try start()
            try browser.press(.escape)  // closes F's and D's result panes; nothing to cancel
            #expect(!browser.app.jobs.isBusy)
        }
        #expect(!gate.expired)
        #expect(browser.statusLine.contains("sort normalizedName"), "\(browser.statusLine)")
    }
}
