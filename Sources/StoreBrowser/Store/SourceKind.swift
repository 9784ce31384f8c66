import Foundation

/// Whether a path is a store or a model, by what it is rather than only by its name.
public enum SourceKind: Equatable {
    case store, model

    /// What `url` holds; throws when it is missing or unreadable.
    public static func detect(_ url: URL) throws -> SourceKind {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw StoreAccessError("\(url.path): no such file or directory")
        }
        if isDirectory.boolValue { return .model }
        if ["xcdatamodel", "xcdatamodeld", "mom", "momd", "xml"].contains(url.pathExtension) || url.lastPathComponent == "contents" {
            return .model
        }
        guard let handle = FileHandle(forReadingAtPath: url.path) else {
            throw StoreAccessError("\(url.path): cannot be read (permission denied)")
        }
        defer { try? handle.close() }
        let header = (try? handle.read(upToCount: 16)) ?? Data()
        if header.starts(with: Array("SQLite format 3".utf8)) { return .store }
        if header.starts(with: Array("bplist".utf8)) || header.starts(with: Array("<?xml".utf8)) || header.starts(with: Array("<model".utf8)) {
            return .model
        }
        // Anything else is treated as a store, so the store reader names the precise problem.
        return .store
    }
}
