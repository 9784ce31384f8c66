import CBenchMalloc
import CBenchSQLite
import Foundation

// The benchmark suite of issue 7: `swift run -c release Benchmarks --help` (or `usage` below) lists the options.

let arguments = Array(CommandLine.arguments.dropFirst())

/// Flags and options the parent process accepts; anything else stops the run before minutes of work are spent on a
/// typo (an unknown option used to be ignored, so `--help` ran the whole suite).
let knownFlags: Set<String> = ["--quick", "--trimming-allocator", "--help", "-h"]
let knownOptions: Set<String> = ["--only", "--output", "--implementation", "--rounds", "--workload"]
let usage = """
    usage: Benchmarks [--quick] [--only SECTION] [--workload TEXT] [--implementation TEXT] [--rounds N]
                      [--output FILE] [--trimming-allocator]
      --quick               reduced sizes (under two minutes once built)
      --only SECTION        sections whose name contains SECTION: words, items, batch, count, prefetch, predicates,
                            saves, cascade, import, atomic, memory, browser, migration, inmemory (the in-memory store),
                            frc (NSFetchedResultsController), stores (one entity in two stores),
                            cli (the coredata command line against the sqlite3 shell; needs
                            swift build -c release --product coredata)
      --workload TEXT       workloads whose name contains TEXT (within the chosen sections)
      --implementation TEXT implementations whose name contains TEXT; end TEXT with $ for an exact name
      --rounds N            timed rounds after the warm-up (0 for a single run under callgrind)
      --output FILE         the JSON report (default: results/latest.json in the Benchmarks package)
      --trimming-allocator  leave glibc's malloc trimming the heap between rounds

    """

if arguments.first != ResidentMemory.childFlag && arguments.first != BrowserScrolling.childFlag && arguments.first != MigrationMemory.childFlag {
    if arguments.contains("--help") || arguments.contains("-h") {
        print(usage, terminator: "")
        exit(0)
    }
    var index = 0
    while index < arguments.count {
        let argument = arguments[index]
        if knownOptions.contains(argument) {
            guard index + 1 < arguments.count else {
                FileHandle.standardError.write(Data("Benchmarks: \(argument) needs a value\n\(usage)".utf8))
                exit(2)
            }
            if argument == "--rounds", Int(arguments[index + 1]).map({ $0 >= 0 }) != true {
                FileHandle.standardError.write(Data(
                    "Benchmarks: --rounds needs a whole number of 0 or more, got '\(arguments[index + 1])'\n".utf8))
                exit(2)
            }
            index += 2
        } else if knownFlags.contains(argument) {
            index += 1
        } else {
            FileHandle.standardError.write(Data("Benchmarks: unknown argument '\(argument)'\n\(usage)".utf8))
            exit(2)
        }
    }
}

if arguments.first == ResidentMemory.childFlag {
    do {
        try ResidentMemory.child(arguments: Array(arguments.dropFirst()))
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("memory child: \(error)\n".utf8))
        exit(1)
    }
}

if arguments.first == MigrationMemory.childFlag {
    do {
        try MigrationMemory.child(arguments: Array(arguments.dropFirst()))
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("migration memory child: \(error)\n".utf8))
        exit(1)
    }
}

if arguments.first == BrowserScrolling.childFlag {
    do {
        try BrowserScrolling.child(arguments: Array(arguments.dropFirst()))
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("browser child: \(error)\n".utf8))
        exit(1)
    }
}

// The timed rounds run on a warm allocator, as a long-running program does. By default glibc's malloc hands the top of
// the heap back to the system whenever more than 128 KB of it is free, and serves blocks of 128 KB and more (growing
// with use) straight from `mmap`: a contender that frees what it built then pays a page fault and a zeroed page for
// every 4 KB it allocates in the next round, and whether it does depends on which contender ran before it (measured:
// the same contender at 400 and 480 ms in two runs, 60,000 page faults a round against 7,000). Keeping freed memory
// in the heap applies to every contender alike; the memory workloads measure their own child processes, which this
// does not reach (they return above). `--trimming-allocator` measures with glibc's defaults.
if !arguments.contains("--trimming-allocator") {
    mallopt(M_TRIM_THRESHOLD, Int32.max)
    mallopt(M_MMAP_THRESHOLD, 32 << 20)
}

@MainActor func option(_ name: String) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

/// Sizes of a run. Full sizes are issue 7's; quick ones keep every workload but shrink the data.
struct Sizes {
    var words: Int
    var items: Int
    /// Rows of ten integers inserted in one save (GRDB's insert suite).
    var itemInserts: Int
    var batchSmall: Int
    var batchLarge: Int
    var recipes: Int
    var memoryRows: Int
    /// Records inserted, updated and deleted in batched saves of `saveBatch`.
    var saves: Int
    var saveBatch: Int
    /// Parents (ten children each) deleted, `cascadeBatch` parents per save.
    var cascadeParents: Int
    var cascadeBatch: Int
    /// Records imported by find-or-create, `importBatch` per save.
    var imports: Int
    var importBatch: Int
    /// Records in the store a model change migrates.
    var migrationRows: Int
    var iterations: Int
    /// Rows of the command-line section's entity (issue 22).
    var cliRows: Int = 500_000

    static let full = Sizes(words: 500_000, items: 200_000, itemInserts: 50_000, batchSmall: 1_000_000,
                            batchLarge: 10_000_000, recipes: 10_000, memoryRows: 1_000_000, saves: 100_000,
                            saveBatch: 10_000, cascadeParents: 10_000, cascadeBatch: 1_000, imports: 20_000,
                            importBatch: 1_000, migrationRows: 1_000_000, iterations: 5)
    static let quick = Sizes(words: 100_000, items: 50_000, itemInserts: 20_000, batchSmall: 100_000,
                             batchLarge: 1_000_000, recipes: 2_000, memoryRows: 1_000_000, saves: 20_000,
                             saveBatch: 5_000, cascadeParents: 2_000, cascadeBatch: 500, imports: 5_000,
                             importBatch: 1_000, migrationRows: 100_000, iterations: 3, cliRows: 100_000)
}

let quick = arguments.contains("--quick")
let sizes = quick ? Sizes.quick : Sizes.full
let only = option("--only")
let packageDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let output = option("--output").map { URL(fileURLWithPath: $0) }
    ?? packageDirectory.appendingPathComponent("results/latest.json")

@MainActor func wanted(_ section: String) -> Bool { only.map { section.contains($0) } ?? true }

let onlyWorkload = option("--workload")
@MainActor func wanted(_ workload: Workload) -> Bool { onlyWorkload.map { workload.name.contains($0) } ?? true }

let started = ContinuousClock.now
print("OpenCoreData benchmarks (\(quick ? "quick" : "full")): \(sizes.iterations) rounds per workload after a warm-up, "
    + "SQLite \(String(cString: sqlite3_libversion()))")
let runner = Runner(iterations: option("--rounds").flatMap(Int.init) ?? sizes.iterations,
                    implementationFilter: option("--implementation"))
var results: [WorkloadResult] = []
var memory: ResidentMemory.Result?
var browser: BrowserScrolling.Result?
var migrationMemory: MigrationMemory.Result?
var commandLineTable: String?

do {
    let stores = try StoreFactory()
    if wanted("words") {
        results.append(runner.run(WordFetch.workload(store: try stores.wordStore(rows: sizes.words), rows: sizes.words)))
    }
    if wanted("items") {
        results += [IntegerColumns.workload(store: try stores.itemStore(rows: sizes.items), rows: sizes.items),
                    try IntegerInserts.workload(factory: stores, count: sizes.itemInserts)]
            .filter(wanted).map(runner.run)
    }
    if wanted("batch") {
        for rows in [sizes.batchSmall, sizes.batchLarge] {
            let store = try stores.largeWordStore(rows: rows)
            results += BatchFaulting.workloads(store: store, rows: rows).filter(wanted).map(runner.run)
        }
    }
    if wanted("count") {
        results += CountAndAggregates.workloads(store: try stores.wordStore(rows: sizes.words), rows: sizes.words)
            .filter(wanted).map(runner.run)
    }
    if wanted("prefetch") {
        results.append(runner.run(Prefetching.workload(store: try stores.recipeStore(recipes: sizes.recipes), recipes: sizes.recipes)))
    }
    if wanted("predicates") {
        results += PredicateWorkloads.workloads(
            words: try stores.wordStore(rows: sizes.words), wordRows: sizes.words,
            recipes: try stores.recipeStore(recipes: sizes.recipes), recipeRows: sizes.recipes
        ).filter(wanted).map(runner.run)
    }
    if wanted("saves") {
        results += try BatchedSaves.workloads(factory: stores, count: sizes.saves, batch: sizes.saveBatch)
            .filter(wanted).map(runner.run)
    }
    if wanted("cascade") {
        results.append(runner.run(try CascadeDelete.workload(factory: stores, parents: sizes.cascadeParents, batch: sizes.cascadeBatch)))
    }
    if wanted("import") {
        results.append(runner.run(try FindOrCreate.workload(factory: stores, count: sizes.imports, batch: sizes.importBatch)))
    }
    if wanted("migration") {
        results += try MigrationWorkloads.workloads(factory: stores, rows: sizes.migrationRows).filter(wanted).map(runner.run)
        if onlyWorkload.map({ "mapping model memory".contains($0) }) ?? true {
            migrationMemory = try MigrationMemory.run(factory: stores, objects: sizes.migrationRows)
        }
    }
    if wanted("frc") {
        results += FetchedResults.workloads(store: try stores.wordStore(rows: 100_000), rows: 100_000).filter(wanted).map(runner.run)
    }
    if wanted("stores") {
        results += try MultipleStores.workloads(single: try stores.wordStore(rows: 100_000), half: try stores.wordStore(rows: 50_000),
                                                rows: 100_000).filter(wanted).map(runner.run)
    }
    if wanted("inmemory") {
        results += [try InMemoryFetch.workload(rows: 100_000)].filter(wanted).map(runner.run)
    }
    if wanted("atomic") {
        results.append(runner.run(try AtomicStoreLoading.workload(objects: quick ? 20_000 : 100_000)))
    }
    if wanted("memory") {
        memory = try ResidentMemory.run(store: try stores.largeWordStore(rows: sizes.memoryRows), rows: sizes.memoryRows)
    }
    if wanted("browser") {
        browser = try BrowserScrolling.run(store: try stores.largeWordStore(rows: sizes.memoryRows), rows: sizes.memoryRows,
                                           runs: quick ? 1 : 3)
    }
    if wanted("cli") {
        if let coredata = CommandLineOutput.executable(packageDirectory: packageDirectory) {
            let samples = packageDirectory.deletingLastPathComponent().appendingPathComponent("SampleStores")
            let store = try CommandLineOutput.store(factory: stores, rows: sizes.cliRows)
            let measured = try CommandLineOutput.run(store: store, rows: sizes.cliRows, coredata: coredata, samples: samples,
                                                     rounds: option("--rounds").flatMap(Int.init) ?? (quick ? 1 : 3))
            commandLineTable = CommandLineOutput.table(measured.comparisons, rows: sizes.cliRows, firstRowSeconds: measured.firstRowSeconds)
        } else {
            print("  cli · skipped: no coredata release build (swift build -c release --product coredata, or set COREDATA_BIN)")
        }
    }
} catch {
    print("\nbenchmark failed: \(error)")
    exit(1)
}

let report = Report(
    mode: quick ? "quick" : "full",
    date: ISO8601DateFormatter().string(from: Date()),
    machine: .current,
    sqliteVersion: String(cString: sqlite3_libversion()),
    iterations: sizes.iterations,
    workloads: results,
    scaling: BatchFaulting.scaling(results, small: sizes.batchSmall, large: sizes.batchLarge),
    memory: memory,
    browser: browser,
    migrationMemory: migrationMemory,
    pending: [])

print()
print(report.table)
print()
print(report.targetsTable + (migrationMemory.map { "\n" + MigrationMemory.row($0) } ?? ""))
if let commandLineTable {
    print()
    print(commandLineTable)
}
do {
    try report.write(to: output)
    print("\nwrote \(output.path) in \(String(format: "%.0f", (ContinuousClock.now - started).seconds)) s")
} catch {
    print("cannot write \(output.path): \(error)")
    exit(1)
}
