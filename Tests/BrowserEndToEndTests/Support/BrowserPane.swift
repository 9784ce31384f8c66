import CoreDataTestSupport
import Foundation
import Testing

/// The real `coredata` binary in a tmux pane running a shell, as a user would run it: a private directory for
/// HOME, XDG_STATE_HOME and the stores, a UTF-8 locale and `TERM=xterm-256color`. The shell stays behind the
/// browser, so a test can check the exit status and the terminal modes after the browser ends.
final class BrowserPane {
    static let binary = CommandRunner.executable.path
    static let isAvailable = TmuxSession.executable != nil
    static let skipMessage: Comment = "tmux is not installed: end-to-end browser tests skipped"

    /// tmux's own terminal type where its terminfo entry is installed, so that the keys tmux sends (Home is
    /// `ESC [1~`) are the ones curses expects; xterm-256color otherwise.
    static let terminalType: String = {
        let entries = ["/usr/share/terminfo/t/tmux-256color", "/lib/terminfo/t/tmux-256color", "/etc/terminfo/t/tmux-256color"]
        return entries.contains { FileManager.default.fileExists(atPath: $0) } ? "tmux-256color" : "xterm-256color"
    }()

    let tmux: TmuxSession
    /// The test's own directory: HOME, `state/` (XDG_STATE_HOME) and the store copies.
    let directory: URL
    var stateDirectory: URL { directory.appendingPathComponent("state") }
    /// Where the browser keeps its prompt histories and named filters.
    var historyDirectory: URL { stateDirectory.appendingPathComponent("coredata") }

    init(columns: Int = 160, rows: Int = 30, environment: [String: String] = [:]) throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary),
                     "build the tool first: swift build --product coredata")
        directory = try TemporaryDirectory.make(prefix: "browser-e2e")
        var variables = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "HOME": directory.path,
            "XDG_STATE_HOME": directory.appendingPathComponent("state").path,
            "TERM": Self.terminalType,
            "LANG": "C.UTF-8",
            "LC_ALL": "C.UTF-8",
            "PS1": "$ ",
            // No history file: the shell would write one into the directory as the test removes it.
            "HISTFILE": "",
        ]
        // `env -i` clears everything else: a sanitized build's options (leak checking off, suppressions, as the
        // Makefile sets them) must reach the browser too.
        for name in ["ASAN_OPTIONS", "TSAN_OPTIONS", "LSAN_OPTIONS"] {
            if let value = ProcessInfo.processInfo.environment[name] { variables[name] = value }
        }
        variables.merge(environment) { _, new in new }
        let assignments = variables.keys.sorted().map { "\($0)=" + Self.quote(variables[$0]!) }.joined(separator: " ")
        tmux = try TmuxSession(command: "env -i \(assignments) bash --norc --noprofile -i", columns: columns, rows: rows)
        try tmux.waitUntil("the shell prompt") { $0.contains { $0.hasPrefix("$") } }
    }

    deinit {
        tmux.kill()
        try? FileManager.default.removeItem(at: directory)
    }

    // MARK: Stores

    /// Copies a sample store (with its external data folder) into the test directory.
    func copySample(_ name: String) throws -> String {
        let folder = Fixtures.projectRoot.appendingPathComponent("SampleStores/\(name)")
        let destination = directory.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)
        for item in try FileManager.default.contentsOfDirectory(atPath: folder.path) where !item.hasSuffix(".xcdatamodeld") {
            try FileManager.default.copyItem(at: folder.appendingPathComponent(item), to: destination.appendingPathComponent(item))
        }
        return destination.appendingPathComponent("\(name).sqlite").path
    }

    // MARK: Running the browser

    /// Types `coredata ARGUMENTS` at the shell, with extra environment variables, from `directory` (the test's own
    /// directory unless given).
    func launch(_ arguments: [String], environment: [String: String] = [:], in workingDirectory: String? = nil) throws {
        let assignments = environment.keys.sorted().map { "\($0)=" + Self.quote(environment[$0]!) + " " }.joined()
        let command = ([Self.binary] + arguments).map(Self.quote).joined(separator: " ")
        try tmux.sendLine("clear; cd \(Self.quote(workingDirectory ?? directory.path)) && \(assignments)\(command)")
    }

    /// Waits until the browser's status line (or any line) contains `text`, and returns the screen.
    @discardableResult
    func waitFor(_ text: String, timeout: Duration = .seconds(30)) throws -> [String] {
        try tmux.waitUntil("\"\(text)\"", timeout: timeout) { lines in lines.contains { $0.contains(text) } }
    }

    /// Waits until `condition` holds for the screen.
    @discardableResult
    func waitUntil(_ description: String, _ condition: ([String]) throws -> Bool) throws -> [String] {
        try tmux.waitUntil(description, condition)
    }

    /// Presses keys, by tmux's names (`j`, `C-f`, `Enter`, `Escape`, `PageDown`).
    func press(_ keys: String...) throws {
        for key in keys { try tmux.send(key) }
    }

    /// Types `text` literally.
    func type(_ text: String) throws {
        try tmux.send("-l", text)
    }

    /// The status line: the second line from the bottom of the screen.
    func statusLine(_ lines: [String]) -> String {
        let trimmed = Array(lines.reversed().drop { $0.isEmpty }.reversed())
        return trimmed.count >= 2 ? trimmed[trimmed.count - 2] : ""
    }

    /// The row of "row N of M" in the status line.
    func currentRow(_ lines: [String]) -> Int? {
        guard let match = statusLine(lines).firstMatch(of: /row ([0-9,]+) of/) else { return nil }
        return Int(match.1.replacingOccurrences(of: ",", with: ""))
    }

    /// The rows of the table pane with the entity pane cut off: the text between the table's borders.
    func tableLines(_ lines: [String]) -> [String] {
        lines.compactMap { line in
            guard let start = line.range(of: "││") else { return nil }
            return String(line[start.upperBound...].dropLast()).replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
        }
    }

    /// The count the entity pane shows beside `name` (the text of its row after the name).
    func entityCount(_ name: String, in lines: [String]) -> String? {
        for line in lines where line.hasPrefix("│") {
            let inner = line.dropFirst().prefix { $0 != "│" }.trimmingCharacters(in: .whitespaces)
            if inner.hasPrefix(name + " ") { return inner.dropFirst(name.count).trimmingCharacters(in: .whitespaces) }
        }
        return nil
    }

    // MARK: After the browser

    /// Waits until the program has left the alternate screen, so that what is typed next reaches the shell.
    func waitForShell() throws {
        try tmux.waitUntil("the normal screen") { _ in (try? tmux.paneVariable("alternate_on")) == "0" }
    }

    /// The data lines of `coredata query --format csv` output, without the header.
    static func csvRows(_ output: String) -> [String] {
        output.split(whereSeparator: \.isNewline).dropFirst().map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// Waits for the shell, then returns the browser's exit status.
    func exitStatus() throws -> Int {
        try waitForShell()
        try tmux.sendLine("echo EXIT=$?")
        let lines = try tmux.waitUntil("the exit status") { $0.contains { $0.hasPrefix("EXIT=") } }
        let line = lines.first { $0.hasPrefix("EXIT=") } ?? ""
        let status = Int(line.dropFirst(5)) ?? -1
        // What the program printed on its way out (a sanitizer's report, an error) explains a failing status.
        if status != 0 { print("the pane after a non-zero exit:\n" + lines.joined(separator: "\n")) }
        return status
    }

    /// The modes a shell needs back: canonical input, echo, signals, CR translation, output processing; the normal
    /// screen and a visible cursor.
    func expectSaneTerminal(sourceLocation: SourceLocation = #_sourceLocation) throws {
        try tmux.sendLine("clear; echo MODES: $(stty -a | tr ' ;' '\\n\\n' | grep -xE -- '-?(icanon|echo|isig|icrnl|opost|ixon)' | sort)")
        let lines = try tmux.waitUntil("stty's modes") { $0.contains { $0.hasPrefix("MODES:") } }
        let modes = lines.first { $0.hasPrefix("MODES:") } ?? ""
        #expect(modes.split(separator: " ").dropFirst() == ["echo", "icanon", "icrnl", "isig", "ixon", "opost"], "\(lines)",
                sourceLocation: sourceLocation)
        #expect(try tmux.paneVariable("alternate_on") == "0", sourceLocation: sourceLocation)
        #expect(try tmux.paneVariable("cursor_flag") == "1", sourceLocation: sourceLocation)
    }

    /// The process ID of the browser: the only child of the pane's shell.
    func browserProcessID() throws -> Int32 {
        try #require(try tmux.shellChildProcessIDs().first, "no process under the pane's shell")
    }

    /// Single-quotes `text` for the shell.
    static func quote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
