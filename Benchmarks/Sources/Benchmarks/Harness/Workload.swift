import Foundation

/// Who did the work: our library, the SQLite C API (the floor every ratio is taken against), or GRDB.swift.
enum Contender: String, Codable, Sendable {
    case ours
    case raw
    case grdb
}

/// Times the part of an iteration that counts. Setup (opening a stack, loading the first page before timing the
/// next) happens outside `measure`; several `measure` calls add up, and `operations` divides the sum so that a
/// workload timing "each next page" reports the cost of one page.
final class Stopwatch {
    private(set) var elapsed: Duration = .zero
    /// How many operations the measured time covers (pages, lookups); the reported time is per operation.
    var operations = 1
    /// What the iteration produced (rows read, a sum of lengths): every contender of a workload must agree,
    /// so that a fast wrong answer cannot pass for a fast right one.
    var checksum = 0
    /// SQL statements our store ran during the iteration (setup included), from the coordinator's statistics:
    /// the evidence of one query per fetch, or of one query per fault.
    var storeStatements: Int?

    @discardableResult
    func measure<T>(_ body: () throws -> T) rethrows -> T {
        let start = ContinuousClock.now
        let result = try body()
        elapsed += ContinuousClock.now - start
        return result
    }

    var secondsPerOperation: Double {
        let parts = elapsed.components
        return (Double(parts.seconds) + Double(parts.attoseconds) / 1e18) / Double(max(1, operations))
    }
}

/// One way of doing a workload's job. `iteration` prepares what it needs and times the job with the stopwatch.
struct Implementation {
    var name: String
    var contender: Contender
    var iteration: (Stopwatch) throws -> Void
}

/// A target from issue 7 that a workload reports against: an implementation's ratio to raw SQLite (or to `floor`)
/// must stay at or under `maximumRatio`, and (optionally) its time must stay under another implementation's.
struct Target {
    var implementation: String
    var maximumRatio: Double?
    /// The implementation the ratio is taken against, when not the workload's first raw SQLite one (a second
    /// floor: the same SQL with our registered functions).
    var floor: String? = nil
    var fasterThan: String?
    /// At least this many rows (objects) per second, on this machine.
    var minimumRowsPerSecond: Double? = nil
    var description: String
}

/// A job done by every contender on the same data: the unit of the table and of the JSON file.
struct Workload {
    var group: String
    var name: String
    /// Rows (or objects) the job touches, for rows per second.
    var rows: Int
    var implementations: [Implementation]
    var targets: [Target] = []
    /// Whether checksums must agree (false for jobs whose contenders legitimately see different row counts).
    var checksumsMustAgree = true
    /// At least this many rounds, for jobs so short that the suite's round count would leave the median noisy.
    var minimumIterations = 0
}

/// Thrown by a workload that cannot run yet (its API arrives with another issue): the runner prints the reason
/// and goes on, so the workload lights up by itself once the feature lands.
struct WorkloadSkipped: Error {
    var reason: String
}

/// Whether a library error says the feature is not there yet, rather than that the benchmark is wrong.
func isPendingFeature(_ error: any Error) -> Bool {
    String(describing: error).contains("with the SQL compiler")
}
