import CoreDataTestSupport
import Foundation
import Testing

/// Files and directories the user may not read. Tests usually run as root, for whom permissions do not apply,
/// so the command runs as the unprivileged `nobody` through `setpriv` when the tests are root.
struct UnreadableInputTests {
    private static let isRoot = getuid() == 0
    private static let canDropPrivileges = !isRoot || FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")

    private func runUnprivileged(_ arguments: [String]) throws -> CommandRunner.Result {
        let launcher = Self.isRoot ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : []
        return try CommandRunner.run(arguments, launcher: launcher)
    }

    @Test(.enabled(if: canDropPrivileges, "neither unprivileged nor able to drop privileges with setpriv"))
    func unreadableModelDirectory() throws {
        let package = try TemporaryDirectory.make().appendingPathComponent("Locked.xcdatamodeld")
        let version = package.appendingPathComponent("Locked.xcdatamodel")
        try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
        try Data("<model><entity name=\"A\"/></model>".utf8).write(to: version.appendingPathComponent("contents"))
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: package.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: package.path) }
        let result = try runUnprivileged(["schema", package.path])
        #expect(result.status == 1, "\(result.standardOutput)\(result.standardError)")
        #expect(result.standardError.contains(package.path))
        #expect(result.standardError.contains("cannot"))
    }

    @Test(.enabled(if: canDropPrivileges, "neither unprivileged nor able to drop privileges with setpriv"))
    func unreadableStoreFile() throws {
        let url = try TemporaryDirectory.make().appendingPathComponent("Secret.sqlite")
        try Data("SQLite format 3\0".utf8).write(to: url)
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: url.path)
        let result = try runUnprivileged(["schema", url.path])
        #expect(result.status == 1)
        #expect(result.standardError.contains("permission denied"))
    }
}
