import AtomicStoreFormats
import Foundation

extension NSPersistentStoreCoordinator {
    /// The store type of the file at `url`, told from its first bytes (an OpenCoreData addition, for tools that open
    /// any store): `NSSQLiteStoreType` for SQLite's header, `NSXMLStoreType` for an XML document whose root element
    /// is `<database>`, `NSBinaryStoreType` for the binary store's magic; nil for anything else (a store of a custom
    /// type, or no store). Throws when the file cannot be read.
    public static func storeType(ofFileAt url: URL) throws -> String? {
        guard let handle = FileHandle(forReadingAtPath: url.path) else {
            let reason = FileManager.default.fileExists(atPath: url.path) ? "cannot be read (permission denied)" : "no such file"
            throw CoreDataError(.persistentStoreOpen, "\(url.path): \(reason)")
        }
        defer { try? handle.close() }
        let prefix: Data
        do {
            prefix = try handle.read(upToCount: 4096) ?? Data()
        } catch {
            throw CoreDataError(.persistentStoreOpen, "\(url.path): cannot be read (\(NSSQLiteStore.fileSystemReason(error)))", underlyingError: error)
        }
        if prefix.starts(with: Data("SQLite format 3\0".utf8)) { return NSSQLiteStoreType }
        switch StoreFileFormat.detect(prefix) {
        case .xml?: return NSXMLStoreType
        case .binary?: return NSBinaryStoreType
        case nil: return nil
        }
    }
}
