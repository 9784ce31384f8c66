import Foundation

/// Runs the built `coredata` executable as a user would, capturing its output and exit status.
public enum CommandRunner {
    public struct Result: Sendable {
        public var status: Int32
        public var standardOutput: String
        public var standardError: String
        /// The process ended on a signal (`status` is then the signal's number), not by exiting.
        public var wasSignalled: Bool = false
        /// The process outlived the timeout given to ``CommandRunner/run(_:environment:launcher:timeout:)`` and was killed.
        public var timedOut: Bool = false
    }

    /// The executable under test: `$COREDATA_BIN`, or the debug build beside the package.
    public static var executable: URL {
        if let override = ProcessInfo.processInfo.environment["COREDATA_BIN"] {
            return URL(fileURLWithPath: override)
        }
        return Fixtures.projectRoot.appendingPathComponent(".build/debug/coredata")
    }

    /// Runs `coredata ARGUMENTS`; with a `launcher` (for example `setpriv --reuid=…`), runs it through that. With a
    /// `timeout`, a process still running then is killed (SIGKILL) and the result says so.
    public static func run(_ arguments: [String], environment: [String: String] = [:], launcher: [String] = [],
                           timeout: Duration? = nil) throws -> Result {
        let process = Process()
        if let program = launcher.first {
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = Array(launcher.dropFirst()) + [executable.path] + arguments
        } else {
            process.executableURL = executable
            process.arguments = arguments
        }
        var merged = ProcessInfo.processInfo.environment
        merged.merge(environment) { _, new in new }
        process.environment = merged
        let output = Pipe(), error = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let killed = KillFlag()
        if let timeout {
            let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [process] in
                guard process.isRunning else { return }
                killed.set()
                kill(process.processIdentifier, SIGKILL)
            }
        }
        // Both pipes are drained at once, before waiting: read one after the other, a child that fills the second
        // pipe's buffer (64 KB of diagnostics) while the first is still open would block, and so would this reader.
        let errorDrain = PipeDrain(error.fileHandleForReading)
        let outData = output.fileHandleForReading.readDataToEndOfFile()
        let errData = errorDrain.waitForData()
        process.waitUntilExit()
        return Result(status: process.terminationStatus,
                      standardOutput: String(decoding: outData, as: UTF8.self),
                      standardError: String(decoding: errData, as: UTF8.self),
                      wasSignalled: process.terminationReason == .uncaughtSignal,
                      timedOut: killed.isSet)
    }
}

/// Set once by the timeout's kill, read after the process ended.
private final class KillFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}

/// Reads a pipe to its end on a thread of its own (a blocking read would tie up a shared dispatch worker).
private final class PipeDrain: @unchecked Sendable {
    private let finished = DispatchSemaphore(value: 0)
    private var data = Data()

    init(_ handle: FileHandle) {
        let thread = Thread { [self] in
            data = handle.readDataToEndOfFile()
            finished.signal()
        }
        thread.start()
    }

    /// Everything the pipe carried, once its writer closed it.
    func waitForData() -> Data {
        finished.wait()
        return data
    }
}
