import Foundation

/// Everything a run measured: what results/latest.json holds.
struct Report: Codable {
    var mode: String
    var date: String
    var machine: Machine
    var sqliteVersion: String
    var iterations: Int
    var workloads: [WorkloadResult]
    var scaling: [ScalingResult]
    var memory: ResidentMemory.Result?
    var browser: BrowserScrolling.Result?
    var migrationMemory: MigrationMemory.Result?
    var pending: [String]

    struct Machine: Codable {
        var processors: Int
        var memoryGB: Double
        var cpu: String

        static var current: Machine {
            let cpu = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?
                .split(separator: "\n").first { $0.hasPrefix("model name") }?
                .split(separator: ":", maxSplits: 1).last?.trimmingCharacters(in: .whitespaces) ?? "unknown"
            return Machine(processors: ProcessInfo.processInfo.activeProcessorCount,
                           memoryGB: Double(ProcessInfo.processInfo.physicalMemory) / 1_073_741_824, cpu: cpu)
        }
    }

    func write(to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(self).write(to: url)
    }

    /// The table for the terminal and for docs/BENCHMARKS.md (Markdown, readable as plain text too).
    var table: String {
        var lines = ["| workload | implementation | median | min | × raw | rows/s | SQL statements |", "|---|---|---:|---:|---:|---:|---:|"]
        for workload in workloads {
            let title = "\(workload.group) · \(workload.name) (\(workload.rows.formatted()))"
            if let skipped = workload.skipped {
                let why = isPendingFeature(WorkloadSkipped(reason: skipped)) ? "predicates arrive with the SQL compiler" : skipped
                lines.append("| \(title) | skipped: \(why) | | | | | |")
                continue
            }
            for (index, result) in workload.implementations.enumerated() {
                lines.append("| \(index == 0 ? title : "") | \(result.name) | \(Self.duration(result.medianSeconds)) | "
                    + "\(Self.duration(result.minimumSeconds)) | \(result.ratioToRaw.map { String(format: "%.2f", $0) } ?? "") | "
                    + "\(result.rowsPerSecond.map(Self.rate) ?? "") | \(result.storeStatements.map { $0.formatted() } ?? "") |")
            }
        }
        return lines.joined(separator: "\n")
    }

    var targetsTable: String {
        var lines = ["| target | workload | implementation | measured | met |", "|---|---|---|---:|---|"]
        for workload in workloads {
            for target in workload.targets {
                lines.append("| \(target.description) | \(workload.group) · \(workload.name) | \(target.implementation) | "
                    + "\(target.measuredRatio.map { String(format: "%.2f× ", $0) + (target.floor ?? "raw") } ?? "–") | \(target.met ? "yes" : "**no**") |")
            }
        }
        for scale in scaling {
            let bound = scale.maximumRatio > 1.5 ? String(format: "large ≤ %.1f× small (1.5× the floor's growth)", scale.maximumRatio) : "large ≤ 1.5× small"
            lines.append("| \(bound) | batch faulting · \(scale.measure) | ours, \(scale.largeRows.formatted()) vs \(scale.smallRows.formatted()) | "
                + "\(String(format: "%.2f×", scale.ratio)) (\(Self.duration(scale.largeSeconds)) vs \(Self.duration(scale.smallSeconds)); floor grew \(String(format: "%.2f×", scale.rawRatio))) | \(scale.met ? "yes" : "**no**") |")
        }
        if let memory {
            for measurement in memory.measurements {
                let verdict = measurement.contender == .ours ? (memory.met ? "yes" : "**no**") : "(floor)"
                lines.append("| \(memory.target) | iterate \(memory.rows.formatted()) objects | \(measurement.contender.rawValue) | "
                    + "peak \(String(format: "%.1f", measurement.peakMB)) MB (baseline \(String(format: "%.1f", measurement.baselineMB)) MB, "
                    + "\(String(format: "%.1f", measurement.seconds)) s) | \(verdict) |")
            }
        }
        if let browser, let run = browser.runs.first {
            let steps = "page down \(Self.duration(run.pageDownSeconds)), jump to end \(Self.duration(run.jumpToEndSeconds)), "
                + "filter \(Self.duration(run.filterSeconds)), \(run.pagesScrolled.formatted()) pages in \(Self.duration(run.scrollSeconds))"
            for (target, met) in browser.targets.sorted(by: { $0.key < $1.key }) {
                let measured: String
                if target.hasPrefix("launch") {
                    measured = "median \(Self.duration(browser.medianLaunchSeconds)) to the first screen; \(steps)"
                } else if target.hasPrefix("sort") {
                    measured = "\(Self.duration(run.sortSeconds)) vs sqlite \(Self.duration(run.sqliteSortSeconds))"
                } else if target.hasPrefix("first sort") {
                    measured = "\(run.firstSortSeconds.map(Self.duration) ?? "not measured") vs sqlite "
                        + Self.duration(run.sqliteReverseSeconds)
                } else if target.hasPrefix("G") {
                    measured = "\(Self.duration(run.sortedJumpSeconds)) vs sqlite \(Self.duration(run.sqliteReverseSeconds))"
                } else if target.hasPrefix("D") {
                    measured = "\(Self.duration(run.describeSeconds)) vs sqlite \(Self.duration(run.sqliteDescribeSeconds))"
                } else {
                    measured = "peak \(String(format: "%.1f", browser.peakResidentMB)) MB (after the jump \(String(format: "%.1f", run.residentAfterJumpMB)) MB)"
                }
                lines.append("| \(target) | browser · \(run.rows.formatted()) rows | ours · StoreBrowserApp | \(measured) | \(met ? "yes" : "**no**") |")
            }
        }
        return lines.joined(separator: "\n")
    }

    static func duration(_ seconds: Double) -> String {
        switch seconds {
        case 1...: String(format: "%.2f s", seconds)
        case 0.001...: String(format: "%.1f ms", seconds * 1e3)
        default: String(format: "%.1f µs", seconds * 1e6)
        }
    }

    static func rate(_ perSecond: Double) -> String {
        perSecond >= 1e6 ? String(format: "%.2f M", perSecond / 1e6) : String(format: "%.0f k", perSecond / 1e3)
    }
}
