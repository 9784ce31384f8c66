import CoreDataModel
import Foundation

/// Finds the model `NSPersistentContainer(name:)` names, where a program on Linux keeps it: beside the executable,
/// in its resource bundles, or in the current directory.
enum ModelLocator {
    /// The file names tried in each directory, compiled models first (what Xcode puts in an app bundle).
    static func candidateNames(for name: String) -> [String] {
        ["momd", "mom", "xcdatamodeld", "xcdatamodel"].map { "\(name).\($0)" }
    }

    /// The directories searched, in order, without repeats: the executable's directory, `Bundle.main`'s resources,
    /// SwiftPM resource bundles beside the executable (`PACKAGE_TARGET.resources`), and the current directory.
    static func searchDirectories() -> [URL] {
        var directories: [URL] = []
        let executableDirectory = Bundle.main.executableURL?.resolvingSymlinksInPath().deletingLastPathComponent()
        if let executableDirectory { directories.append(executableDirectory) }
        if let resources = Bundle.main.resourceURL { directories.append(resources) }
        if let executableDirectory,
           let entries = try? FileManager.default.contentsOfDirectory(at: executableDirectory, includingPropertiesForKeys: nil) {
            directories += entries.filter { $0.pathExtension == "resources" }.sorted { $0.path < $1.path }
        }
        directories.append(URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true))
        var seen = Set<String>()
        return directories.filter { seen.insert($0.standardizedFileURL.path).inserted }
    }

    /// The current version of the model named `name`, or an error naming where it was looked for, or why the file
    /// found could not be read.
    static func model(named name: String) throws -> NSManagedObjectModel {
        let directories = searchDirectories()
        for directory in directories {
            for candidate in candidateNames(for: name) {
                let url = directory.appendingPathComponent(candidate)
                guard FileManager.default.fileExists(atPath: url.path) else { continue }
                do {
                    return try ModelLoader.loadModel(at: url)
                } catch {
                    throw CoreDataError(.persistentStoreOpen, "NSPersistentContainer(name: \"\(name)\"): cannot load its model: \(error)",
                                        underlyingError: error)
                }
            }
        }
        throw CoreDataError(
            .persistentStoreOpen,
            "NSPersistentContainer(name: \"\(name)\"): no model named \(name) (\(candidateNames(for: name).joined(separator: ", "))) in "
                + directories.map(\.path).joined(separator: ", "))
    }
}
