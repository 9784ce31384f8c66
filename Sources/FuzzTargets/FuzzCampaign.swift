import Foundation

/// A seeded, mutation-based fuzz run of one target: each seed runs once as it is, then `iterations` mutants of
/// corpus inputs run. Inputs a target accepts join the corpus (a coarse stand-in for coverage feedback), so
/// mutations build on inputs that get far.
public struct FuzzCampaign {
    public let target: FuzzTarget
    public let seeds: [[UInt8]]

    /// What a run did.
    public struct Report: Sendable {
        /// Inputs run (seeds and mutants).
        public var executions = 0
        /// Inputs the target's reader accepted.
        public var accepted = 0
        /// Inputs refused with the reader's own error type.
        public var rejected = 0
        /// Inputs that broke a guarantee, with what broke (at most 20 kept).
        public var violations: [(input: [UInt8], message: String)] = []
        /// All violations, including those not kept.
        public var violationCount = 0
    }

    /// A campaign on `target` starting from `seeds` (an empty input when there are none).
    public init(target: FuzzTarget, seeds: [[UInt8]]) {
        self.target = target
        self.seeds = seeds.isEmpty ? [[]] : seeds
    }

    /// Runs the seeds, then `iterations` mutants made with `seed`; `progress` is called every 10,000 executions.
    /// With `lastInputPath`, each input is written there before it runs, so an input that stops the process can be
    /// found afterwards (libFuzzer saves such inputs itself).
    public func run(iterations: Int, seed: UInt64, maximumLength: Int = 64 * 1024, lastInputPath: String? = nil,
                    progress: ((Report) -> Void)? = nil) -> Report {
        var report = Report()
        var corpus = seeds
        let corpusLimit = seeds.count + 512
        var mutator = SeededMutator(seed: seed, dictionary: target.dictionary, maximumLength: maximumLength)
        func execute(_ input: [UInt8], fromSeeds: Bool) {
            report.executions += 1
            if let lastInputPath { try? Data(input).write(to: URL(fileURLWithPath: lastInputPath)) }
            switch target.run(input) {
            case .accepted:
                report.accepted += 1
                if !fromSeeds && corpus.count < corpusLimit { corpus.append(input) }
            case .rejected:
                report.rejected += 1
            case .violation(let message):
                report.violationCount += 1
                if report.violations.count < 20 { report.violations.append((input, message)) }
            }
            if report.executions % 10_000 == 0 { progress?(report) }
        }
        for input in seeds { execute(input, fromSeeds: true) }
        for _ in 0..<iterations {
            let base = corpus[mutator.below(corpus.count)]
            execute(mutator.mutate(base, corpus: corpus), fromSeeds: false)
        }
        return report
    }
}
