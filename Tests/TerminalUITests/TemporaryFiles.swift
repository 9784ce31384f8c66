import Foundation

/// Temporary directories for history files.
enum TemporaryFiles {
    static func directory() throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("terminalui-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path
    }

    static func permissions(of path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }
}
