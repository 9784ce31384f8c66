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
        if isDirectory.boolValue { return .model }
        // Reading a named pipe waits for a writer forever, and a device can be endless: only regular files are read.
        var info = stat()
        if stat(url.path, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
            throw StoreAccessError("\(url.path): is \(Self.describeFileType(info.st_mode & S_IFMT)), not a file; a store is a .sqlite file")
        }
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
