import CoreDataTestSupport
@testable import CoreDataObjectGraph
import Foundation
import Testing

/// External data files are written whole and flushed before the row naming them commits (`DurableFile`).
struct DurableFileTests {
    @Test func writesTheBytesAndLeavesNoTemporaryFile() throws {
        let directory = try TemporaryDirectory.make(prefix: "durable")
        let file = directory.appendingPathComponent("blob")
        let bytes = Data((0 ..< 100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try DurableFile.write(bytes, to: file)
        #expect(try Data(contentsOf: file) == bytes)
        // Replacing keeps one file, the new one.
        try DurableFile.write(Data("second".utf8), to: file)
        #expect(try Data(contentsOf: file) == Data("second".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["blob"])
    }

    @Test func aFailureNamesItsErrnoAndLeavesNothingBehind() throws {
        let directory = try TemporaryDirectory.make(prefix: "durable")
        let missing = directory.appendingPathComponent("no-such-folder/blob")
        let error = #expect(throws: POSIXError.self) { try DurableFile.write(Data("x".utf8), to: missing) }
        #expect(error?.code == .ENOENT)
        #expect(NSSQLiteStore.fileSystemReason(error!).contains("No such file or directory"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }
}
