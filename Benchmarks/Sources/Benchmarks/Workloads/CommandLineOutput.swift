import Foundation
import OpenCoreData

/// Issue 22: the `coredata` command line against the sqlite3 shell, whole processes side by side in one run, on a
/// 500,000-row entity of four attributes (text, integer, date, double) with a to-one relationship to 1,000 chefs
/// and a to-many relationship to 750,000 parts (one or two each).
/// Each command writes to /dev/null (a file: exact values, no sanitising); user and system CPU come from `wait4`,
/// the peak resident set from GNU time. Time to first row is measured on each committed sample through a pipe.
enum CommandLineOutput {
    static let limitRatio = 1.5
    static let limitMB = 64.0

    struct Measurement {
        var userSeconds: Double
        var systemSeconds: Double
        var wallSeconds: Double
        var peakMB: Double
    }

    struct Comparison {
        var name: String
        var ours: Measurement
        var shell: Measurement
        var ratio: Double { ours.userSeconds / max(shell.userSeconds, 1e-6) }
    }

    /// The store: `Entry` (text, length, created, score, chef, parts), `Chef` (name) and `Part` (weight, entry),
    /// filled by SQL.
    static func store(factory: StoreFactory, rows: Int) throws -> URL {
        let chef = NSEntityDescription(name: "Chef")
        let entry = NSEntityDescription(name: "Entry")
        let chefEntries = NSRelationshipDescription(name: "entries", destinationEntityName: "Entry")
        chefEntries.inverseRelationshipName = "chef"
        chefEntries.maxCount = 0
        let entryChef = NSRelationshipDescription(name: "chef", destinationEntityName: "Chef")
        entryChef.inverseRelationshipName = "entries"
        entryChef.maxCount = 1
        let part = NSEntityDescription(name: "Part")
        let entryParts = NSRelationshipDescription(name: "parts", destinationEntityName: "Part")
        entryParts.inverseRelationshipName = "entry"
        entryParts.maxCount = 0
        let partEntry = NSRelationshipDescription(name: "entry", destinationEntityName: "Entry")
        partEntry.inverseRelationshipName = "parts"
        partEntry.maxCount = 1
        chef.setProperties([NSAttributeDescription(name: "name", type: .stringAttributeType), chefEntries])
        part.setProperties([NSAttributeDescription(name: "weight", type: .integer64AttributeType), partEntry])
        entry.setProperties([
            NSAttributeDescription(name: "text", type: .stringAttributeType),
            NSAttributeDescription(name: "length", type: .integer64AttributeType),
            NSAttributeDescription(name: "created", type: .dateAttributeType),
            NSAttributeDescription(name: "score", type: .doubleAttributeType),
            entryChef,
            entryParts,
        ])
        let model = NSManagedObjectModel(entities: [chef, entry, part])
        return try factory.store("cli-entries", rows: rows, model: model) { database, layout in
            let chefTable = layout.table(forEntity: "Chef")!.name
            let entryTable = layout.table(forEntity: "Entry")!.name
            let chefNumber = layout.numbering["Chef"]!, entryNumber = layout.numbering["Entry"]!
            try database.execute("""
                WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 1000)
                INSERT INTO \(chefTable) (Z_PK, Z_ENT, Z_OPT, ZNAME) SELECT x, \(chefNumber), 1, printf('Chef %04d', x) FROM n
                """)
            try database.execute("""
                WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < \(rows))
                INSERT INTO \(entryTable) (Z_PK, Z_ENT, Z_OPT, ZTEXT, ZLENGTH, ZCREATED, ZSCORE, ZCHEF)
                SELECT x, \(entryNumber), 1, printf('entry %d, "quoted"', x * 7919 % 100003), x % 97,
                       x * 617.25, (x * 7919 % 10007) / 10007.0, 1 + x % 1000 FROM n
                """)
            // Parts 1...rows×3/2 spread over the entries by a bijection modulo `rows`: half hold two, half one.
            let partTable = layout.table(forEntity: "Part")!.name
            let partNumber = layout.numbering["Part"]!
            try database.execute("""
                WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < \(rows * 3 / 2))
                INSERT INTO \(partTable) (Z_PK, Z_ENT, Z_OPT, ZWEIGHT, ZENTRY) SELECT x, \(partNumber), 1, x % 13, 1 + x * 7919 % \(rows) FROM n
                """)
        }
    }

    /// The executable under test: `$COREDATA_BIN`, or the release build beside the Benchmarks package.
    static func executable(packageDirectory: URL) -> URL? {
        let url = ProcessInfo.processInfo.environment["COREDATA_BIN"].map { URL(fileURLWithPath: $0) }
            ?? packageDirectory.deletingLastPathComponent().appendingPathComponent(".build/release/coredata")
        return FileManager.default.isExecutableFile(atPath: url.path) ? url : nil
    }

    /// The committed samples and the entity whose first row is timed in each.
    static let firstRowSamples = [("Recipes", "Recipe"), ("Photos", "Photo"), ("Earthquakes", "Quake"), ("Library", "Book")]

    /// `samples` is the SampleStores folder; the time to first row is the slowest sample's median.
    static func run(store: URL, rows: Int, coredata: URL, samples: URL, rounds: Int) throws -> (comparisons: [Comparison], firstRowSeconds: Double) {
        let path = store.path
        let attributes = "text,length,created,score"
        let pairs: [(String, [String], [String])] = [
            ("csv, all attributes", [coredata.path, "query", path, "Entry", "--keys", attributes, "--format", "csv"],
             ["/usr/bin/sqlite3", "-readonly", "-csv", "-header", path, "SELECT ZTEXT, ZLENGTH, ZCREATED, ZSCORE FROM ZENTRY"]),
            ("jsonl, all attributes", [coredata.path, "query", path, "Entry", "--keys", attributes, "--format", "jsonl"],
             ["/usr/bin/sqlite3", "-readonly", "-json", path, "SELECT ZTEXT, ZLENGTH, ZCREATED, ZSCORE FROM ZENTRY"]),
            ("json, all attributes", [coredata.path, "query", path, "Entry", "--keys", attributes, "--format", "json"],
             ["/usr/bin/sqlite3", "-readonly", "-json", path, "SELECT ZTEXT, ZLENGTH, ZCREATED, ZSCORE FROM ZENTRY"]),
            ("table, all attributes", [coredata.path, "query", path, "Entry", "--keys", attributes, "--format", "table"],
             ["/usr/bin/sqlite3", "-readonly", "-box", path, "SELECT ZTEXT, ZLENGTH, ZCREATED, ZSCORE FROM ZENTRY"]),
            ("csv, text and chef.name", [coredata.path, "query", path, "Entry", "--keys", "text,chef.name", "--format", "csv"],
             ["/usr/bin/sqlite3", "-readonly", "-csv", "-header", path,
              "SELECT e.ZTEXT, c.ZNAME FROM ZENTRY e LEFT JOIN ZCHEF c ON c.Z_PK = e.ZCHEF"]),
            ("csv, text and parts.@count", [coredata.path, "query", path, "Entry", "--keys", "text,parts.@count", "--format", "csv"],
             ["/usr/bin/sqlite3", "-readonly", "-csv", "-header", path,
              "SELECT e.ZTEXT, (SELECT COUNT(*) FROM ZPART p WHERE p.ZENTRY = e.Z_PK) FROM ZENTRY e"]),
        ]
        var comparisons: [Comparison] = []
        for (name, ours, shell) in pairs {
            print("  cli · \(name)", terminator: "")
            fflush(nil)
            let oursMeasured = try median(rounds) { try measure(ours) }
            let shellMeasured = try median(rounds) { try measure(shell) }
            comparisons.append(Comparison(name: name, ours: oursMeasured, shell: shellMeasured))
            print(String(format: " %.2f s against %.2f s", oursMeasured.userSeconds, shellMeasured.userSeconds))
        }
        var firstRow = 0.0
        for (sample, entity) in firstRowSamples {
            let path = samples.appendingPathComponent("\(sample)/\(sample).sqlite").path
            let median = try (0..<max(rounds, 3)).map { _ in
                try secondsToFirstByte([coredata.path, "query", path, entity, "--format", "jsonl"])
            }.sorted()[max(rounds, 3) / 2]
            print(String(format: "  cli · first row, %@ %@: %.1f ms", sample, entity, median * 1000))
            firstRow = max(firstRow, median)
        }
        return (comparisons, firstRow)
    }

    static func table(_ comparisons: [Comparison], rows: Int, firstRowSeconds: Double) -> String {
        var lines = ["| command (\(rows.formatted()) rows, to a file) | coredata user s | sqlite3 user s | ratio | coredata wall s | sqlite3 wall s | coredata peak MB | sqlite3 peak MB | target |",
                     "|---|---:|---:|---:|---:|---:|---:|---:|---|"]
        for comparison in comparisons {
            let met = comparison.ratio <= limitRatio && comparison.ours.peakMB <= limitMB
            lines.append(String(format: "| %@ | %.2f | %.2f | %.2f× | %.2f | %.2f | %.1f | %.1f | %@ |", comparison.name,
                                comparison.ours.userSeconds, comparison.shell.userSeconds, comparison.ratio,
                                comparison.ours.wallSeconds, comparison.shell.wallSeconds, comparison.ours.peakMB,
                                comparison.shell.peakMB, met ? "met" : "missed"))
        }
        lines.append(String(format: "| process start to first row (slowest of the four samples, jsonl into a pipe) | %.1f ms | | | | | | | %@ |",
                            firstRowSeconds * 1000, firstRowSeconds <= 0.030 ? "met (≤ 30 ms)" : "missed (≤ 30 ms)"))
        return lines.joined(separator: "\n")
    }

    private static func median(_ rounds: Int, _ body: () throws -> Measurement) throws -> Measurement {
        let runs = try (0..<max(1, rounds)).map { _ in try body() }
        func middle(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        return Measurement(userSeconds: middle(runs.map(\.userSeconds)), systemSeconds: middle(runs.map(\.systemSeconds)),
                           wallSeconds: middle(runs.map(\.wallSeconds)), peakMB: runs.map(\.peakMB).max() ?? 0)
    }

    /// Runs `arguments` with standard output to /dev/null and returns its CPU times (from `wait4`) and peak
    /// resident set. The peak comes from GNU time (`/usr/bin/time -f %M`) running the command: Linux carries a
    /// process's high-water mark across `exec`, and a child spawned straight from this process starts from this
    /// process's own resident set (tens of MB), which would hide any smaller peak; time's fork starts from its own
    /// few hundred kilobytes. Without GNU time the peak is reported as 0.
    static func measure(_ arguments: [String]) throws -> Measurement {
        let timeTool = "/usr/bin/time"
        let hasTime = FileManager.default.isExecutableFile(atPath: timeTool)
        let peakFile = FileManager.default.temporaryDirectory.appendingPathComponent("cli-peak-\(getpid()).txt").path
        let command = hasTime ? [timeTool, "-f", "%M", "-o", peakFile] + arguments : arguments
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0)
        let start = ContinuousClock.now
        let pid = try spawn(command, actions: &actions)
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { throw RawSQLiteError(message: "wait4 failed for \(arguments[0])") }
        }
        let wall = (ContinuousClock.now - start).seconds
        guard status == 0 else { throw RawSQLiteError(message: "\(arguments.joined(separator: " ")) exited with status \(status)") }
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        var peakKB = 0.0
        if hasTime, let text = try? String(contentsOfFile: peakFile, encoding: .utf8) {
            peakKB = Double(text.split(whereSeparator: \.isNewline).last.map(String.init) ?? "") ?? 0
            try? FileManager.default.removeItem(atPath: peakFile)
        }
        // wait4 on GNU time includes its waited-for child, the command; time itself adds next to nothing.
        return Measurement(userSeconds: seconds(usage.ru_utime), systemSeconds: seconds(usage.ru_stime), wallSeconds: wall,
                           peakMB: peakKB / 1024)
    }

    /// Seconds from spawning `arguments` to the first byte on its standard output (a pipe).
    static func secondsToFirstByte(_ arguments: [String]) throws -> Double {
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { throw RawSQLiteError(message: "pipe failed") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], STDOUT_FILENO)
        posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
        let start = ContinuousClock.now
        let pid = try spawn(arguments, actions: &actions)
        close(pipeEnds[1])
        var byte: UInt8 = 0
        _ = read(pipeEnds[0], &byte, 1)
        let elapsed = (ContinuousClock.now - start).seconds
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while read(pipeEnds[0], &buffer, buffer.count) > 0 {}
        close(pipeEnds[0])
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return elapsed
    }

    private static func spawn(_ arguments: [String], actions: inout posix_spawn_file_actions_t) throws -> pid_t {
        var pid: pid_t = 0
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let result = posix_spawn(&pid, arguments[0], &actions, nil, &argv, environ)
        guard result == 0 else { throw RawSQLiteError(message: "cannot run \(arguments[0]): \(String(cString: strerror(result)))") }
        return pid
    }
}
