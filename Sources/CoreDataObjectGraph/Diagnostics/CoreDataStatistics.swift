import Synchronization

/// Counters of what the stack did, as Instruments' Core Data template shows them: fetches, faults fired,
/// row-cache hits and misses, rows fetched, saves. The browser's status line and the benchmarks read them.
public final class CoreDataStatistics: Sendable {
    /// A copy of the counters at one moment.
    public struct Counts: Sendable, Equatable {
        public var fetches = 0
        public var faultsFired = 0
        public var rowCacheHits = 0
        public var rowCacheMisses = 0
        public var rowsFetched = 0
        public var relationshipFaultsFired = 0
        public var saves = 0
        /// SQLite virtual-machine steps of every statement run: the work the store asked of SQLite, which tests use
        /// to show that a query's cost does not grow with the table.
        public var virtualMachineSteps = 0
        /// Statements run.
        public var statements = 0
        /// The duration of the most recent fetch, in seconds, and the rows it returned.
        public var lastFetchDuration: Double = 0
        public var lastFetchRowCount = 0

        public init() {}
    }

    private let counts = Mutex(Counts())
    /// Faults filled from the row their fetch kept (each a fault fired and a row-cache hit), counted apart with one
    /// atomic increment: this is the hot path of reading fetched objects, where the lock cost a fifth of the fault.
    private let faultsFilledFromFetchedRows = Atomic<Int>(0)

    public init() {}

    public var snapshot: Counts {
        var counts = counts.withLock { $0 }
        let filled = faultsFilledFromFetchedRows.load(ordering: .relaxed)
        counts.faultsFired += filled
        counts.rowCacheHits += filled
        return counts
    }

    public func reset() {
        counts.withLock { $0 = Counts() }
        faultsFilledFromFetchedRows.store(0, ordering: .relaxed)
    }

    func record(_ update: (inout Counts) -> Void) {
        counts.withLock { update(&$0) }
    }

    /// Counts a fault filled from the row its fetch kept.
    func recordFaultFilledFromFetchedRow() {
        faultsFilledFromFetchedRows.wrappingAdd(1, ordering: .relaxed)
    }
}
