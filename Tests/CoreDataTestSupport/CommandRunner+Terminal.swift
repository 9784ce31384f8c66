import Foundation

#if canImport(Glibc)
import Glibc
#endif

extension CommandRunner {
    /// Runs `coredata ARGUMENTS` with standard error on a pseudo-terminal (raw mode, so the bytes arrive as
    /// written) and standard output on a pipe: what a user at a terminal sees of progress bars and notes, while
    /// the results are redirected. `standardError` of the result holds what the terminal received.
    public static func runWithTerminalStandardError(_ arguments: [String], environment: [String: String] = [:]) throws -> Result {
        let pty = try PseudoTerminalCalls()
        let master = pty.openMaster(O_RDWR | O_NOCTTY)
        guard master >= 0, pty.grant(master) == 0, pty.unlock(master) == 0, let name = pty.slaveName(master) else {
            throw TerminalRunError("cannot open a pseudo-terminal: \(String(cString: strerror(errno)))")
        }
        let slave = open(name, O_RDWR | O_NOCTTY)
        guard slave >= 0 else {
            close(master)
            throw TerminalRunError("cannot open \(String(cString: name)): \(String(cString: strerror(errno)))")
        }
        var settings = termios()
        tcgetattr(slave, &settings)
        cfmakeraw(&settings)
        tcsetattr(slave, TCSANOW, &settings)

        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var merged = ProcessInfo.processInfo.environment
        merged.merge(environment) { _, new in new }
        process.environment = merged
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            close(slave)
            close(master)
            throw error
        }
        // Only the child holds the terminal now: reading its end ends (EIO) when the child exits.
        close(slave)
        let terminal = TerminalBytes()
        let reader = Thread { terminal.drain(master) }
        reader.start()
        let outData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let errData = terminal.waitForEnd()
        close(master)
        return Result(status: process.terminationStatus,
                      standardOutput: String(decoding: outData, as: UTF8.self),
                      standardError: String(decoding: errData, as: UTF8.self),
                      wasSignalled: process.terminationReason == .uncaughtSignal)
    }
}

/// glibc's pseudo-terminal calls, which its Swift module leaves out (they need `_XOPEN_SOURCE`): looked up by name.
private struct PseudoTerminalCalls {
    let openMaster: @convention(c) (Int32) -> Int32
    let grant: @convention(c) (Int32) -> Int32
    let unlock: @convention(c) (Int32) -> Int32
    let slaveName: @convention(c) (Int32) -> UnsafeMutablePointer<CChar>?

    init() throws {
        func symbol<T>(_ name: String, as type: T.Type) throws -> T {
            guard let address = dlsym(nil, name) else { throw TerminalRunError("\(name) is not available: \(String(cString: dlerror()))") }
            return unsafeBitCast(address, to: type)
        }
        openMaster = try symbol("posix_openpt", as: (@convention(c) (Int32) -> Int32).self)
        grant = try symbol("grantpt", as: (@convention(c) (Int32) -> Int32).self)
        unlock = try symbol("unlockpt", as: (@convention(c) (Int32) -> Int32).self)
        slaveName = try symbol("ptsname", as: (@convention(c) (Int32) -> UnsafeMutablePointer<CChar>?).self)
    }
}

/// A pseudo-terminal could not be set up for ``CommandRunner/runWithTerminalStandardError(_:environment:)``.
public struct TerminalRunError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

/// The bytes read from a terminal's master end on a thread of their own, handed over when the reading ends.
private final class TerminalBytes: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var data = Data()

    func drain(_ descriptor: Int32) {
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            if count > 0 {
                data.append(contentsOf: buffer[..<count])
            } else if count < 0 && errno == EINTR {
                continue
            } else {
                break
            }
        }
        done.signal()
    }

    func waitForEnd() -> Data {
        done.wait()
        return data
    }
}
