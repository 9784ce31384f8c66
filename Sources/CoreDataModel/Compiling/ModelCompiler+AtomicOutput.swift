import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension ModelCompiler {
    /// Puts a compiled model in place whole: written under a hidden temporary name in the destination's directory,
    /// then renamed over it. A `.mom` is replaced by one `rename`; a `.momd` (a directory, which `rename` cannot
    /// replace) by moving the old one aside, renaming the new one in, and removing the old one (moved back when the
    /// second rename fails). Errors name the path concerned.
    enum AtomicOutput {
        static func writeFile(_ data: Data, to url: URL) throws(ModelError) {
            try checkReplaceable(url, wantDirectory: false)
            let temporary = temporaryURL(for: url)
            do {
                try data.write(to: temporary)
            } catch {
                try? FileManager.default.removeItem(at: temporary)
                throw ModelError(file: temporary.path, reason: "cannot be written (\(error.localizedDescription))")
            }
            guard rename(temporary.path, url.path) == 0 else {
                let reason = lastErrorText()
                try? FileManager.default.removeItem(at: temporary)
                throw ModelError(file: url.path, reason: "cannot be replaced (\(reason))")
            }
        }

        static func writeDirectory(_ files: [(name: String, data: Data)], to url: URL) throws(ModelError) {
            try checkReplaceable(url, wantDirectory: true)
            let temporary = temporaryURL(for: url)
            var placed = false
            defer { if !placed { try? FileManager.default.removeItem(at: temporary) } }
            do {
                try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: false)
            } catch {
                throw ModelError(file: temporary.path, reason: "cannot be created (\(error.localizedDescription))")
            }
            for file in files {
                let fileURL = temporary.appendingPathComponent(file.name)
                do {
                    try file.data.write(to: fileURL)
                } catch {
                    throw ModelError(file: fileURL.path, reason: "cannot be written (\(error.localizedDescription))")
                }
            }
            var aside: URL?
            if FileManager.default.fileExists(atPath: url.path) {
                let old = temporaryURL(for: url, purpose: "replaced")
                guard rename(url.path, old.path) == 0 else {
                    throw ModelError(file: url.path, reason: "cannot be moved aside to be replaced (\(lastErrorText()))")
                }
                aside = old
            }
            guard rename(temporary.path, url.path) == 0 else {
                let reason = lastErrorText()
                if let aside { _ = rename(aside.path, url.path) }
                throw ModelError(file: url.path, reason: "cannot be put in place (\(reason))")
            }
            placed = true
            if let aside { try? FileManager.default.removeItem(at: aside) }
        }

        /// Refuses to replace something that is not a compiled model of the same kind (a directory where a `.mom`
        /// goes, a file where a `.momd` goes), and creates the destination's directory when missing.
        private static func checkReplaceable(_ url: URL, wantDirectory: Bool) throws(ModelError) {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue != wantDirectory {
                throw ModelError(file: url.path, reason: isDirectory.boolValue
                    ? "is a directory; refusing to replace it with a compiled model file"
                    : "is a file; refusing to replace it with a compiled model directory")
            }
            let parent = url.deletingLastPathComponent()
            do {
                try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
            } catch {
                throw ModelError(file: parent.path, reason: "cannot be created (\(error.localizedDescription))")
            }
        }

        private static func temporaryURL(for url: URL, purpose: String = "compiling") -> URL {
            url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(purpose)-\(UUID().uuidString)")
        }

        private static func lastErrorText() -> String {
            String(cString: strerror(errno))
        }
    }
}
