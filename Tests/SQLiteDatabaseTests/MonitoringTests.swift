import Foundation
import SQLiteDatabase
import Synchronization
import Testing

/// Cancellation, change detection, statement counters and tracing.
@Suite("Interrupting, data version, status counters, tracing")
struct MonitoringTests {
    final class Flag: Sendable {
        let isSet = Atomic<Bool>(false)
    }

    @Test func interruptFromAnotherThreadStopsAnEndlessQuery() throws {
        let connection = try Connection.inMemory()
        let handle = connection.interruptHandle
        let finished = Flag()
        let interrupterDone = DispatchSemaphore(value: 0)
        // The query below never ends on its own; the other thread keeps interrupting until it has stopped, so the
        // test does not depend on when the query starts.
        Thread.detachNewThread {
            while !finished.isSet.load(ordering: .acquiring) {
                handle.interrupt()
                usleep(2_000)
            }
            interrupterDone.signal()
        }
        let sql = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c"
        let error = #expect(throws: SQLiteError.self) { try connection.scalar(sql) }
        finished.isSet.store(true, ordering: .releasing)
        interrupterDone.wait()
        #expect(error?.code == .interrupt)
        #expect(error?.sql == sql)
        // The connection works normally afterwards.
        #expect(try connection.integer("SELECT 1") == 1)
    }

    @Test func anInterruptHandleOutlivingItsConnectionDoesNothing() throws {
        var connection: Connection? = try Connection.inMemory()
        let handle = connection!.interruptHandle
        connection = nil
        handle.interrupt()
    }

    @Test func aProgressHandlerCanCancel() throws {
        let connection = try Connection.inMemory()
        var calls = 0
        connection.setProgressHandler(every: 100) {
            calls += 1
            return calls < 5
        }
        let error = #expect(throws: SQLiteError.self) {
            try connection.scalar("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c")
        }
        #expect(error?.code == .interrupt)
        #expect(calls == 5)
        connection.setProgressHandler(nil)
        #expect(try connection.integer("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000) SELECT count(*) FROM c") == 1000)
    }

    @Test func dataVersionChangesWhenAnotherConnectionWrites() throws {
        let path = try temporaryDatabasePath()
        let observer = try Connection(path: path, mode: .create)
        try observer.execute(sql: "CREATE TABLE t(x)")
        let writer = try Connection(path: path, mode: .readWrite)
        let initial = try observer.dataVersion
        #expect(try observer.dataVersion == initial, "reading twice without writes gives the same number")
        try observer.execute(sql: "INSERT INTO t VALUES (0)")
        #expect(try observer.dataVersion == initial, "the connection's own writes do not count")
        try writer.execute(sql: "INSERT INTO t VALUES (1)")
        let afterOutsideWrite = try observer.dataVersion
        #expect(afterOutsideWrite != initial)
        try writer.setJournalMode(.wal)
        try writer.execute(sql: "INSERT INTO t VALUES (2)")
        #expect(try observer.dataVersion != afterOutsideWrite, "WAL commits are detected too")
    }

    @Test func anIndexedLookupCostsTheSameWhateverTheTableSize() throws {
        func lookupCost(rows: Int) throws -> (lookup: StatementStatus, scan: StatementStatus) {
            let connection = try Connection.inMemory()
            try connection.execute(
                sql: """
                    CREATE TABLE item(id INTEGER PRIMARY KEY, name TEXT, rank INTEGER);
                    CREATE INDEX item_name ON item(name);
                    WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < \(rows))
                    INSERT INTO item(name, rank) SELECT 'item' || x, x % 7 FROM c;
                    """)
            let lookup = try connection.prepare("SELECT id FROM item WHERE name = ?")
            try lookup.bind("item5", at: 1)
            #expect(try lookup.mapRows { $0.int64(at: 0) } == [5])
            let scan = try connection.prepare("SELECT id FROM item WHERE rank = ? ORDER BY id % 13, id")
            try scan.bind(3, at: 1)
            _ = try scan.mapRows { $0.int64(at: 0) }
            return (lookup.status, scan.status)
        }
        let small = try lookupCost(rows: 100)
        let large = try lookupCost(rows: 10_000)
        #expect(small.lookup.virtualMachineSteps > 0)
        #expect(small.lookup.virtualMachineSteps == large.lookup.virtualMachineSteps)
        #expect(small.lookup.fullScanSteps == 0)
        #expect(small.lookup.sorts == 0)
        #expect(large.scan.virtualMachineSteps > 10 * small.scan.virtualMachineSteps)
        #expect(large.scan.fullScanSteps >= 9_999)
        #expect(large.scan.sorts == 1)
        #expect(large.scan.runs == 1)
    }

    @Test func countersCanBeReset() throws {
        let connection = try Connection.inMemory()
        let statement = try connection.prepare("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 50) SELECT x FROM c ORDER BY x DESC")
        try statement.run()
        #expect(statement.statusCounter(.virtualMachineSteps) > 0)
        #expect(statement.statusCounter(.sorts, reset: true) == 1)
        #expect(statement.statusCounter(.sorts) == 0)
        statement.resetStatus()
        #expect(statement.status.virtualMachineSteps == 0)
    }

    @Test func tracingReportsStatementsAndDurations() throws {
        let connection = try Connection.inMemory()
        var events: [TraceEvent] = []
        connection.trace(options: [.statements, .profiles]) { events.append($0) }
        let statement = try connection.prepare("SELECT ?")
        try statement.bind("traced", at: 1)
        try statement.run()
        connection.trace(nil)
        try connection.execute(sql: "SELECT 2")
        #expect(events.count == 2)
        guard events.count == 2 else { return }
        if case .statement(let sql, let expanded) = events[0] {
            #expect(sql == "SELECT ?")
            #expect(expanded == "SELECT 'traced'")
        } else {
            Issue.record("the first event is not a statement: \(events[0])")
        }
        if case .profile(let sql, let duration) = events[1] {
            #expect(sql == "SELECT ?")
            #expect(duration >= .zero)
        } else {
            Issue.record("the second event is not a profile: \(events[1])")
        }
    }
}
