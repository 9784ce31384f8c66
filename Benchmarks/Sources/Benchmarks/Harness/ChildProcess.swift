import Foundation

/// Runs this same benchmark binary as a child with `arguments` and returns the last line it printed (workloads that
/// measure resident memory run in a child, so the heap earlier workloads left behind does not count).
enum ChildProcess {
    static func lastLine(arguments: [String], describing name: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0, let line = String(data: data, encoding: .utf8)?.split(separator: "\n").last else {
            throw RawSQLiteError(message: "the \(name) child failed with status \(process.terminationStatus)")
        }
        return String(line)
    }
}
