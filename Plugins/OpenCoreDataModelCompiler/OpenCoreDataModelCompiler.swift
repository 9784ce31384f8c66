import Foundation
import PackagePlugin

/// Compiles every `.xcdatamodeld` and `.xcdatamodel` in a target into `NAME.momd` or `NAME.mom` among the target's
/// resources, as Xcode does on Apple's platforms, so `Bundle.module.url(forResource: "Model", withExtension: "momd")`
/// and `NSPersistentContainer(name: "Model")` find the compiled model on Linux too. SwiftPM bundles a build
/// command's outputs that are not sources as resources.
@main
struct OpenCoreDataModelCompiler: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let compiler = try context.tool(named: "ocd-momc").url
        let models = target.sourceFiles.map(\.url).filter { url in
            // A version inside a package is compiled with its package, not on its own.
            url.pathExtension == "xcdatamodeld"
                || (url.pathExtension == "xcdatamodel" && url.deletingLastPathComponent().pathExtension != "xcdatamodeld")
        }
        return models.map { model in
            let compiled = model.pathExtension == "xcdatamodeld" ? "momd" : "mom"
            let output = context.pluginWorkDirectoryURL.appending(path: model.deletingPathExtension().lastPathComponent)
                .appendingPathExtension(compiled)
            return .buildCommand(
                displayName: "Compiling Core Data model \(model.lastPathComponent)",
                executable: compiler,
                arguments: [model.path, output.path],
                inputFiles: [model] + Self.files(in: model),
                outputFiles: [output])
        }
    }

    /// Every file inside a model package or version, so an edit to any of them compiles the model again.
    static func files(in directory: URL) -> [URL] {
        guard let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.isRegularFileKey]) else {
            return []
        }
        return enumerator.compactMap { $0 as? URL }.filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
    }
}
