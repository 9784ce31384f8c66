import CoreDataObjectGraph
import Foundation

/// Whether a path is a store or a model, by what it is rather than only by its name.
package enum SourceKind: Equatable {
    case store, model

    /// What `url` holds; throws when it is missing or unreadable.
    package static func detect(_ url: URL) throws -> SourceKind {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw StoreAccessError("\(url.path): no such file or directory")
        }
        if isDirectory.boolValue { return isModelDirectory(url) ? .model : .store }
        // Reading a named pipe waits for a writer forever, and a device can be endless: only regular files are read.
        var info = stat()
        if stat(url.path, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
            throw StoreAccessError("\(url.path): is \(Self.describeFileType(info.st_mode & S_IFMT)), not a file; a store is a .sqlite file")
        }
        // An XML or binary store, whatever its name (an Xcode mapping model is an XML store called xcmapping.xml).
        if let type = try? NSPersistentStoreCoordinator.storeType(ofFileAt: url), type != NSSQLiteStoreType { return .store }
        if ["xcdatamodel", "xcdatamodeld", "mom", "momd", "xml"].contains(url.pathExtension) || url.lastPathComponent == "contents" {
            return .model
        }
        guard let handle = FileHandle(forReadingAtPath: url.path) else {
            throw StoreAccessError("\(url.path): cannot be read (permission denied)")
        }
        defer { try? handle.close() }
        let header = (try? handle.read(upToCount: 16)) ?? Data()
        // SQLite would call an empty file a fresh database; a store always has at least its header.
        if header.isEmpty { throw StoreAccessError("\(url.path) is empty (0 bytes): not a Core Data store") }
        if header.starts(with: Array("SQLite format 3".utf8)) { return .store }
        if header.starts(with: Array("bplist".utf8)) || header.starts(with: Array("<?xml".utf8)) || header.starts(with: Array("<model".utf8)) {
            return .model
        }
        // Anything else is treated as a store, so the store reader names the precise problem.
        return .store
    }

    /// The store `path` names: `path` itself, or for a directory that is not a model the one `.sqlite` file in it
    /// (`coredata SampleStores/Recipes` opens `SampleStores/Recipes/Recipes.sqlite`). Throws, listing them, when the
    /// directory holds several stores, and says so when it holds none.
    package static func storeFile(at path: String) throws -> String {
        var isDirectory: ObjCBool = false
        let url = URL(fileURLWithPath: path)
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue,
              !isModelDirectory(url) else { return path }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: path)
        } catch {
            throw StoreAccessError("\(path): the directory cannot be read (permission denied)")
        }
        let stores = names.filter { name in
            var isSubdirectory: ObjCBool = false
            return name.hasSuffix(".sqlite")
                && FileManager.default.fileExists(atPath: url.appendingPathComponent(name).path, isDirectory: &isSubdirectory)
                && !isSubdirectory.boolValue
        }.sorted()
        switch stores.count {
        case 1:
            return url.appendingPathComponent(stores[0]).path
        case 0:
            throw StoreAccessError("\(path) is a directory with no .sqlite store in it, and not a model (no contents or elements file)")
        default:
            throw StoreAccessError("\(path) holds \(stores.count) stores; name one: " + stores.map { url.appendingPathComponent($0).path }.joined(separator: ", "))
        }
    }

    /// A model package or version directory, by its name or by the model file inside it (what `ModelLoader` reads).
    private static func isModelDirectory(_ url: URL) -> Bool {
        ["xcdatamodeld", "xcdatamodel", "momd"].contains(url.pathExtension)
            || FileManager.default.fileExists(atPath: url.appendingPathComponent("contents").path)
            || FileManager.default.fileExists(atPath: url.appendingPathComponent("elements").path)
    }

    private static func describeFileType(_ type: mode_t) -> String {
        switch type {
        case S_IFIFO: "a named pipe"
        case S_IFSOCK: "a socket"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        default: "a special file"
        }
    }
}
