import ArgumentParser
import CoreDataModel
import CoreDataObjectGraph
import CoreDataSQLiteFormat
import Foundation
import StoreAccess

/// `coredata migrate STORE --model MODEL`: brings a store to the model's current version by lightweight
/// (inferred) migration, stepping through every version in between, in one transaction.
struct MigrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Migrate a store to the current version of a model (lightweight, or with mapping models).",
        discussion: """
            Finds the model version that wrote STORE (by its version hashes), then migrates it through each later \
            version up to the current one, inferring each step as Core Data does, except the steps a --mapping \
            model covers (Xcode's .xcmappingmodel, matched to its step by the model versions it was drawn \
            between, or a compiled .cdm, by the entity versions it was compiled for). Inferred steps run in one SQLite transaction; a mapping model with expressions or a policy \
            runs object by object into a new file beside the store, which replaces the store only once every step \
            has succeeded. Either way, if anything fails, or the process is killed, the store stays at its old \
            version. Before migrating, a copy of the store is kept as STORE.backup-YYYYMMDD-HHMMSS beside it \
            (--no-backup skips it). --dry-run migrates a scratch copy and prints the plan: per step, the inferred \
            mapping or the mapping model file, and the tables changed in place (ALTER TABLE) or by a table copy. \
            An XML or binary store is migrated object by object through every step into new files beside it, and \
            the result replaces the store in one atomic write.
            """)

    @Argument(help: "The store to migrate (SQLite, XML or binary).")
    var store: String

    @Option(name: .long, help: "The model: an .xcdatamodeld or .momd with every version, or one version.")
    var model: String

    @Option(name: .long, help: "Migrate to this version of the model instead of its current one.")
    var to: String?

    @Option(name: .long, help: ArgumentHelp(
        "A mapping model (.xcmappingmodel or .cdm) for the step it maps, or a directory of them; repeat for several.",
        valueName: "mapping"))
    var mapping: [String] = []

    @Flag(name: .long, help: "Print the plan without changing the store.")
    var dryRun = false

    @Flag(name: .long, help: "Do not keep a backup copy of the store.")
    var noBackup = false

    @OptionGroup var global: GlobalOptions

    func run() throws {
        global.apply()
        let url = URL(fileURLWithPath: store)
        do {
            var versions = try ModelLoader.loadVersions(at: URL(fileURLWithPath: model))
            if let to {
                guard let index = versions.versions.firstIndex(where: { $0.name == to }) else {
                    throw CommandFailure("\(model): has no version \(to) (versions: \(versions.versions.map(\.name).joined(separator: ", ")))")
                }
                versions.currentIndex = index
            }
            let type = try StoreKind.detectedType(at: url.path)
            if type != NSSQLiteStoreType {
                try runOnAtomicStore(url: url, type: type, versions: versions)
                return
            }
            let file = try SQLiteStoreFile(path: url.path)
            StoreNotes.report(file.recoveryNote)
            let provided = try Self.mappingModels(mapping, versions: versions, modelPath: model)
            let path = try VersionMigrationPath(storeHashes: file.metadata.versionHashes, storeModel: try? file.cachedModel(),
                                               versions: versions, file: url.path, mappings: provided)
            guard !path.steps.isEmpty else {
                print("\(url.path) is already at the current version \(path.destinationVersionName); nothing to migrate")
                return
            }
            print("\(url.path): version \(path.sourceVersionName) → \(path.destinationVersionName), \(path.steps.count) step(s)")
            if path.steps.contains(where: { !NSMigrationManager.runsAsSQL($0.step.mapping) }) {
                try runWithObjectSteps(path, store: url, currentModel: versions.currentModel)
                return
            }
            if dryRun {
                let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("coredata-migrate-\(UUID().uuidString)")
                defer { try? FileManager.default.removeItem(at: scratch) }
                let copy = scratch.appendingPathComponent(url.lastPathComponent)
                try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
                try NSPersistentStoreCoordinator(managedObjectModel: versions.currentModel)
                    .replacePersistentStore(at: copy, withPersistentStoreFrom: url, ofType: NSSQLiteStoreType)
                let plans = try SQLiteStoreMigrator.migrate(storeAt: copy.path, steps: path.steps.map(\.step))
                for (index, (step, plan)) in zip(path.steps, plans).enumerated() {
                    print(Self.describe(step: index + 1, from: step.from, to: step.to, mapping: step.step.mapping, file: step.mappingFile, plan: plan))
                }
                print("dry run: the store was not changed")
                return
            }
            if !noBackup {
                let backup = URL(fileURLWithPath: url.path + ".backup-" + Self.timestamp())
                try NSPersistentStoreCoordinator(managedObjectModel: versions.currentModel)
                    .replacePersistentStore(at: backup, withPersistentStoreFrom: url, ofType: NSSQLiteStoreType)
                print("backup: \(backup.path)")
            }
            let bar = ProgressLine(label: "migrating")
            var stepProgress = StepProgress(steps: path.steps.count)
            let plans = try SQLiteStoreMigrator.migrate(storeAt: url.path, steps: path.steps.map(\.step)) { done, total in
                let (part, whole) = stepProgress.fraction(done: done, total: total)
                bar.show(part, whole)
            }
            bar.finish()
            for (index, (step, plan)) in zip(path.steps, plans).enumerated() {
                print(Self.describe(step: index + 1, from: step.from, to: step.to, mapping: step.step.mapping, file: step.mappingFile, plan: plan))
            }
            print("migrated to \(path.destinationVersionName)")
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw CommandFailure(wrapping: error)
        }
    }

    /// One step of the plan; `plan` nil for a step run object by object.
    static func describe(step: Int, from: String, to: String, mapping: NSMappingModel, file: String?, plan: SQLiteMigrationPlan?) -> String {
        let how = plan.map { $0.isInPlace ? "SQL in place" : "SQL with table copies" }
            ?? "object by object (\(mapping.entityMappings.count) entity mappings)"
        var lines = ["step \(step): \(from) → \(to), " + (file.map { "mapping model \($0)" } ?? "inferred mapping") + ", " + how]
        let changed = mapping.entityMappings.filter { $0.mappingType != .copyEntityMappingType }.map { mapping -> String in
            switch mapping.mappingType {
            case .addEntityMappingType: return "+\(mapping.destinationEntityName ?? "?")"
            case .removeEntityMappingType: return "-\(mapping.sourceEntityName ?? "?")"
            default:
                let (from, to) = (mapping.sourceEntityName ?? "?", mapping.destinationEntityName ?? "?")
                return from == to ? to : "\(from) renamed \(to)"
            }
        }
        lines.append("  entities changed: " + (changed.isEmpty ? "none" : changed.joined(separator: ", ")))
        for table in plan?.tables ?? [] where table.method != .unchanged {
            lines.append("  \(table.table): \(table.method.rawValue)" + (table.notes.isEmpty ? "" : " (\(table.notes.joined(separator: ", ")))"))
        }
        for table in plan?.droppedTables ?? [] { lines.append("  \(table): dropped") }
        return lines.joined(separator: "\n")
    }

    static func timestamp() -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        return formatter.string(from: Date())
    }
}

/// The migrator counts statements over all steps, and its total grows as each later step is planned, so its own
/// fraction can fall back; the bar gives each step an equal share instead, and so only moves forward.
struct StepProgress {
    let steps: Int
    private var step = -1
    private var lastTotal = -1
    private var stepStart = 0
    static let share = 1_000

    init(steps: Int) { self.steps = max(steps, 1) }

    /// `done` of `total` statements as a part of `steps * share`.
    mutating func fraction(done: Int, total: Int) -> (part: Int, whole: Int) {
        let whole = steps * Self.share
        // The last call reports everything done (`done == total`).
        if done == total, step >= 0 { return (whole, whole) }
        if total != lastTotal {
            step = min(step + 1, steps - 1)
            lastTotal = total
            stepStart = done
        }
        // This step's statements: the total less those of earlier steps and one for each step not planned yet.
        let statements = max(total - stepStart - (steps - 1 - step), 1)
        let inStep = min(done - stepStart, statements) * Self.share / statements
        return (step * Self.share + inStep, whole)
    }
}
