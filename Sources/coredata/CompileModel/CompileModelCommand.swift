import ArgumentParser
import CoreDataModel
import Foundation

/// `coredata compile-model IN OUT`: what Apple's model compiler (`momc SOURCE DEST`) writes into an app bundle,
/// so code that loads `Model.momd` runs unchanged on Linux.
struct CompileModelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compile-model",
        abstract: "Compile an Xcode model (.xcdatamodeld, .xcdatamodel) into a .momd or .mom, as momc does.",
        discussion: """
            A versioned model NAME.xcdatamodeld becomes NAME.momd: one VERSION.mom per version and \
            VersionInfo.plist (current version, entity version hashes, checksums). A single version \
            NAME.xcdatamodel becomes NAME.mom. OUT is the .momd or .mom to write, or a directory to write it into \
            (created when missing). The result is written beside OUT under a temporary name and renamed into \
            place, replacing an earlier compiled model. Examples:
              coredata compile-model Model.xcdatamodeld Resources/
              coredata compile-model Model.xcdatamodeld Model.momd
            """)

    @Argument(help: "The model to compile: a .xcdatamodeld package or a .xcdatamodel version.", completion: .file())
    var input: String
    @Argument(help: "The .momd or .mom to write, or a directory to write NAME.momd or NAME.mom into.", completion: .file())
    var output: String

    func validate() throws {
        let source = URL(fileURLWithPath: input)
        if ["momd", "mom"].contains(source.pathExtension) {
            throw ValidationError("\(input): is already a compiled model; give the .xcdatamodeld or .xcdatamodel it came from")
        }
        let target = ModelCompiler.outputURL(compiling: source, into: URL(fileURLWithPath: output))
        let wanted = source.pathExtension == "xcdatamodeld" ? "momd" : "mom"
        if target.pathExtension != wanted {
            throw ValidationError("\(output): \(input) compiles to a .\(wanted), not a .\(target.pathExtension)")
        }
    }

    func run() throws {
        let result: ModelCompiler.Output
        do {
            result = try ModelCompiler.compile(URL(fileURLWithPath: input), into: URL(fileURLWithPath: output))
        } catch {
            throw CommandFailure(wrapping: error)
        }
        let versions = result.versionNames.map { $0 == result.currentVersionName ? "\($0) (current)" : $0 }
        print("\(result.url.path): \(versions.count) version\(versions.count == 1 ? "" : "s"): \(versions.joined(separator: ", "))")
    }
}
