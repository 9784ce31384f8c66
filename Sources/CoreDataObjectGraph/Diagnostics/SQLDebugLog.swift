import Foundation
import SQLiteDatabase
import Synchronization

/// SQL logging like Core Data's `-com.apple.CoreData.SQLDebug N`: level 1 logs each statement, level 2 adds the
/// bindings and row counts, level 3 adds timings. Set it with `SQLDebugLog.level`, the `--sql-debug` option of
/// `coredata`, or the environment variable `OPENCOREDATA_SQL_DEBUG`.
public enum SQLDebugLog {
    /// One logged line and the store it concerns.
    public struct Entry: Sendable {
        public var line: String
        public var storePath: String?
    }

    private static let state = Mutex<(level: Int, sink: (@Sendable (Entry) -> Void)?)>(
        (Int(ProcessInfo.processInfo.environment["OPENCOREDATA_SQL_DEBUG"] ?? "") ?? 0, nil))

    /// 0 (off) to 3.
    public static var level: Int {
        get { state.withLock { $0.level } }
        set { state.withLock { $0.level = max(0, min(3, newValue)) } }
    }

    /// Where lines go; standard error when nil. Tests install a sink and keep the lines of their own store.
    public static var sink: (@Sendable (Entry) -> Void)? {
        get { state.withLock { $0.sink } }
        set { state.withLock { $0.sink = newValue } }
    }

    static func log(_ line: String, store: String?) {
        let message = "CoreData: \(line)"
        if let sink = sink {
            sink(Entry(line: message, storePath: store))
        } else {
            FileHandle.standardError.write(Data((message + "\n").utf8))
        }
    }

    /// Logs a statement about to run (level 1) with its bindings (level 2).
    static func statement(_ sql: String, bindings: [SQLiteValue], store: String?) {
        let current = level
        guard current >= 1 else { return }
        log("sql: \(sql)", store: store)
        if current >= 2, !bindings.isEmpty {
            log("details: SQLite bind: " + bindings.map(\.description).joined(separator: ", "), store: store)
        }
    }

    /// Logs how many rows a statement returned (level 2) and how long it took (level 3).
    static func finished(rows: Int, seconds: Double, store: String?) {
        let current = level
        if current >= 2 { log("annotation: sql connection fetch returned \(rows) rows", store: store) }
        if current >= 3 { log(String(format: "annotation: total fetch execution time: %.4fs for %d rows.", seconds, rows), store: store) }
    }
}
