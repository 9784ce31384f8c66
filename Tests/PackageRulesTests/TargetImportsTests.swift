import Foundation
import Testing

/// Package.swift tells the truth: every module of this package (or product of a dependency) that a target's files
/// import is among that target's declared dependencies, and every declared dependency is imported somewhere, so the
/// module graph in docs/ARCHITECTURE.md can be read off the manifest. SwiftPM alone does not enforce this: a module
/// built earlier for another target can be imported without being declared.
@Suite struct TargetImportsTests {
    /// Modules the toolchain provides; they are not declared as dependencies.
    static let toolchainModules: Set<String> = [
        "Foundation", "FoundationEssentials", "FoundationXML", "FoundationNetworking", "_FoundationICU", "Dispatch",
        "Synchronization", "Glibc", "Musl", "Darwin", "Testing", "XCTest",
    ]

    @Test func everyImportIsDeclaredAndEveryDependencyImported() throws {
        let manifest = try PackageManifest.load()
        #expect(manifest.targets.count > 20, "read only \(manifest.targets.count) targets from Package.swift")
        let knownModules = Set(manifest.targets.map(\.name)).union(manifest.productNames)
        var problems: [String] = []
        for target in manifest.targets where target.kind != .systemLibrary {
            let files = SourceFiles.swiftFiles(under: target.path)
            guard !files.isEmpty else { continue }  // C targets
            var imported: Set<String> = []
            for file in files {
                // A macro's implementation is named by `#externalMacro(module:type:)`, not imported.
                for match in file.text.matches(of: /#externalMacro\(module:\s*"([^"]+)"/) { imported.insert(String(match.output.1)) }
                for module in SourceFiles.importedModules(in: file.text) where module != target.name {
                    if knownModules.contains(module) {
                        imported.insert(module)
                        if !target.dependencies.contains(module) {
                            problems.append("\(file.path) imports \(module), which \(target.name) does not declare")
                        }
                    } else if !Self.toolchainModules.contains(module) {
                        problems.append("\(file.path) imports \(module), which is neither a module of this package nor of the toolchain")
                    }
                }
            }
            for dependency in target.dependencies.subtracting(imported).sorted() {
                problems.append("\(target.name) declares \(dependency) but none of its files imports it")
            }
        }
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    /// The reader finds what it must, or the test above would pass on an empty reading.
    @Test func theManifestReaderFindsTargetsDependenciesAndImports() throws {
        let manifest = try PackageManifest.load()
        let coredata = try #require(manifest.targets.first { $0.name == "coredata" })
        #expect(coredata.kind == .executableTarget)
        #expect(coredata.dependencies.isSuperset(of: ["StoreAccess", "ArgumentParser"]))
        #expect(!coredata.dependencies.contains("swift-argument-parser"))
        let vfs = try #require(manifest.targets.first { $0.name == "CSQLiteFaultVFS" })
        #expect(vfs.path == "Tests/CSQLiteFaultVFS")
        let text = [
            "import Foundation", "@testable import StoreBrowser", "@_exported import class Predicates.NSPredicate",
            "  public import CoreDataModel", "// import NotThis", "let importantValue = 1",
        ].joined(separator: "\n")
        #expect(SourceFiles.importedModules(in: text) == ["Foundation", "StoreBrowser", "Predicates", "CoreDataModel"])
    }
}
