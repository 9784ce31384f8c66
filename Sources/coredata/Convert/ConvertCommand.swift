import ArgumentParser
import CoreDataModel
import CoreDataObjectGraph
import Foundation
import StoreAccess

/// `coredata convert IN OUT --to sqlite|xml|binary [--model M] [--type T]`: the same objects in a store of another
/// type, through `migratePersistentStore` (every object, value, relationship with its order, and the app's metadata).
struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert a store to another store type (SQLite, XML, binary).",
        discussion: """
            Every object, value and relationship (with its order) and the app's metadata are copied; the new store \
            has a UUID of its own. OUT must not exist. The new store is written beside OUT under a temporary name and \
            renamed to OUT when complete, so OUT is either absent or whole. An XML or binary store carries no model: \
            --model gives it (an XML store is otherwise read with a model inferred from the file). Examples:
              coredata convert Recipes.sqlite Recipes.xml --to xml
              coredata convert Recipes.binary Recipes.sqlite --to sqlite --model Recipes.xcdatamodeld
            """)

    @Argument(help: "The store to read (any type).", completion: .file()) var input: String
    @Argument(help: "The store to write; it must not exist.", completion: .file()) var output: String
    @Option(help: "The type to write: sqlite, xml, binary or a registered custom type.") var to: String
    @Option(help: "A model to read the store with instead of the one it carries.") var model: String?
    @Option(help: "The type of IN; detected from the file when not given.") var type: String?
    @OptionGroup var global: GlobalOptions

    func validate() throws {
        for name in [to] + (type.map { [$0] } ?? []) {
            do {
                _ = try StoreKind(typeName: name)
            } catch {
                throw ValidationError("\(error)")
            }
        }
        if (try? StoreKind(typeName: to)) == .memory {
            throw ValidationError("--to memory: an in-memory store keeps no file to write")
        }
    }

    func run() throws {
        global.apply()
        guard case .file(let targetType) = try StoreKind(typeName: to) else { return }
        let outputURL = URL(fileURLWithPath: output).standardizedFileURL
        let sideFiles = ["", "-wal", "-shm", "-journal"].map { outputURL.path + $0 }
        if let existing = sideFiles.first(where: { FileManager.default.fileExists(atPath: $0) }) {
            throw CommandFailure("\(existing): already exists; refusing to overwrite it (convert writes a new store)")
        }
        let session: StoreSession
        do {
            session = try StoreSession(storePath: input, modelPath: model, readOnly: true, kind: try type.map(StoreKind.init(typeName:)))
        } catch {
            throw CommandFailure(wrapping: error)
        }
        StoreNotes.report(session.recoveryNote)
        guard let store = session.coordinator.persistentStores.first else { throw CommandFailure("\(input): no store was opened") }
        let objects = try session.context.performAndWait {
            try session.model.entities.filter { $0.superentity == nil }.reduce(0) { total, entity in
                total + (try session.context.count(for: NSFetchRequest<NSManagedObject>(entityName: entity.entityName)))
            }
        }
        // Written under a temporary name beside OUT, then renamed: OUT never holds half a store.
        let directory = outputURL.deletingLastPathComponent()
        let temporary = directory.appendingPathComponent(".\(outputURL.deletingPathExtension().lastPathComponent).converting-\(UUID().uuidString)")
            .appendingPathExtension(outputURL.pathExtension)
        let bar = ProgressLine(label: "converting")
        let progress: (Int, Int) -> Void = { done, total in bar.show(done, total) }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let converted = try session.coordinator.migratePersistentStore(store, to: temporary, options: [OCDMigrationProgressOption: progress],
                                                                           withType: targetType)
            bar.finish()
            // Closed before the rename, so an SQLite store's write-ahead log is checkpointed into the file.
            try session.coordinator.remove(converted)
            try Self.moveSupportDirectory(from: temporary, to: outputURL)
            try FileManager.default.moveItem(at: temporary, to: outputURL)
        } catch {
            bar.finish()
            for path in ["", "-wal", "-shm", "-journal"].map({ temporary.path + $0 }) { try? FileManager.default.removeItem(atPath: path) }
            try? FileManager.default.removeItem(at: Self.supportDirectory(of: temporary))
            throw CommandFailure("cannot convert \(input) to \(StoreKind.name(of: targetType)); \(output) was not written: "
                                 + CommandFailure.describe(error))
        }
        print("converted \(session.path) (\(StoreKind.name(of: session.storeType)), \(objects) object\(objects == 1 ? "" : "s")) "
              + "to \(output) (\(StoreKind.name(of: targetType)))")
    }

    /// Where an SQLite store keeps its external binary data: `.NAME_SUPPORT` beside it.
    private static func supportDirectory(of url: URL) -> URL {
        url.deletingLastPathComponent().appendingPathComponent(".\(url.deletingPathExtension().lastPathComponent)_SUPPORT", isDirectory: true)
    }

    /// An SQLite store's external data moves with it.
    private static func moveSupportDirectory(from temporary: URL, to output: URL) throws {
        let source = supportDirectory(of: temporary)
        guard FileManager.default.fileExists(atPath: source.path) else { return }
        let destination = supportDirectory(of: output)
        if FileManager.default.fileExists(atPath: destination.path) {
            throw CommandFailure("\(destination.path): already exists; refusing to overwrite another store's external data")
        }
        try FileManager.default.moveItem(at: source, to: destination)
    }
}
