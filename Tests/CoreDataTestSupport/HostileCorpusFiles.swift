import Foundation

/// Working copies of corpus variants and the byte-for-byte comparison that proves a command left them alone.
public enum HostileCorpusFiles {
    public struct Copy: Sendable {
        public var folder: URL
        /// The path a command receives.
        public var path: String
    }

    /// The regular files of a folder and their bytes, by name.
    public typealias Snapshot = [String: Data]

    /// Copies the variant's folder, recreating named pipes and symbolic links instead of reading through them.
    public static func copy(_ store: HostileStore) throws -> Copy {
        let destination = try TemporaryDirectory.make(prefix: "hostile-run").appendingPathComponent(store.folder.lastPathComponent)
        try copyTree(store.folder, to: destination)
        return Copy(folder: destination, path: destination.appendingPathComponent(store.storeName).path)
    }

    private static func copyTree(_ source: URL, to destination: URL) throws {
        let manager = FileManager.default
        try manager.createDirectory(at: destination, withIntermediateDirectories: true)
        for name in try manager.contentsOfDirectory(atPath: source.path) {
            let from = source.appendingPathComponent(name), to = destination.appendingPathComponent(name)
            switch try manager.attributesOfItem(atPath: from.path)[.type] as? FileAttributeType {
            case .typeSymbolicLink?:
                try manager.createSymbolicLink(atPath: to.path, withDestinationPath: try manager.destinationOfSymbolicLink(atPath: from.path))
            case .typeDirectory?:
                try copyTree(from, to: to)
            case .typeRegular?:
                try manager.copyItem(at: from, to: to)
            default:
                // A named pipe: reading it would block, so make a new one.
                guard mkfifo(to.path, 0o644) == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: to.path]) }
            }
        }
    }

    /// The bytes of every regular file directly in `folder` (never following links or opening pipes).
    public static func snapshot(_ folder: URL) throws -> Snapshot {
        var snapshot: Snapshot = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            let url = folder.appendingPathComponent(name)
            guard try FileManager.default.attributesOfItem(atPath: url.path)[.type] as? FileAttributeType == .typeRegular else { continue }
            snapshot[name] = try Data(contentsOf: url)
        }
        return snapshot
    }

    /// What changed since `before`: files changed or removed, and files that appeared. SQLite's shared-memory index
    /// (`-shm`) is not the store's content and may be created or rewritten by any reader of a WAL store; an empty
    /// `-wal` may appear beside it.
    public static func changes(since before: Snapshot, in folder: URL) throws -> [String] {
        let after = try snapshot(folder)
        var changes: [String] = []
        for (name, bytes) in before.sorted(by: { $0.key < $1.key }) where !name.hasSuffix("-shm") {
            guard let now = after[name] else { changes.append("\(name) removed"); continue }
            if now != bytes { changes.append("\(name) changed (\(bytes.count) → \(now.count) bytes)") }
        }
        for (name, bytes) in after.sorted(by: { $0.key < $1.key }) where before[name] == nil {
            if name.hasSuffix("-shm") || (name.hasSuffix("-wal") && bytes.isEmpty) { continue }
            changes.append("\(name) appeared (\(bytes.count) bytes)")
        }
        return changes
    }
}
