import CSQLite

/// Counters that SQLite keeps for one statement (`sqlite3_stmt_status`): how much work running it took.
///
/// They make query plans testable without timing: a lookup by an indexed key costs the same number of virtual
/// machine steps whatever the size of the table, while a full scan grows with it.
public struct StatementStatus: Sendable, Hashable, CustomStringConvertible {
    /// Rows stepped through by full table scans (`SQLITE_STMTSTATUS_FULLSCAN_STEP`); large values suggest a
    /// missing index.
    public var fullScanSteps: Int
    /// Sort operations (`SQLITE_STMTSTATUS_SORT`); an index could avoid them.
    public var sorts: Int
    /// Rows inserted into automatic, transient indexes (`SQLITE_STMTSTATUS_AUTOINDEX`).
    public var autoIndexSteps: Int
    /// Virtual machine instructions executed (`SQLITE_STMTSTATUS_VM_STEP`): the overall cost of the statement.
    public var virtualMachineSteps: Int
    /// Times the statement was automatically re-prepared after a schema change (`SQLITE_STMTSTATUS_REPREPARE`).
    public var reprepares: Int
    /// Times the statement ran to completion or was reset after starting (`SQLITE_STMTSTATUS_RUN`).
    public var runs: Int

    public var description: String {
        "fullScanSteps: \(fullScanSteps), sorts: \(sorts), autoIndexSteps: \(autoIndexSteps), "
            + "virtualMachineSteps: \(virtualMachineSteps), reprepares: \(reprepares), runs: \(runs)"
    }
}

extension Statement {
    /// One of SQLite's statement counters.
    public enum StatusCounter: Int32, Sendable, CaseIterable {
        case fullScanSteps = 1
        case sorts = 2
        case autoIndexSteps = 3
        case virtualMachineSteps = 4
        case reprepares = 5
        case runs = 6
    }

    /// The current value of `counter`, optionally setting it back to zero.
    public func statusCounter(_ counter: StatusCounter, reset: Bool = false) -> Int {
        Int(sqlite3_stmt_status(handle, counter.rawValue, reset ? 1 : 0))
    }

    /// All counters, as accumulated since the statement was prepared or since the last reset of the counters.
    public var status: StatementStatus {
        StatementStatus(
            fullScanSteps: statusCounter(.fullScanSteps),
            sorts: statusCounter(.sorts),
            autoIndexSteps: statusCounter(.autoIndexSteps),
            virtualMachineSteps: statusCounter(.virtualMachineSteps),
            reprepares: statusCounter(.reprepares),
            runs: statusCounter(.runs))
    }

    /// Sets every counter back to zero, so the next run can be measured on its own.
    public func resetStatus() {
        for counter in StatusCounter.allCases { _ = statusCounter(counter, reset: true) }
    }
}
