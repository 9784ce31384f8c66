import CoreDataTestSupport
import Foundation
import Testing

/// `coredata compile-model IN OUT` and `ocd-momc SOURCE DEST` (the build plugin's tool), through the real executables.
struct CompileModelCommandTests {
    static let garden = Fixtures.projectRoot.appendingPathComponent("Tests/ModelCompilerPluginTests/Garden.xcdatamodeld").path

    @Test func compilesIntoADirectoryAndTheResultOpens() throws {
        let directory = try TemporaryDirectory.make(prefix: "compile-model")
        let result = try CommandRunner.run(["compile-model", Self.garden, directory.appendingPathComponent("Resources").path])
        let momd = directory.appendingPathComponent("Resources/Garden.momd")
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput == "\(momd.path): 2 versions: Garden, Garden 2 (current)\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: momd.path).sorted() == ["Garden 2.mom", "Garden.mom", "VersionInfo.plist"])
        // `coredata schema` reads the compiled model as it reads the source.
        let schema = try CommandRunner.run(["schema", momd.path, "--format", "json"])
        let source = try CommandRunner.run(["schema", Self.garden, "--format", "json"])
        #expect(schema.status == 0 && source.status == 0, "\(schema.standardError)\(source.standardError)")
        #expect(schema.standardOutput.contains("\"species\""))
    }

    @Test func usageErrorsExitTwoAndRuntimeFailuresOne() throws {
        let directory = try TemporaryDirectory.make(prefix: "compile-model")
        let help = try CommandRunner.run(["compile-model", "--help"])
        #expect(help.status == 0 && help.standardOutput.contains("USAGE: coredata compile-model <input> <output>"), "\(help.standardOutput)")
        let missingArgument = try CommandRunner.run(["compile-model", Self.garden])
        #expect(missingArgument.status == 2, "\(missingArgument.standardError)")
        let wrongKind = try CommandRunner.run(["compile-model", Self.garden, directory.appendingPathComponent("Garden.mom").path])
        #expect(wrongKind.status == 2 && wrongKind.standardError.contains("compiles to a .momd, not a .mom"), "\(wrongKind.standardError)")
        let compiled = try CommandRunner.run(["compile-model", directory.appendingPathComponent("Garden.momd").path, directory.path])
        #expect(compiled.status == 2 && compiled.standardError.contains("is already a compiled model"), "\(compiled.standardError)")
        let missing = directory.appendingPathComponent("Nothing.xcdatamodeld").path
        let failure = try CommandRunner.run(["compile-model", missing, directory.path])
        #expect(failure.status == 1 && failure.standardError == "coredata: error: \(missing): no such file or directory\n", "\(failure.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    /// The plugin's tool, on its own: the same output, momc's two arguments, usage errors exit 2.
    @Test func ocdMomcCompilesLikeTheCommand() throws {
        let tool = CommandRunner.executable.deletingLastPathComponent().appendingPathComponent("ocd-momc")
        func run(_ arguments: [String]) throws -> (status: Int32, error: String) {
            let process = Process()
            process.executableURL = tool
            process.arguments = arguments
            let error = Pipe()
            process.standardError = error
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            let data = error.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: data, as: UTF8.self))
        }
        let directory = try TemporaryDirectory.make(prefix: "ocd-momc")
        let ok = try run([Self.garden, directory.appendingPathComponent("Out.momd").path])
        #expect(ok.status == 0, "\(ok.error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("Out.momd").path).sorted()
                    == ["Garden 2.mom", "Garden.mom", "VersionInfo.plist"])
        #expect(try run([Self.garden]).status == 2)
        let bad = try run([directory.appendingPathComponent("None.xcdatamodeld").path, directory.path])
        #expect(bad.status == 1 && bad.error.contains("None.xcdatamodeld: no such file or directory"), "\(bad.error)")
    }
}
