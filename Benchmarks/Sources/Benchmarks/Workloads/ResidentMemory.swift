import Foundation
import OpenCoreData

/// Resident memory while iterating 1,000,000 objects through a batch-faulting array, every attribute read (issue 7:
/// within 64 MB). It runs in a child process of this same binary, so that the heap left behind by the other
/// workloads (the allocator rarely returns it) does not count; the raw floor runs the same scan in its own child.
enum ResidentMemory {
    static let childFlag = "--memory-child"
    static let batchSize = 200
    static let limitMB = 64.0

    struct Measurement: Codable {
        var contender: Contender
        var rows: Int
        /// Resident set after the stack is open, before the first row.
        var baselineMB: Double
        /// The highest resident set seen while iterating (sampled at every batch).
        var peakMB: Double
        var endMB: Double
        var seconds: Double
    }

    struct Result: Codable {
        var rows: Int
        var measurements: [Measurement]
        var target: String
        var met: Bool
    }

    /// Runs both children and reports.
    static func run(store url: URL, rows: Int) throws -> Result {
        print("  resident memory · iterate \(rows.formatted()) objects (child processes)", terminator: "")
        fflush(nil)
        var measurements: [Measurement] = []
        for contender in [Contender.raw, .ours] {
            let line = try ChildProcess.lastLine(arguments: [childFlag, contender.rawValue, url.path, String(rows)],
                                                 describing: "memory (\(contender))")
            measurements.append(try JSONDecoder().decode(Measurement.self, from: Data(line.utf8)))
            print(".", terminator: "")
            fflush(nil)
        }
        print()
        let ours = measurements.first { $0.contender == .ours }
        return Result(rows: rows, measurements: measurements, target: "peak resident ≤ \(Int(limitMB)) MB",
                      met: (ours?.peakMB ?? .infinity) <= limitMB)
    }

    /// The child's side: iterate, sample, print one JSON line.
    static func child(arguments: [String]) throws {
        guard arguments.count == 3, let contender = Contender(rawValue: arguments[0]), let rows = Int(arguments[2]) else {
            throw RawSQLiteError(message: "usage: \(childFlag) ours|raw <store> <rows>")
        }
        let url = URL(fileURLWithPath: arguments[1])
        var peak = 0.0
        var seen = 0
        let baseline: Double
        let start = ContinuousClock.now
        switch contender {
        case .ours:
            let stack = try OurStack(url: url, model: Models.words(indexed: false))
            baseline = residentMB()
            try stack.context.performAndWait {
                let request = NSFetchRequest<NSManagedObject>(entityName: "Word")
                request.fetchBatchSize = batchSize
                let array = try stack.context.fetchBatched(request)
                var batch = 0
                while true {
                    let objects = try array.objects(inBatch: batch)
                    for word in objects {
                        seen &+= ((word.value(forKey: "text") as? String)?.utf8.count ?? 0) > 0 ? 1 : 0
                        _ = word.value(forKey: "length")
                        _ = word.value(forKey: "created")
                        _ = word.value(forKey: "score")
                    }
                    peak = max(peak, residentMB())
                    if objects.count < batchSize { break }
                    batch += 1
                }
            }
        default:
            let database = try RawDatabase(path: url.path)
            baseline = residentMB()
            let statement = try database.prepare("SELECT \(BatchFaulting.columns) FROM ZWORD ORDER BY Z_PK")
            while try statement.step() {
                seen &+= (statement.text(3)?.utf8.count ?? 0) > 0 ? 1 : 0
                _ = statement.int64(4)
                _ = statement.double(5)
                _ = statement.double(6)
                if seen % batchSize == 0 { peak = max(peak, residentMB()) }
            }
        }
        guard seen == rows else { throw RawSQLiteError(message: "iterated \(seen) rows, expected \(rows)") }
        let measurement = Measurement(contender: contender, rows: seen, baselineMB: baseline, peakMB: max(peak, residentMB()),
                                      endMB: residentMB(), seconds: (ContinuousClock.now - start).seconds)
        print(String(decoding: try JSONEncoder().encode(measurement), as: UTF8.self))
    }

    /// The resident set of this process, from /proc/self/statm (its second field, in pages).
    static func residentMB() -> Double {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Double(fields[1]) else { return 0 }
        return pages * Double(sysconf(Int32(_SC_PAGESIZE))) / 1_048_576
    }
}
