import SQLiteDatabase

/// Notices that another connection (the app under test, another `coredata`) committed to the store, with SQLite's
/// `PRAGMA data_version` on a read-only connection of its own. Polling costs one tiny statement, so the browser can
/// poll on every tick.
final class StoreChangeWatcher {
    private let connection: Connection
    private var baseline: Int64

    init(storePath: String) throws {
        connection = try Connection(path: storePath, mode: .readOnly, busyTimeout: .milliseconds(50))
        baseline = try connection.dataVersion
    }

    /// Whether a commit happened since the last `acknowledge()`.
    func storeChanged() -> Bool {
        // A store locked for a moment is not a change; the next poll will see it.
        guard let version = try? connection.dataVersion else { return false }
        return version != baseline
    }

    /// Takes the current state as seen: after a re-fetch, or after the browser's own save.
    func acknowledge() {
        if let version = try? connection.dataVersion { baseline = version }
    }
}
