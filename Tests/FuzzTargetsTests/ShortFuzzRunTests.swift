import CoreDataTestSupport
import Foundation
import FuzzTargets
import Testing

/// The short fuzz runs of `make test`: every target on its seeds (our own, the sample stores and models, and a
/// copy of the Apple fixtures when present), then a fixed number of seeded mutants. No input may trap, and every
/// refusal must be the reader's own error type (a violation otherwise). `make fuzz` runs the same bodies for long.
@Suite("Fuzzing: short seeded runs")
struct ShortFuzzRunTests {
    /// Seeds gathered once for the suite: the repository's samples and a temporary copy of the fixtures.
    static let seeds: [FuzzTarget: [[UInt8]]] = {
        var roots = [Fixtures.projectRoot.appendingPathComponent("SampleStores"),
                     Fixtures.projectRoot.appendingPathComponent("Tests/FuzzTargetsTests/Seeds")]
        if Fixtures.isAvailable {
            for folder in ["stores", "models"] {
                if let copy = try? Fixtures.copy(folder) { roots.append(copy) }
            }
        }
        // The sample stores are opened read-only in place: they are ours and in rollback-journal mode.
        return FuzzSeeds.collect(from: roots)
    }()

    /// Mutants per target: each run takes a few seconds in a debug build.
    static let iterations: [FuzzTarget: Int] = [
        .predicateParser: 20_000, .binaryPropertyList: 20_000, .xmlPropertyList: 10_000, .keyedArchive: 6_000,
        .modelCache: 4_000, .xcdatamodelContents: 3_000, .legacyElements: 3_000, .modelInference: 2_000,
        .terminalSanitizer: 20_000, .xmlStore: 3_000, .binaryStore: 3_000,
    ]

    @Test("No input traps and every refusal is a typed error", arguments: FuzzTarget.allCases)
    func shortRun(target: FuzzTarget) {
        let seeds = Self.seeds[target] ?? []
        let report = FuzzCampaign(target: target, seeds: seeds).run(iterations: Self.iterations[target] ?? 1_000, seed: 16)
        print("fuzz \(target.rawValue): \(report.executions) executions, \(report.accepted) accepted, "
              + "\(report.rejected) rejected, \(seeds.count) seeds")
        #expect(report.executions == seeds.count + (Self.iterations[target] ?? 1_000))
        #expect(report.violationCount == 0, "\(report.violations.prefix(3).map { "\($0.message) [\($0.input.map { String(format: "%02x", $0) }.joined())]" })")
        // Some mutants get past the first checks, or the run tests nothing.
        #expect(report.accepted > 0)
    }

    @Test("The mutator is deterministic for a seed")
    func mutatorIsDeterministic() {
        var first = SeededMutator(seed: 7, dictionary: FuzzTarget.predicateParser.dictionary)
        var second = SeededMutator(seed: 7, dictionary: FuzzTarget.predicateParser.dictionary)
        let input = Array("name == 'x'".utf8)
        for _ in 0..<100 {
            #expect(first.mutate(input, corpus: [input]) == second.mutate(input, corpus: [input]))
        }
    }
}
