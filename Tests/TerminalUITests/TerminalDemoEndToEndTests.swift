import CoreDataTestSupport
import Foundation
import Testing

/// `terminal-demo` on the real `CursesTerminal`, in a tmux pane running a shell: keys, resizes, Ctrl-Z, quit, and
/// a check that the shell gets its terminal back (normal screen, sane modes, honest exit status).
@Suite(.serialized, .enabled(if: TmuxSession.executable != nil, "tmux is not installed: end-to-end terminal tests skipped"))
struct TerminalDemoEndToEndTests {
    /// `$TERMINAL_DEMO_BIN` (a sanitized build's), or the debug build beside the package.
    static let binary = ProcessInfo.processInfo.environment["TERMINAL_DEMO_BIN"]
        ?? Fixtures.projectRoot.appendingPathComponent(".build/debug/terminal-demo").path

    private func startShell() throws -> TmuxSession {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary),
                     "build the demo first: swift build --product terminal-demo")
        let session = try TmuxSession(command: "env PS1='$ ' TERM=xterm-256color bash --norc --noprofile -i",
                                      columns: 80, rows: 24)
        try session.waitFor { $0.contains { $0.hasPrefix("$") } }
        return session
    }

    /// Waits until the program has left the alternate screen, so that what is typed next reaches the shell.
    private func waitForShell(_ session: TmuxSession) throws {
        try session.waitFor { _ in (try? session.paneVariable("alternate_on")) == "0" }
    }

    /// The modes a shell needs back: canonical input, echo, signals, CR translation, output processing.
    private func expectSaneTerminal(_ session: TmuxSession) throws {
        try session.sendLine("clear; echo MODES: $(stty -a | tr ' ;' '\\n\\n' | grep -xE -- '-?(icanon|echo|isig|icrnl|opost)' | sort)")
        let lines = try session.waitFor { $0.contains { $0.hasPrefix("MODES:") } }
        let modes = lines.first { $0.hasPrefix("MODES:") } ?? ""
        #expect(modes.split(separator: " ").dropFirst() == ["echo", "icanon", "icrnl", "isig", "opost"], "\(lines)")
        #expect(try session.paneVariable("alternate_on") == "0")
        #expect(try session.paneVariable("cursor_flag") == "1")
    }

    @Test func browseResizeSuspendAndQuit() throws {
        let session = try startShell()
        defer { session.kill() }
        try session.sendLine(Self.binary)
        var screen = try session.waitFor { $0.contains("row 1 of 1000  j/k PgDn g/G q") }
        #expect(screen.first == "Line 1: the quick brown fox 日本語 café")
        #expect(try session.paneVariable("alternate_on") == "1")

        try session.send("j", "j")
        screen = try session.waitFor { $0.contains("row 3 of 1000  j/k PgDn g/G q") }
        #expect(screen.contains("row 3 of 1000  j/k PgDn g/G q"))

        try session.send("G")
        screen = try session.waitFor { $0.contains("row 1000 of 1000  j/k PgDn g/G q") }
        #expect(screen[22] == "Line 1000: the quick brown fox 日本語 café")
        #expect(screen[21] == "Line 999: the quick brown fox 日本語 café")

        try session.resize(columns: 20, rows: 5)
        screen = try session.waitFor { $0.contains("row 1000 of 1000  j…") }
        #expect(Array(screen.prefix(5)) == [
            "Line 997: the quick…",
            "Line 998: the quick…",
            "Line 999: the quick…",
            "Line 1000: the quic…",
            "row 1000 of 1000  j…",
        ])

        for (columns, rows) in [(1, 1), (2, 1), (1, 3)] {
            try session.resize(columns: columns, rows: rows)
            try session.waitFor { $0.count == rows || $0.count == rows + 1 }
        }
        try session.resize(columns: 80, rows: 24)
        try session.send("k")
        screen = try session.waitFor { $0.contains("row 999 of 1000  j/k PgDn g/G q") }
        #expect(screen.contains("row 999 of 1000  j/k PgDn g/G q"), "the demo survived tiny sizes: \(screen)")

        // Ctrl-Z gives the shell its screen back; fg repaints.
        try session.send("C-z")
        screen = try session.waitFor { $0.contains { $0.contains("Stopped") } }
        #expect(screen.contains { $0.contains("Stopped") })
        #expect(try session.paneVariable("alternate_on") == "0")
        try session.sendLine("fg")
        screen = try session.waitFor { $0.contains("row 999 of 1000  j/k PgDn g/G q") }
        #expect(screen.contains("row 999 of 1000  j/k PgDn g/G q"))
        try session.send("j")
        try session.waitFor { $0.contains("row 1000 of 1000  j/k PgDn g/G q") }

        try session.send("q")
        try waitForShell(session)
        try session.sendLine("echo EXIT=$?")
        screen = try session.waitFor { $0.contains("EXIT=0") }
        #expect(screen.contains("EXIT=0"))
        #expect(!screen.contains { $0.hasPrefix("Line 99") }, "the list stayed on the normal screen")
        try expectSaneTerminal(session)
    }

    @Test func interruptRestoresTheTerminalAndReportsTheSignal() throws {
        let session = try startShell()
        defer { session.kill() }
        try session.sendLine(Self.binary)
        try session.waitFor { $0.contains("row 1 of 1000  j/k PgDn g/G q") }
        try session.send("C-c")
        try waitForShell(session)
        try session.sendLine("echo EXIT=$?")
        let screen = try session.waitFor { $0.contains("EXIT=130") }
        #expect(screen.contains("EXIT=130"), "SIGINT re-raised after restoring: \(screen)")
        try expectSaneTerminal(session)
    }

    @Test func terminationSignalRestoresTheTerminal() throws {
        let session = try startShell()
        defer { session.kill() }
        try session.sendLine(Self.binary)
        try session.waitFor { $0.contains("row 1 of 1000  j/k PgDn g/G q") }
        // The demo is the only child of the pane's shell.
        let demo = try #require(try session.shellChildProcessIDs().first)
        #expect(Foundation.kill(demo, SIGTERM) == 0)
        try waitForShell(session)
        try session.sendLine("echo EXIT=$?")
        let screen = try session.waitFor { $0.contains("EXIT=143") }
        #expect(screen.contains("EXIT=143"), "SIGTERM re-raised after restoring: \(screen)")
        try expectSaneTerminal(session)
    }

    /// Hostile data through the real CursesTerminal: the pane shows visible symbols, the window title and the
    /// clipboard stay untouched, and none of the payloads is in the bytes written to the terminal.
    @Test func hostileDataNeverReachesTheTerminalRaw() throws {
        let session = try startShell()
        defer { session.kill() }
        try session.acceptClipboardWrites()
        try session.sendLine("printf '\\033]2;%s\\033\\\\' safe-title")
        try session.waitFor(attempts: 100) { _ in (try? session.paneVariable("pane_title")) == "safe-title" }
        let recording = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-\(UUID().uuidString).bytes").path
        defer { try? FileManager.default.removeItem(atPath: recording) }
        try session.recordOutput(to: recording)
        try session.sendLine(Self.binary + " --hostile")
        let screen = try session.waitFor { $0.contains { $0.hasPrefix("row 1 of 6") } }
        #expect(screen[0] == "title ␛]0;pwned-title␇ end")
        #expect(screen[1] == "clear ␛[2J␛[H end")
        #expect(screen[2] == "clipboard ␛]52;c;cHduZWQtY2xpcGJvYXJk␇ end")
        #expect(screen[3] == "bidi <U+202E>txt.exe<U+202C> end")
        #expect(screen[4] == "nul ␀ end")
        #expect(screen[5] == "invalid \\xFF\\xC3␛] end")
        try session.send("j", "j", "q")
        try waitForShell(session)
        try session.sendLine("echo EXIT=$?")
        try session.waitFor { $0.contains("EXIT=0") }
        #expect(try session.paneVariable("pane_title") == "safe-title")
        #expect(try session.pasteBuffers().isEmpty, "an OSC 52 write reached tmux's clipboard")

        let bytes = try Data(contentsOf: URL(fileURLWithPath: recording))
        #expect(!bytes.isEmpty)
        for payload in ["\u{1B}]0;pwned", "\u{1B}]52;", "\u{1B}[2J\u{1B}[H end", "\u{202E}", "nul \u{0}"] {
            #expect(bytes.range(of: Data(payload.utf8)) == nil, "raw payload written: \(payload.debugDescription)")
        }
        #expect(bytes.range(of: Data([0xFF])) == nil)
    }

    @Test func refusesToStartWithoutATerminal() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.binary)
        let error = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = Pipe()
        process.standardError = error
        try process.run()
        let message = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 1)
        #expect(message.contains("not a terminal"))
    }
}
