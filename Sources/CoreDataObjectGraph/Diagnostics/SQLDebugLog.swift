import Foundation
import SQLiteDatabase
import Synchronization

/// SQL logging like Core Data's `-com.apple.CoreData.SQLDebug N`: level 1 logs each statement, level 2 adds the
/// bindings and row counts, level 3 adds timings. Set it with `SQLDebugLog.level`, the `--sql-debug` option of
/// `coredata`, or the environment variable `OPENCOREDATA_SQL_DEBUG`.
public enum SQLDebugLog {
    private static let state = Mutex<(level: Int, sink: (@Sendable (String) -> Void)?)>(
        (Int(ProcessInfo.processInfo.environment["OPENCOREDATA_SQL_DEBUG"] ?? "") ?? 0, nil))

    /// 0 (off) to 3.
    public static var level: Int {
        get { state.withLock { $0.level } }
        set { state.withLock { $0.level = max(0, min(3, newValue)) } }
    }

    /// Where lines go; standard error when nil. Tests install a sink to read the log.
    public static var sink: (@Sendable (String) -> Void)? {
        get { state.withLock { $0.sink } }
        set { state.withLock { $0.sink = newValue } }
    }

    static func log(_ line: String) {
        let message = "CoreData: \(line)"
        if let sink = sink {
            sink(message)
        } else {
            FileHandle.standardError.write(Data((message + "\n").utf8))
        }
    }

    /// Logs a statement about to run (level 1) with its bindings (level 2).
    static func statement(_ sql: String, bindings: [SQLiteValue]) {
        let current = level
        guard current >= 1 else { return }
        log("sql: \(sql)")
        if current >= 2, !bindings.isEmpty {
            log("details: SQLite bind: " + bindings.map(\.description).joined(separator: ", "))
        }
    }

    /// Logs how many rows a statement returned (level 2) and how long it took (level 3).
    static func finished(rows: Int, seconds: Double) {
        let current = level
        if current >= 2 { log("annotation: sql connection fetch returned \(rows) rows") }
        if current >= 3 { log(String(format: "annotation: total fetch execution time: %.4fs for %d rows.", seconds, rows)) }
    }
}
