import Foundation

/// Runs the built `coredata` executable as a user would, capturing its output and exit status.
public enum CommandRunner {
    public struct Result: Sendable {
        public var status: Int32
        public var standardOutput: String
        public var standardError: String
    }

    /// The executable under test: `$COREDATA_BIN`, or the debug build beside the package.
    public static var executable: URL {
        if let override = ProcessInfo.processInfo.environment["COREDATA_BIN"] {
            return URL(fileURLWithPath: override)
        }
        return Fixtures.projectRoot.appendingPathComponent(".build/debug/coredata")
    }

    /// Runs `coredata ARGUMENTS`; with a `launcher` (for example `setpriv --reuid=…`), runs it through that.
    public static func run(_ arguments: [String], environment: [String: String] = [:], launcher: [String] = []) throws -> Result {
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
        // Read both pipes before waiting, so a large output cannot block the child.
        let outData = output.fileHandleForReading.readDataToEndOfFile()
        let errData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus,
                      standardOutput: String(decoding: outData, as: UTF8.self),
                      standardError: String(decoding: errData, as: UTF8.self))
    }
}
