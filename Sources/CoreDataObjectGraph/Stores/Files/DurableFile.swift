import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a whole file so that it survives a power cut once the call returns: the bytes go to a temporary file in the
/// same directory, which is flushed to the device (`fsync`), renamed over the destination, and the directory is
/// flushed too, so the new name is durable. A store calls it before committing the row that names the file: a
/// committed row then never points at a missing or partial file, whatever happens after.
///
/// Foundation's `.atomic` write renames but does not flush, which leaves exactly that window open.
enum DurableFile {
    /// Writes `data` to `url` durably. On failure nothing is left at `url` that was not there before, and the
    /// temporary file is removed.
    ///
    /// - Throws: a `POSIXError` carrying the `errno` of the step that failed (`ENOSPC` for a full disk, `EFBIG` past a
    ///   file size limit, …).
    static func write(_ data: Data, to url: URL) throws {
        let directory = url.deletingLastPathComponent().path
        let temporary = directory + "/." + url.lastPathComponent + ".tmp-" + String(UInt64.random(in: 0 ... .max), radix: 36)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw posixError() }
        var renamed = false
        defer { if !renamed { unlink(temporary) } }
        do {
            defer { close(descriptor) }
            try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
                var offset = 0
                while offset < buffer.count {
                    let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                    if written < 0 {
                        if errno == EINTR { continue }
                        throw posixError()
                    }
                    offset += written
                }
            }
            guard fsync(descriptor) == 0 else { throw posixError() }
        }
        guard rename(temporary, url.path) == 0 else { throw posixError() }
        renamed = true
        try synchronizeDirectory(directory)
    }

    /// Flushes a directory's entries (a file created, renamed or removed in it) to the device.
    static func synchronizeDirectory(_ path: String) throws {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw posixError() }
        defer { close(descriptor) }
        // Some file systems do not flush directories (EINVAL): there is nothing more to do on them.
        guard fsync(descriptor) == 0 || errno == EINVAL else { throw posixError() }
    }

    private static func posixError() -> POSIXError {
        POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
    }
}
