import Foundation
import Testing

/// The example program (`Examples/NotesExample`, written for Apple's platforms) runs on Linux and prints what it
/// would print there: a container from a model file, subclasses with lifecycle hooks, a background import, a child
/// context edit, undo, and a validation error read through `NSError`.
struct ExampleProgramTests {
    @Test func theNotesExampleRunsAsOnApplesPlatforms() throws {
        // Beside the coredata binary under test (a sanitized build's scratch folder), else the debug build.
        let folder = ProcessInfo.processInfo.environment["COREDATA_BIN"].map { URL(fileURLWithPath: $0).deletingLastPathComponent() }
            ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent(".build/debug")
        let binary = folder.appendingPathComponent("core-data-example")
        try #require(FileManager.default.isExecutableFile(atPath: binary.path), "build the package first (swift build)")
        let process = Process()
        process.executableURL = binary
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        #expect(process.terminationStatus == 0, "\(text)")
        #expect(text == """
            imported 3 notes
            Buy milk (2 words, in Inbox)
            Call the plumber today (4 words, in Inbox)
            Read the Core Data guide (5 words, in Inbox)
            edited: Buy oat milk, Call the plumber today, Read the Core Data guide
            after undo: Buy oat milk
            save refused: domain NSCocoaErrorDomain, code 1670, key title
            notes in the store: 3

            """)
    }
}
