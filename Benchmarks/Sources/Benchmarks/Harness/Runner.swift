import Foundation

/// The measured outcome of one implementation of a workload.
struct ImplementationResult: Codable {
    var name: String
    var contender: Contender
    var medianSeconds: Double
    var minimumSeconds: Double
    var samples: [Double]
    /// Median over the median of the workload's raw SQLite implementation (the floor); nil without one.
    var ratioToRaw: Double?
    var rowsPerSecond: Double?
    /// SQL statements our store ran in the last iteration (ours only).
    var storeStatements: Int?
}

/// A target's verdict, for the table and the JSON file.
struct TargetResult: Codable {
    var description: String
    var implementation: String
    /// The floor of the ratio when it is not the first raw SQLite implementation.
    var floor: String?
    var measuredRatio: Double?
    var met: Bool
}

struct WorkloadResult: Codable {
    var group: String
    var name: String
    var rows: Int
    var iterations: Int
    var implementations: [ImplementationResult]
    var targets: [TargetResult]
    /// Set when the workload could not run (a pending feature), with the reason.
    var skipped: String?
    var checksumMismatch: String?
}

/// Runs workloads: every implementation of a workload once per round, rounds repeated, so that a noisy neighbour
/// on this shared machine slows all contenders alike instead of one. The first round is a warm-up (page cache,
/// statement caches, allocator) and is not recorded; each round starts with a different implementation so that
/// none always runs after the same one.
struct Runner {
    var iterations: Int
    /// Only implementations whose name contains this text (for profiling one of them under callgrind); a trailing
    /// `$` asks for the whole name, for a contender whose name is the start of another's.
    var implementationFilter: String?

    private func selects(_ implementation: Implementation) -> Bool {
        guard let filter = implementationFilter else { return true }
        if filter.hasSuffix("$") { return implementation.name == filter.dropLast() }
        return implementation.name.contains(filter)
    }

    func run(_ workload: Workload) -> WorkloadResult {
        var samples: [String: [Double]] = [:]
        var checksums: [String: Int] = [:]
        var statements: [String: Int] = [:]
        let implementations = workload.implementations.filter(selects)
        let iterations = implementationFilter == nil ? max(self.iterations, workload.minimumIterations) : self.iterations
        print("  \(workload.group) · \(workload.name) (\(workload.rows.formatted()) rows)", terminator: "")
        fflush(nil)
        do {
            for round in 0...iterations {
                for offset in implementations.indices {
                    let implementation = implementations[(offset + round) % implementations.count]
                    let watch = Stopwatch()
                    do {
                        try implementation.iteration(watch)
                    } catch let error where isPendingFeature(error) {
                        throw WorkloadSkipped(reason: "\(implementation.name): \(error)")
                    }
                    checksums[implementation.name] = watch.checksum
                    statements[implementation.name] = watch.storeStatements
                    if round > 0 { samples[implementation.name, default: []].append(watch.secondsPerOperation) }
                }
                print(".", terminator: "")
                fflush(nil)
            }
        } catch {
            let reason = (error as? WorkloadSkipped)?.reason ?? "failed: \(error)"
            print(" skipped — \(reason)")
            return WorkloadResult(group: workload.group, name: workload.name, rows: workload.rows, iterations: 0,
                                  implementations: [], targets: [], skipped: reason)
        }
        print()
        let rawMedian = implementations.first { $0.contender == .raw }.flatMap { samples[$0.name].map(median) }
        let results = implementations.map { implementation -> ImplementationResult in
            let values = samples[implementation.name] ?? []
            let middle = median(values)
            return ImplementationResult(
                name: implementation.name, contender: implementation.contender, medianSeconds: middle,
                minimumSeconds: values.min() ?? 0, samples: values,
                ratioToRaw: rawMedian.map { middle / $0 },
                rowsPerSecond: middle > 0 ? Double(workload.rows) / middle : nil,
                storeStatements: statements[implementation.name])
        }
        var mismatch: String?
        if workload.checksumsMustAgree, Set(checksums.values).count > 1 {
            mismatch = checksums.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", ")
            print("    ⚠︎ contenders disagree on the result: \(mismatch!)")
        }
        let byName = Dictionary(results.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let verdicts = workload.targets.map { target -> TargetResult in
            let measured = byName[target.implementation]
            var ratio = measured?.ratioToRaw
            if let floor = target.floor {
                ratio = byName[floor].flatMap { floor in measured.map { $0.medianSeconds / floor.medianSeconds } }
            }
            var met = measured != nil
            if let maximum = target.maximumRatio { met = met && (ratio ?? .infinity) <= maximum }
            if let minimum = target.minimumRowsPerSecond { met = met && (measured?.rowsPerSecond ?? 0) >= minimum }
            if let other = target.fasterThan.flatMap({ byName[$0] }) {
                met = met && (measured?.medianSeconds ?? .infinity) < other.medianSeconds
            }
            return TargetResult(description: target.description, implementation: target.implementation,
                                floor: target.floor, measuredRatio: ratio, met: met)
        }
        return WorkloadResult(group: workload.group, name: workload.name, rows: workload.rows, iterations: iterations,
                              implementations: results, targets: verdicts, checksumMismatch: mismatch)
    }
}

func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return 0 }
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}
