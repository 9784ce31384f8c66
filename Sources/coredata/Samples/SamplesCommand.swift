import ArgumentParser
import Foundation

/// `coredata samples`: generates the sample stores deterministically, through the library (contexts, inserts,
/// batched saves), so the same seed always writes the same objects.
struct SamplesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "samples",
        abstract: "Generate the sample stores deterministically.",
        discussion: """
            Writes DIR/<Name>/<Name>.sqlite and its model DIR/<Name>/<Name>.xcdatamodeld for each sample. \
            The small size (Recipes, Photos, Earthquakes, Library) is the one committed to SampleStores/; \
            the large size (Words 500,000, Earthquakes 1,000,000, Recipes 20,000) is for benchmarks and is \
            written to SampleStores/large unless --out is given. Each store is checkpointed into a single file \
            (journal_mode=DELETE). An existing store is never replaced without --force.
            """)

    /// The seed of the committed samples (documented in SampleStores/README.md).
    static let defaultSeed: UInt64 = 0x5EED_C0DE_DA7A

    @Option(name: .long, help: ArgumentHelp("The folder to write into (default: SampleStores, or SampleStores/large for --size large).", valueName: "dir"))
    var out: String?

    @Option(name: .long, help: "small (committed) or large (on demand).")
    var size: SampleSize = .small

    @Option(name: .long, parsing: .upToNextOption, help: ArgumentHelp("Generate only these samples.", valueName: "name"))
    var only: [String] = []

    @Option(name: .long, help: "The seed of the pseudo-random generator.")
    var seed: UInt64 = SamplesCommand.defaultSeed

    @Flag(name: .long, help: "Replace existing stores (with their -wal, -shm and external data).")
    var force = false

    @OptionGroup var global: GlobalOptions

    func validate() throws {
        for name in only {
            guard let generator = SampleCatalog.generator(named: name) else {
                throw ValidationError("unknown sample \"\(name)\"; the samples are \(SampleCatalog.all.map { $0.name }.joined(separator: ", "))")
            }
            guard generator.scale(for: size) != nil else {
                let sizes = SampleSize.allCases.filter { generator.scale(for: $0) != nil }.map { "--size \($0.rawValue)" }
                throw ValidationError("\(generator.name) is not generated at --size \(size.rawValue); it is at \(sizes.joined(separator: ", "))")
            }
        }
    }

    func run() throws {
        global.apply()
        let root = URL(fileURLWithPath: out ?? (size == .small ? "SampleStores" : "SampleStores/large"))
        let selected = SampleCatalog.all.filter { generator in
            generator.scale(for: size) != nil && (only.isEmpty || only.contains { $0.lowercased() == generator.name.lowercased() })
        }
        let builders = selected.map { generator in
            SampleStoreBuilder(generator: generator, scale: generator.scale(for: size)!,
                               directory: root.appendingPathComponent(generator.name), seed: seed)
        }
        // Every refusal is reported before anything is written.
        let existing = builders.filter { FileManager.default.fileExists(atPath: $0.storeURL.path) }
        if !force, !existing.isEmpty {
            throw CommandFailure("refusing to overwrite \(existing.map(\.storeURL.relativePath).joined(separator: ", ")): "
                                 + "pass --force to replace \(existing.count == 1 ? "it" : "them") (with side files and external data)")
        }
        for builder in builders {
            do {
                if force { try builder.removeExistingStore() }
                let summary = try builder.build()
                let counts = summary.counts.map { "\($0.entity) \($0.count)" }.joined(separator: ", ")
                let external = summary.externalFiles == 0 ? "" : "; \(summary.externalFiles) external data file\(summary.externalFiles == 1 ? "" : "s")"
                print("wrote \(summary.storePath): \(counts)\(external)")
            } catch let failure as CommandFailure {
                throw failure
            } catch {
                throw CommandFailure("\(builder.storeURL.relativePath): \(CommandFailure.describe(error))")
            }
        }
    }
}

extension SampleSize: ExpressibleByArgument {}
