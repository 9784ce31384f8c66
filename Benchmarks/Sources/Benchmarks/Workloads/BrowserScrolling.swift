import Foundation
import StoreBrowser
import TerminalUI

/// The browser itself, driven end to end through its logic (`StoreBrowserApp` on a `VirtualTerminal`, exactly what
/// the TUI runs minus curses) on a 1,000,000-row entity: the time from launch to the first screen, a page down, a
/// jump to the end, a filter, and the resident memory while scrolling the whole entity page by page.
///
/// DESIGN.md §5 compares it with VisiData 3.4 on such a store (0.62 s to the first rows, 349 MB resident) and asks
/// for half the time and a fifth of the memory; issue 7 asks for memory within 64 MB. Each run is a child process
/// of this binary, so the heap of earlier workloads does not count.
enum BrowserScrolling {
    static let childFlag = "--browser-child"
    static let screen = Size(columns: 160, rows: 60)
    static let visiDataLaunchSeconds = 0.62
    static let visiDataResidentMB = 349.0
    static let memoryLimitMB = 64.0

    struct Measurement: Codable {
        var rows: Int
        var launchSeconds: Double
        var pageDownSeconds: Double
        var jumpToEndSeconds: Double
        var filterSeconds: Double
        var scrollSeconds: Double
        var pagesScrolled: Int
        var residentAfterJumpMB: Double
        var peakResidentMB: Double
        /// Issue 21: `[` on the text column to the sorted first screen, `G` after it, `D`; and the same work as
        /// plain SQL through the C API (`ORDER BY … LIMIT 50`, its reverse, the aggregates of describe).
        var sortSeconds: Double
        /// The first sort of the column (`]`), which also reads the column once to decide whether its bytes order as
        /// `compare:` does; `sortSeconds` is the second (`[`), which reuses that answer.
        var firstSortSeconds: Double?
        var sortedJumpSeconds: Double
        var describeSeconds: Double
        var sqliteSortSeconds: Double
        var sqliteReverseSeconds: Double
        var sqliteDescribeSeconds: Double
    }

    struct Result: Codable {
        var runs: [Measurement]
        var medianLaunchSeconds: Double
        var peakResidentMB: Double
        var targets: [String: Bool]
    }

    static func run(store url: URL, rows: Int, runs: Int) throws -> Result {
        print("  browser · launch, page down, jump, filter, scroll \(rows.formatted()) rows (child processes)", terminator: "")
        fflush(nil)
        var measurements: [Measurement] = []
        for _ in 0..<runs {
            let line = try ChildProcess.lastLine(arguments: [childFlag, url.path, String(rows)], describing: "browser")
            measurements.append(try JSONDecoder().decode(Measurement.self, from: Data(line.utf8)))
            print(".", terminator: "")
            fflush(nil)
        }
        print()
        let launches = measurements.map(\.launchSeconds).sorted()
        let median = launches[launches.count / 2]
        let peak = measurements.map(\.peakResidentMB).max() ?? 0
        let sortRatio = Self.median(measurements.map { $0.sortSeconds / $0.sqliteSortSeconds })
        let jumpRatio = Self.median(measurements.map { $0.sortedJumpSeconds / $0.sqliteReverseSeconds })
        // The first sort is `]` (descending), and it also decides the byte order: against the reverse query.
        let firstSortRatio = Self.median(measurements.map { ($0.firstSortSeconds ?? .infinity) / $0.sqliteReverseSeconds })
        let describeRatio = Self.median(measurements.map { $0.describeSeconds / $0.sqliteDescribeSeconds })
        return Result(runs: measurements, medianLaunchSeconds: median, peakResidentMB: peak, targets: [
            "sort by text, first screen ≤ 1.5× sqlite ORDER BY … LIMIT 50": sortRatio <= 1.5,
            "first sort (] deciding the byte order) ≤ 1.5× sqlite's reverse order": firstSortRatio <= 1.5,
            "G after the sort ≤ 1.5× sqlite's reverse order": jumpRatio <= 1.5,
            "D ≤ 1.5× the aggregate SQL": describeRatio <= 1.5,
            "launch ≤ half of VisiData's 0.62 s": median <= visiDataLaunchSeconds / 2,
            "resident ≤ a fifth of VisiData's 349 MB": peak <= visiDataResidentMB / 5,
            "resident ≤ 64 MB while scrolling": peak <= memoryLimitMB,
        ])
    }

    static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

    /// The child: open, draw, page, jump, filter, scroll to the end; print one JSON line.
    static func child(arguments: [String]) throws {
        guard arguments.count == 2, let rows = Int(arguments[1]) else {
            throw RawSQLiteError(message: "usage: \(childFlag) <store> <rows>")
        }
        let start = ContinuousClock.now
        let session = try BrowserSession(options: BrowserOptions(storePath: arguments[0], entityName: "Word"))
        var app = try StoreBrowserApp(session: session, editor: BasicLineEditor(), theme: .monochrome)
        let terminal = MeasuringTerminal(size: screen)
        func press(_ keys: [Key]) throws -> Double {
            let before = ContinuousClock.now
            terminal.enqueue(keys)
            try TerminalUI.run(app: &app, terminal: terminal)
            // Sorts, filters, G and D run off the browser's loop: the time runs to the screen showing their result.
            if app.isWorking {
                app.finishWork()
                try TerminalUI.run(app: &app, terminal: terminal)
            }
            return (ContinuousClock.now - before).seconds
        }
        try TerminalUI.run(app: &app, terminal: terminal)
        let launch = (ContinuousClock.now - start).seconds
        guard terminal.snapshot().contains(where: { $0.contains("w00000001") }) else {
            throw RawSQLiteError(message: "the first screen does not show the first word")
        }
        let pageDown = try press([.pageDown])
        let jump = try press([.character("G")])
        let afterJump = ResidentMemory.residentMB()
        guard terminal.snapshot().contains(where: { $0.contains(String(format: "w%08d", rows)) }) else {
            throw RawSQLiteError(message: "the jump to the end does not show the last word")
        }
        var filter: [Key] = [.character("/")]
        filter += "text BEGINSWITH \"w0099\"".map { Key.character($0) }
        filter.append(.enter)
        let filtered = try press(filter)
        _ = try press([.character("/")] + Array(repeating: Key.backspace, count: 30) + [.enter, .character("g")])
        // Scroll the whole entity a page at a time, as a user holding PgDn would, sampling the resident set.
        var peak = afterJump
        var pages = 0
        let scrollStart = ContinuousClock.now
        while !terminal.snapshot().contains(where: { $0.contains("row \(rows.formatted()) of") }) {
            terminal.enqueue(Array(repeating: Key.pageDown, count: 20))
            try TerminalUI.run(app: &app, terminal: terminal)
            pages += 20
            peak = max(peak, ResidentMemory.residentMB())
            guard pages < rows else { throw RawSQLiteError(message: "scrolling never reached the last row") }
        }
        let scrolled = (ContinuousClock.now - scrollStart).seconds
        // Sort by the text column (`c text`: the first column is `created`), then jump to the end of the sorted
        // table, then describe.
        _ = try press([.character("g"), .character("c")] + "text".map { Key.character($0) } + [.enter])
        let sort = try press([.character("]")])
        let sortAscending = try press([.character("[")])
        guard terminal.snapshot().contains(where: { $0.contains("sort text") }) else {
            throw RawSQLiteError(message: "the table is not sorted by text: \(terminal.snapshot().suffix(2))")
        }
        guard terminal.snapshot().contains(where: { $0.contains("w00000001") }) else {
            throw RawSQLiteError(message: "the sorted first screen does not show the first word")
        }
        let sortedJump = try press([.character("G")])
        let describe = try press([.character("D")])
        let raw = try RawDatabase(path: arguments[0])
        func timed(_ sql: String) throws -> Double {
            let before = ContinuousClock.now
            let statement = try raw.prepare(sql)
            while try statement.step() {}
            return (ContinuousClock.now - before).seconds
        }
        let columns = "Z_PK, Z_ENT, Z_OPT, ZTEXT, ZLENGTH, ZCREATED, ZSCORE"
        let sqliteSort = try timed("SELECT \(columns) FROM ZWORD ORDER BY ZTEXT, Z_PK LIMIT 50")
        let sqliteReverse = try timed("SELECT \(columns) FROM ZWORD ORDER BY ZTEXT DESC, Z_PK DESC LIMIT 50")
        let aggregates = ["ZTEXT", "ZLENGTH", "ZCREATED", "ZSCORE"].map { "COUNT(\($0)), COUNT(DISTINCT \($0)), MIN(\($0)), MAX(\($0))" }
        let sqliteDescribe = try timed("SELECT COUNT(*), \(aggregates.joined(separator: ", ")) FROM ZWORD")
        let measurement = Measurement(
            rows: rows, launchSeconds: launch, pageDownSeconds: pageDown, jumpToEndSeconds: jump, filterSeconds: filtered,
            scrollSeconds: scrolled, pagesScrolled: pages,
            residentAfterJumpMB: afterJump, peakResidentMB: peak,
            sortSeconds: sortAscending, firstSortSeconds: sort, sortedJumpSeconds: sortedJump, describeSeconds: describe,
            sqliteSortSeconds: sqliteSort, sqliteReverseSeconds: sqliteReverse, sqliteDescribeSeconds: sqliteDescribe)
        print(String(decoding: try JSONEncoder().encode(measurement), as: UTF8.self))
    }
}

/// A terminal for measuring: scripted keys like `VirtualTerminal`, and `draw` computes the same diff a real terminal
/// would send, but keeps only the last screen (a `VirtualTerminal` records every run it was sent, which would be
/// counted as the browser's memory over thousands of pages).
final class MeasuringTerminal: Terminal {
    let size: Size
    let showsColor = false
    private var lastScreen: Screen?
    private var pending: [Key] = []
    private(set) var cellsSent = 0

    init(size: Size) { self.size = size }

    func enqueue(_ keys: [Key]) { pending += keys }

    func snapshot() -> [String] { lastScreen?.lines() ?? [] }

    func draw(_ screen: Screen) throws {
        cellsSent += screen.changes(since: lastScreen).reduce(0) { $0 + $1.cells.count }
        lastScreen = screen
    }

    func invalidate() { lastScreen = nil }

    func readKey(timeout: Duration?) throws -> Key? {
        guard !pending.isEmpty else { throw TerminalError.endOfInput }
        return pending.removeFirst()
    }

    func bell() {}
    func suspend() throws {}
}
