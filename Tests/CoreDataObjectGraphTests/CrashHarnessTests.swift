import CoreDataTestSupport
import Foundation
import SQLiteDatabase
import Testing

/// The crash and fault harness: a series of saves (StoreStressHelper `saves`) killed with SIGKILL at seeded points,
/// hit by I/O failures injected through the CSQLiteFaultVFS shim, and run under a file size limit. After each run
/// the store must open (recovering an interrupted save), pass `integrity_check`, hold exactly the last complete
/// save, and have a file for every external-data reference.
///
/// Sizes come from the environment so that `make stress` runs many more: OCD_KILLS (kills, default 50),
/// OCD_FAULT_RUNS (runs per fault kind and journal mode, default 3), OCD_SEED (default 16). Each test prints its
/// figures (for docs/RELIABILITY.md).
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: CrashSafetyTests.helper.path), "StoreStressHelper is not built"))
struct CrashHarnessTests {
    static let environment = ProcessInfo.processInfo.environment
    static let kills = environment["OCD_KILLS"].flatMap(Int.init) ?? 50
    static let faultRuns = environment["OCD_FAULT_RUNS"].flatMap(Int.init) ?? 3
    static let seed = environment["OCD_SEED"].flatMap(UInt64.init) ?? 16
    static let modes: [Connection.JournalMode] = [.delete, .wal]

    /// A fresh store per mode, built once and copied for each run (creating one costs more than copying it).
    static func freshStore(_ mode: Connection.JournalMode, from template: URL) throws -> URL {
        let url = try TemporaryDirectory.make().appendingPathComponent("Words.sqlite")
        try FileManager.default.copyItem(at: template, to: url)
        return url
    }

    /// The calls of each kind that a whole series makes in `mode`, from a run without faults.
    static func dryRun(_ mode: Connection.JournalMode) throws -> (template: URL, calls: [String: Int]) {
        let template = try SaveSeriesRun.makeStore(journalMode: mode)
        let url = try freshStore(mode, from: template)
        let outcome = try SaveSeriesRun.run(url)
        #expect(outcome.status == 0 && outcome.lastReported == SaveSeriesRun.saves, "dry run: \(outcome.output) \(outcome.errors)")
        let check = try SaveSeriesRun.check(url, after: outcome, comment: "dry run \(mode)")
        #expect(check.save == SaveSeriesRun.saves && check.orphanFiles == 0)
        return (template, outcome.calls)
    }

    @Test func sigkillAtSeededPointsKeepsTheLastCompleteSave() throws {
        var random = SeededRandom(seed: Self.seed)
        let dry = try Self.modes.map(Self.dryRun)
        var kills = 0, attempts = 0, recovered = 0, orphans = 0, bySignalFromParent = 0
        var savesSeen = [Int](repeating: 0, count: SaveSeriesRun.saves + 1)
        while kills < Self.kills && attempts < Self.kills * 2 {
            let index = attempts % Self.modes.count
            attempts += 1
            let (mode, template, writes) = (Self.modes[index], dry[index].template, dry[index].calls["writes"] ?? 1)
            let url = try Self.freshStore(mode, from: template)
            // Most kills land on an exact write (the shim kills the process there); every fifth comes from this
            // process at a seeded moment after the first save, as an outside kill would.
            let outcome: SaveSeriesRun.Outcome
            let point: String
            if attempts % 5 == 0 {
                let delay = useconds_t(random.next(below: 300_000))
                point = "parent SIGKILL \(delay) µs after save 1"
                outcome = try SaveSeriesRun.run(url, killAfterFirstSave: delay)
                if outcome.killed { bySignalFromParent += 1 }
            } else {
                let write = 1 + random.next(below: UInt64(writes))
                point = "SIGKILL at write \(write) of \(writes)"
                outcome = try SaveSeriesRun.run(url, environment: ["OCD_FAULT": "kill:\(write)"])
                #expect(outcome.killed, "\(mode) \(point): the child was not killed: \(outcome.output)")
            }
            guard outcome.killed else { continue }
            kills += 1
            let check = try SaveSeriesRun.check(url, after: outcome, comment: "\(mode) \(point)")
            if check.recoveredJournal != nil { recovered += 1 }
            orphans += check.orphanFiles
            if let save = check.save { savesSeen[save] += 1 }
        }
        #expect(kills >= Self.kills, "only \(kills) of \(attempts) runs were killed")
        print("crash harness: seed \(Self.seed): \(kills) kills survived (\(bySignalFromParent) from the parent), "
              + "\(recovered) hot journals recovered on open, stores held save 0…\(SaveSeriesRun.saves): \(savesSeen), "
              + "\(orphans) leftover external files")
    }

    @Test func injectedIOErrorsLeaveTheLastCompleteSave() throws {
        var random = SeededRandom(seed: Self.seed &+ 1)
        let dry = try Self.modes.map(Self.dryRun)
        let kinds: [(fault: String, calls: String)] = [
            ("full:%d:sticky", "writes"), ("full:%d", "writes"), ("short-write:%d", "writes"),
            ("read-error:%d", "reads"), ("sync-error:%d", "syncs"),
        ]
        var injected: [String: Int] = [:], failedSaves = 0, recovered = 0, runs = 0, journalNamed = 0
        for (index, mode) in Self.modes.enumerated() {
            for kind in kinds {
                let total = dry[index].calls[kind.calls] ?? 0
                guard total > 0 else { continue }
                for _ in 0..<Self.faultRuns {
                    let at = 1 + Int(random.next(below: UInt64(total)))
                    let fault = kind.fault.replacing("%d", with: String(at))
                    let url = try Self.freshStore(mode, from: dry[index].template)
                    let outcome = try SaveSeriesRun.run(url, environment: ["OCD_FAULT": fault])
                    runs += 1
                    let comment: Comment = "\(mode) \(fault)"
                    #expect(!outcome.killed && (outcome.status == 0 || outcome.status == 1), "\(comment): \(outcome.output) \(outcome.errors)")
                    injected[String(fault.prefix { $0 != ":" }) + (fault.hasSuffix("sticky") ? " (sticky)" : ""), default: 0] += outcome.calls["injected"] ?? 0
                    if outcome.status == 1 {
                        failedSaves += 1
                        #expect(outcome.output.contains("failed:"), comment)
                        if fault.hasPrefix("full") { #expect(outcome.output.contains("the disk is full"), "\(comment): \(outcome.output)") }
                        if outcome.output.contains("rollback is not finished") {
                            journalNamed += 1
                            #expect(outcome.output.contains("Words.sqlite-journal"), comment)
                        } else if mode == .delete {
                            try Self.expectMainFileAloneHolds(outcome.lastReported, url: url, comment: comment)
                        }
                    }
                    let check = try SaveSeriesRun.check(url, after: outcome, comment: comment)
                    if check.recoveredJournal != nil { recovered += 1 }
                }
            }
        }
        print("fault harness: seed \(Self.seed): \(runs) runs, faults injected by kind \(injected.sorted { $0.key < $1.key }), "
              + "\(failedSaves) saves failed cleanly, \(journalNamed) messages named the journal, \(recovered) journals recovered on open")
    }

    @Test func aFileSizeLimitFailsCleanly() throws {
        var random = SeededRandom(seed: Self.seed &+ 2)
        let dry = try Self.modes.map(Self.dryRun)
        var failed = 0, runs = 0
        for (index, mode) in Self.modes.enumerated() {
            for _ in 0..<max(2, Self.faultRuns) {
                let limit = 8192 + Int(random.next(below: 160 * 1024))
                let url = try Self.freshStore(mode, from: dry[index].template)
                let outcome = try SaveSeriesRun.run(url, environment: ["OCD_FSIZE": String(limit)])
                runs += 1
                let comment: Comment = "\(mode) RLIMIT_FSIZE \(limit)"
                #expect(!outcome.killed, "\(comment): SIGXFSZ is ignored, the save must fail with an error: \(outcome.errors)")
                if outcome.status == 1 {
                    failed += 1
                    #expect(outcome.output.contains("EFBIG") || outcome.output.contains("disk is full")
                            || outcome.output.contains("a file size limit, ulimit -f"), "\(comment): \(outcome.output)")
                    if mode == .delete && !outcome.output.contains("rollback is not finished") {
                        try Self.expectMainFileAloneHolds(outcome.lastReported, url: url, comment: comment)
                    }
                }
                _ = try SaveSeriesRun.check(url, after: outcome, comment: comment)
            }
        }
        #expect(failed > 0, "no file size limit was low enough to fail a save")
        print("RLIMIT_FSIZE harness: seed \(Self.seed): \(runs) runs, \(failed) saves failed cleanly")
    }

    /// A failed save whose message says the store is as it was must mean the main file alone (a rollback-journal
    /// store copied without its journal) holds the last complete save.
    static func expectMainFileAloneHolds(_ save: Int, url: URL, comment: Comment) throws {
        let alone = try TemporaryDirectory.make().appendingPathComponent("Alone.sqlite")
        try FileManager.default.copyItem(at: url, to: alone)
        let words: Int64?
        do {
            let connection = try Connection(path: alone.path, mode: .readOnly)
            #expect(try connection.integrityCheck() == ["ok"], "\(comment): the message said the store is as it was, but the main file alone is damaged")
            words = try connection.scalar("SELECT count(*) FROM ZWORD")?.int64Value
        } catch {
            Issue.record("\(comment): the message said the store is as it was, but the main file alone cannot be read: \(error)")
            return
        }
        let expected = SaveSeriesRun.expectedState(after: save).values.reduce(0) { $0 + $1[0] }
        #expect(words == expected, "\(comment): the main file alone holds \(words ?? -1) words, not save \(save)'s \(expected)")
    }
}
