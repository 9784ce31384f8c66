import Foundation

/// A progress bar on standard error for long work, when standard error is a terminal and `--quiet` was not given;
/// nothing otherwise (a pipe or a log file gets no carriage returns). It has no colour, so `NO_COLOR` needs nothing.
final class ProgressLine {
    private let label: String
    private let enabled: Bool
    private var shown = -1

    init(label: String, enabled: Bool = isatty(STDERR_FILENO) == 1 && !Verbosity.isQuiet) {
        self.label = label
        self.enabled = enabled
    }

    /// Objects a `set` or `delete` must touch before it shows a bar: fewer are done before one would be seen.
    static let largeChange = 1_000

    /// A bar for work over `count` objects when there are at least ``largeChange`` of them; nil otherwise.
    static func forChange(of count: Int, label: String) -> ProgressLine? {
        count >= largeChange ? ProgressLine(label: label) : nil
    }

    func show(_ done: Int, _ total: Int) {
        guard enabled, total > 0 else { return }
        let percent = min(100, done * 100 / total)
        guard percent != shown else { return }
        shown = percent
        let filled = percent * 30 / 100
        FileHandle.standardError.write(Data("\r\(label) [\(String(repeating: "#", count: filled))\(String(repeating: ".", count: 30 - filled))] \(percent)%".utf8))
    }

    /// Ends the bar's line; a second call does nothing, so a `defer` can end it on the error path too.
    func finish() {
        if enabled && shown >= 0 { FileHandle.standardError.write(Data("\n".utf8)) }
        shown = -1
    }
}

/// `--quiet`: no progress bars and no notes on standard error; results and errors are still written.
enum Verbosity {
    nonisolated(unsafe) static var isQuiet = false
}
