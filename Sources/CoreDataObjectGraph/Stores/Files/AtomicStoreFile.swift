import Foundation

/// How an atomic store (XML, binary, custom) replaces its file on save: the whole new file is written to a temporary
/// file in the same directory, flushed to the device, and renamed over the old one (`DurableFile`), so a crash, a
/// `kill -9` or a full disk at any moment leaves either the old file or the new one, whole, never a mix.
package enum AtomicStoreFile {
    /// Replaces the file at `url` with `data` atomically and durably, creating its directory when missing. On failure
    /// the old file is untouched and no temporary file is left; the error names the file and the reason.
    package static func write(_ data: Data, to url: URL) throws {
        let directory = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try DurableFile.write(data, to: url)
        } catch {
            throw CoreDataError(.persistentStoreSave, "\(url.path): the store could not be written (\(data.count) bytes); the file on disk "
                                + "is as it was: \(NSSQLiteStore.fileSystemReason(error))", underlyingError: error)
        }
    }
}

extension NSAtomicStore {
    /// Writes a store file the way ``save()`` should: all of `data` to a temporary file beside `url`, flushed, then
    /// renamed over `url`, so the old file stays whole until the new one is complete. Throws a `CoreDataError` naming
    /// the file when it cannot be written; the old file is then untouched.
    public func writeAtomically(_ data: Data, to url: URL) throws {
        try AtomicStoreFile.write(data, to: url)
    }
}
