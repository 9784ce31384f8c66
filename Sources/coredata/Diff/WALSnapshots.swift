import Foundation
import StoreAccess

/// `diff STORE --wal`: the store as of its last checkpoint (the main file alone) and as every reader sees it (the
/// main file with its `-wal`), as two copies in a private temporary folder. The user's files are only read: SQLite
/// never opens them, so nothing checkpoints the `-wal`, creates a `-shm` or recovers anything beside the store.
struct WALSnapshots {
    /// The copy of the main file alone.
    let checkpointedPath: String
    /// The copy of the main file with its `-wal`.
    let currentPath: String
    /// The size of the store's `-wal`: 0 when it has none (the main file then holds every transaction).
    let walByteCount: Int64
    private let folder: URL

    /// Copies `storePath` (a store, or a folder holding one) and its `-wal`. Externally stored values are reached
    /// through a link to the store's `.NAME_SUPPORT` folder, which both copies share and neither writes.
    init(storePath givenPath: String) throws {
        let storePath = try SourceKind.storeFile(at: givenPath)
        let store = URL(fileURLWithPath: storePath)
        let files = FileManager.default
        guard files.fileExists(atPath: storePath) else { throw CommandFailure("\(storePath): no such store") }
        let wal = storePath + "-wal"
        walByteCount = ((try? files.attributesOfItem(atPath: wal))?[.size] as? NSNumber)?.int64Value ?? 0
        folder = files.temporaryDirectory.appendingPathComponent("coredata-diff-wal-\(UUID().uuidString)")
        let checkpointed = folder.appendingPathComponent("checkpointed"), current = folder.appendingPathComponent("current")
        let name = store.lastPathComponent
        let support = ".\(store.deletingPathExtension().lastPathComponent)_SUPPORT"
        let supportPath = store.deletingLastPathComponent().appendingPathComponent(support).path
        do {
            for directory in [checkpointed, current] {
                try files.createDirectory(at: directory, withIntermediateDirectories: true)
                try files.copyItem(atPath: storePath, toPath: directory.appendingPathComponent(name).path)
                if files.fileExists(atPath: supportPath) {
                    try files.createSymbolicLink(atPath: directory.appendingPathComponent(support).path, withDestinationPath: supportPath)
                }
            }
            if walByteCount > 0 { try files.copyItem(atPath: wal, toPath: current.appendingPathComponent(name + "-wal").path) }
            // A rollback journal left by an interrupted save goes with both copies, so each is rolled back there.
            if files.fileExists(atPath: storePath + "-journal") {
                for directory in [checkpointed, current] {
                    try files.copyItem(atPath: storePath + "-journal", toPath: directory.appendingPathComponent(name + "-journal").path)
                }
            }
        } catch {
            try? files.removeItem(at: folder)
            throw CommandFailure("\(storePath): cannot copy the store and its -wal to \(folder.path) to compare them: \(CommandFailure.describe(error))")
        }
        checkpointedPath = checkpointed.appendingPathComponent(name).path
        currentPath = current.appendingPathComponent(name).path
    }

    /// Deletes the copies.
    func remove() {
        try? FileManager.default.removeItem(at: folder)
    }
}
