import CoreDataTestSupport
import Foundation
import SQLiteDatabase

/// A path for a new database file in a fresh temporary directory.
func temporaryDatabasePath(_ name: String = "test.sqlite") throws -> String {
    try TemporaryDirectory.make(prefix: "sqlitedatabase").appendingPathComponent(name).path
}

/// Creates a file holding `bytes`.
func writeFile(_ bytes: [UInt8], to path: String) throws {
    try Data(bytes).write(to: URL(fileURLWithPath: path))
}

/// Sets POSIX permissions on `path`.
func setPermissions(_ permissions: Int, of path: String) throws {
    try FileManager.default.setAttributes([.posixPermissions: permissions], ofItemAtPath: path)
}

/// Whether a new file can be created in `directory` despite its permissions (tests run as root, for whom a
/// read-only directory is writable).
func canStillCreateFiles(in directory: String) -> Bool {
    let probe = directory + "/.write-probe-\(UUID().uuidString)"
    guard FileManager.default.createFile(atPath: probe, contents: Data()) else { return false }
    try? FileManager.default.removeItem(atPath: probe)
    return true
}

extension Connection {
    /// The first column of the first row as an integer, for assertions.
    func integer(_ sql: String, _ arguments: [SQLiteValue] = []) throws -> Int64? {
        try scalar(sql, arguments: arguments)?.int64Value
    }
}
