import Foundation

/// A detached tmux session on a private server socket, for driving a full-screen program as a user would.
public struct TmuxSession: Sendable {
    /// The tmux executable, or nil when tmux is not installed.
    public static let executable: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/tmux" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    public let name: String
    private let socket: String

    /// Starts `command` in a new session of `columns` x `rows`.
    public init(command: String, columns: Int, rows: Int) throws {
        name = "tui-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString.prefix(8))"
        socket = "opencoredata-" + name
        // The first command forks the tmux server, which inherits the descriptors by which Foundation's `Process`
        // learns that its child exited, so `waitUntilExit` would wait for the server: spawn it directly instead.
        try spawn(["new-session", "-d", "-s", name, "-x", "\(columns)", "-y", "\(rows)", command])
    }

    /// Types keys (tmux key names such as `j`, `C-z`, `Enter`, or literal text).
    public func send(_ keys: String...) throws { try tmux(["send-keys", "-t", name] + keys) }

    /// Types `text` literally, then Enter.
    public func sendLine(_ text: String) throws {
        try tmux(["send-keys", "-t", name, "-l", text])
        try tmux(["send-keys", "-t", name, "Enter"])
    }

    public func resize(columns: Int, rows: Int) throws {
        try tmux(["resize-window", "-t", name, "-x", "\(columns)", "-y", "\(rows)"])
    }

    /// The visible pane, one string per row, trailing spaces trimmed.
    public func capture() throws -> [String] {
        try tmux(["capture-pane", "-p", "-t", name]).split(separator: "\n", omittingEmptySubsequences: false)
            .map { String($0).replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) }
    }

    /// The visible pane with its colours and attributes as SGR escape sequences (`capture-pane -e`).
    public func captureWithAttributes() throws -> String {
        try tmux(["capture-pane", "-p", "-e", "-t", name])
    }

    /// Polls the pane until `condition` holds, for up to `timeout` (generous, for loaded machines), and returns the
    /// capture that satisfied it; throws `TmuxError.timedOut` with the last capture otherwise.
    @discardableResult
    public func waitUntil(_ description: @autoclosure () -> String, timeout: Duration = .seconds(30),
                          _ condition: ([String]) throws -> Bool) throws -> [String] {
        let deadline = ContinuousClock.now + timeout
        var lines = try capture()
        while true {
            while try !condition(lines) {
                guard ContinuousClock.now < deadline else { throw TmuxError.timedOut(description(), lines) }
                usleep(20_000)
                lines = try capture()
            }
            // A capture can land between two writes of one frame: take the screen once it reads the same twice.
            usleep(20_000)
            let again = try capture()
            if again == lines { return lines }
            lines = again
        }
    }

    /// The processes whose parent is the pane's shell (a program the shell is running), by `ps`.
    public func shellChildProcessIDs() throws -> [Int32] {
        let shell = try paneVariable("pane_pid")
        let ps = Process()
        ps.executableURL = URL(fileURLWithPath: "/bin/ps")
        ps.arguments = ["-o", "pid=", "--ppid", shell]
        let output = Pipe()
        ps.standardOutput = output
        try ps.run()
        let pids = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .split(whereSeparator: \.isWhitespace).compactMap { Int32($0) }
        ps.waitUntilExit()
        return pids
    }

    /// A tmux format variable of the pane, such as `alternate_on`.
    public func paneVariable(_ variable: String) throws -> String {
        try tmux(["display-message", "-p", "-t", name, "#{\(variable)}"]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Polls the pane until `condition` holds, a bounded number of times, and returns the last capture.
    @discardableResult
    public func waitFor(attempts: Int = 200, _ condition: ([String]) -> Bool) throws -> [String] {
        var lines = try capture()
        for _ in 0..<attempts where !condition(lines) {
            usleep(25_000)
            lines = try capture()
        }
        return lines
    }

    /// Appends everything the pane's program writes, byte for byte, to `path`.
    public func recordOutput(to path: String) throws {
        try tmux(["pipe-pane", "-o", "-t", name, "cat >> '\(path)'"])
    }

    /// Lets programs in the pane write tmux's clipboard with OSC 52, so that a leaked write would show up.
    public func acceptClipboardWrites() throws {
        try tmux(["set-option", "-s", "set-clipboard", "on"])
    }

    /// tmux's paste buffers: where an OSC 52 clipboard write would land.
    public func pasteBuffers() throws -> String { try tmux(["list-buffers"]) }

    public func kill() {
        _ = try? tmux(["kill-server"])
        // The server leaves its socket behind; remove it so that test runs do not pile them up.
        let directory = ProcessInfo.processInfo.environment["TMUX_TMPDIR"] ?? "/tmp"
        unlink("\(directory)/tmux-\(getuid())/\(socket)")
    }

    private func spawn(_ arguments: [String]) throws {
        let argv = ([Self.executable ?? "/usr/bin/tmux", "-L", socket, "-f", "/dev/null"] + arguments).map { strdup($0) }
        defer { argv.forEach { free($0) } }
        // The test runs on a thread that blocks signals; the server and the programs in its panes must start with
        // none blocked and default dispositions, as from a login shell, or Ctrl-C, Ctrl-Z and SIGWINCH never arrive.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t(), allSignals = sigset_t()
        sigemptyset(&noSignals)
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var processID: pid_t = 0
        var status: Int32 = 0
        guard posix_spawn(&processID, argv[0]!, nil, &attributes, argv + [nil], environ) == 0,
              waitpid(processID, &status, 0) == processID, status == 0 else {
            throw TmuxError.commandFailed(arguments)
        }
    }

    public enum TmuxError: Error, CustomStringConvertible {
        case commandFailed([String])
        /// What was awaited, and the pane as it last was.
        case timedOut(String, [String])
    }

    @discardableResult
    private func tmux(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.executable ?? "/usr/bin/tmux")
        process.arguments = ["-L", socket, "-f", "/dev/null"] + arguments
        process.standardError = FileHandle.nullDevice
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}

extension TmuxSession.TmuxError {
    public var description: String {
        switch self {
        case .commandFailed(let arguments): return "tmux " + arguments.joined(separator: " ") + " failed"
        case .timedOut(let awaited, let lines):
            return "timed out waiting for \(awaited); the pane showed:\n" + lines.joined(separator: "\n")
        }
    }
}
