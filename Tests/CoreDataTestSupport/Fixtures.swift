import Foundation

/// Locates the Apple-written fixtures in `../shared/fixtures/` (relative to the project root) and copies them
/// into temporary directories before use, as `shared/fixtures/README.md` requires: opening a WAL store creates
/// `-shm` files, and tests that write must never touch the originals.
public enum Fixtures {
    /// The project root, found from this file's location (`Tests/CoreDataTestSupport/Fixtures.swift`).
    public static let projectRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent()

    /// `../shared/fixtures` beside the project, or nil when this checkout is outside the workplace.
    public static let root: URL? = {
        let url = projectRoot.deletingLastPathComponent().appendingPathComponent("shared/fixtures")
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
            ? url : nil
    }()

    /// Why fixture tests are skipped, for `.enabled(if:)` traits and log lines.
    public static let absenceMessage =
        "../shared/fixtures is absent (checkout outside the workplace): Apple-fixture tests are skipped"

    public static var isAvailable: Bool { root != nil }

    /// The original, read-only fixture at `relativePath` (for example `stores/apple-recipes-ios11/Recipes.sqlite`).
    public static func original(_ relativePath: String) throws -> URL {
        guard let root else { throw FixtureError.fixturesAbsent }
        let url = root.appendingPathComponent(relativePath)
        guard FileManager.default.fileExists(atPath: url.path) else { throw FixtureError.missing(relativePath) }
        return url
    }

    /// Copies the fixture at `relativePath` (a file or a directory) into a fresh temporary directory, together with
    /// any SQLite side files (`-wal`, `-shm`, `-journal`) beside it, and returns the copy's URL.
    public static func copy(_ relativePath: String) throws -> URL {
        let source = try original(relativePath)
        let directory = try TemporaryDirectory.make(prefix: "fixture")
        let destination = directory.appendingPathComponent(source.lastPathComponent)
        try copyItemMakingWritable(source, to: destination)
        for suffix in ["-wal", "-shm", "-journal"] {
            let side = URL(fileURLWithPath: source.path + suffix)
            if FileManager.default.fileExists(atPath: side.path) {
                try copyItemMakingWritable(side, to: URL(fileURLWithPath: destination.path + suffix))
            }
        }
        return destination
    }

    /// Every store (`*.sqlite`) in `stores/`, as paths relative to the fixture root.
    public static func allStores() -> [String] {
        guard let root else { return [] }
        let storesURL = root.appendingPathComponent("stores")
        let folders = (try? FileManager.default.contentsOfDirectory(atPath: storesURL.path)) ?? []
        return folders.sorted().flatMap { folder -> [String] in
            let files = (try? FileManager.default.contentsOfDirectory(atPath: storesURL.appendingPathComponent(folder).path)) ?? []
            return files.filter { $0.hasSuffix(".sqlite") }.sorted().map { "stores/\(folder)/\($0)" }
        }
    }

    private static func copyItemMakingWritable(_ source: URL, to destination: URL) throws {
        try FileManager.default.copyItem(at: source, to: destination)
        // Fixtures are read-only on disk; copies must be writable for tests that write.
        let enumerator = FileManager.default.enumerator(atPath: destination.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: destination.path)
        while let child = enumerator?.nextObject() as? String {
            try FileManager.default.setAttributes(
                [.posixPermissions: 0o755], ofItemAtPath: destination.appendingPathComponent(child).path)
        }
    }
}

public enum FixtureError: Error, CustomStringConvertible {
    case fixturesAbsent
    case missing(String)

    public var description: String {
        switch self {
        case .fixturesAbsent: return Fixtures.absenceMessage
        case .missing(let path): return "fixture \(path) does not exist in ../shared/fixtures"
        }
    }
}

/// Temporary directories for tests, removed by the operating system's tmp cleaning; each call makes a new one.
public enum TemporaryDirectory {
    public static func make(prefix: String = "opencoredata") throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
