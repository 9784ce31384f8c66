import CoreDataTestSupport
import Foundation

/// The Apple-written plists and archives under `../shared/fixtures` that these tests read, found by walking the
/// folder (so new fixtures are picked up), plus helpers that pull plists out of copied stores.
enum FixtureFiles {
    /// Paths relative to the fixture root of files whose names satisfy `matches`, sorted.
    static func paths(matching matches: (String) -> Bool) -> [String] {
        guard let root = Fixtures.root,
              let enumerator = FileManager.default.enumerator(atPath: root.path) else { return [] }
        var found: [String] = []
        while let path = enumerator.nextObject() as? String {
            if matches((path as NSString).lastPathComponent) { found.append(path) }
        }
        return found.sorted()
    }

    static let compiledModels = paths { $0.hasSuffix(".mom") }
    static let versionInfoPlists = paths { $0 == "VersionInfo.plist" }
    static let currentVersionPlists = paths { $0 == ".xccurrentversion" }
    static let oldFormatArchives = [
        "stores/coredatabooks-ios4/CoreDataBooks.xcdatamodel.elements",
        "stores/coredatabooks-ios4/CoreDataBooks.xcdatamodel.layout",
    ]
    static let stores = Fixtures.allStores()

    /// The bytes of a copy of the fixture at `path`.
    static func bytes(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: Fixtures.copy(path)))
    }

    struct CommandFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs `executable` with `arguments`, feeding `input`; returns standard output.
    static func run(_ executable: String, _ arguments: [String], input: Data? = nil) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [executable] + arguments
        let output = Pipe()
        let inputPipe = Pipe()
        process.standardOutput = output
        process.standardInput = inputPipe
        try process.run()
        if let input { inputPipe.fileHandleForWriting.write(input) }
        try inputPipe.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CommandFailure(description: "\(executable) \(arguments) exited with \(process.terminationStatus)")
        }
        return data
    }

    /// Whether `executable` can be found on the PATH.
    static func hasTool(_ executable: String) -> Bool {
        (try? run("sh", ["-c", "command -v \(executable)"])) != nil
    }

    static let hasSQLite3 = hasTool("sqlite3")
    static let hasPython3 = hasTool("python3")

    /// The first column of the rows `query` returns from a read-only copy of the store, hex-decoded.
    static func blobs(fromStore store: String, query: String) throws -> [[UInt8]] {
        let copy = try Fixtures.copy(store)
        let text = String(decoding: try run("sqlite3", ["-readonly", copy.path, query]), as: UTF8.self)
        return try text.split(whereSeparator: \.isNewline).map { try hexDecoded(String($0)) }
    }

    /// Inflates a raw DEFLATE stream (how `Z_MODELCACHE` is stored) with Python's zlib: this module has no zlib.
    static func rawInflate(_ bytes: [UInt8]) throws -> [UInt8] {
        let script = "import sys, zlib; sys.stdout.buffer.write(zlib.decompress(sys.stdin.buffer.read(), -15))"
        return [UInt8](try run("python3", ["-c", script], input: Data(bytes)))
    }

    static func hexDecoded(_ text: String) throws -> [UInt8] {
        let digits = Array(text.utf8)
        guard digits.count.isMultiple(of: 2) else { throw CommandFailure(description: "odd hex length") }
        func nibble(_ digit: UInt8) throws -> UInt8 {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return digit - UInt8(ascii: "0")
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return digit - UInt8(ascii: "A") + 10
            default: throw CommandFailure(description: "bad hex digit \(digit)")
            }
        }
        return try stride(from: 0, to: digits.count, by: 2).map { try nibble(digits[$0]) << 4 | nibble(digits[$0 + 1]) }
    }
}
