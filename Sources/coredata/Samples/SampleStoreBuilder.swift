import CoreDataModel
import CoreDataObjectGraph
import CoreDataSQLiteFormat
import Foundation
import SQLiteDatabase

/// Writes one sample into `DIR/<Name>/`: the model as `<Name>.xcdatamodeld`, then the store `<Name>.sqlite`
/// created as Apple would create it and filled through a context, then checkpointed into a single file.
struct SampleStoreBuilder {
    let generator: any SampleGenerator.Type
    let scale: Int
    let directory: URL
    let seed: UInt64

    var storeURL: URL { directory.appendingPathComponent("\(generator.name).sqlite") }
    var modelURL: URL { directory.appendingPathComponent("\(generator.name).xcdatamodeld") }
    /// Where the store keeps external binary data, which `--force` removes with the store.
    var supportURL: URL { directory.appendingPathComponent(".\(generator.name)_SUPPORT") }

    /// The files a store consists of, besides the support folder.
    var storeFiles: [URL] {
        ["", "-wal", "-shm", "-journal"].map { URL(fileURLWithPath: storeURL.path + $0) }
    }

    /// What was written, for the command's report.
    struct Summary {
        var storePath: String
        var counts: [(entity: String, count: Int)]
        var externalFiles: Int
    }

    func removeExistingStore() throws {
        for url in storeFiles + [supportURL] where FileManager.default.fileExists(atPath: url.path) {
            try FileManager.default.removeItem(at: url)
        }
    }

    func build() throws -> Summary {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let model = try writeModel()
        do {
            var random = SampleRandom(seed: seed, stream: generator.name)
            // The store's UUID comes from the seed too, so regenerating writes the same metadata.
            try SQLiteStoreCreator.createStore(at: storeURL, model: model, uuid: random.uuid())
            try fill(model: model, random: &random)
            try checkpointIntoSingleFile()
            return try summarize(model: model)
        } catch {
            // Nothing half-written is left behind: the store, its side files and its external data go.
            try? removeExistingStore()
            throw error
        }
    }

    /// Writes the model beside the store (replacing an older copy) and loads it from there.
    private func writeModel() throws -> NSManagedObjectModel {
        let versionFolder = modelURL.appendingPathComponent("\(generator.name).xcdatamodel")
        try FileManager.default.createDirectory(at: versionFolder, withIntermediateDirectories: true)
        let currentVersion = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \t<key>_XCCurrentVersionName</key>
            \t<string>\(generator.name).xcdatamodel</string>
            </dict>
            </plist>

            """
        try Data(currentVersion.utf8).write(to: modelURL.appendingPathComponent(".xccurrentversion"))
        try Data((generator.modelContents + "\n").utf8).write(to: versionFolder.appendingPathComponent("contents"))
        return try ModelLoader.loadModel(at: modelURL)
    }

    /// Generates the objects through a private-queue context. The stack lives only inside this function, so the
    /// store's connection is closed when it returns.
    private func fill(model: NSManagedObjectModel, random: inout SampleRandom) throws {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, at: storeURL, options: [:])
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        let sample = generator.init(scale: scale)
        try context.performAndWait {
            // Only the large samples take long enough for a bar.
            let bar = scale >= 10_000 ? ProgressLine(label: "generating \(generator.name)") : nil
            try sample.generate(into: SampleStoreWriter(context: context, progress: bar.map { ($0, scale) }), random: &random)
            // The last save rarely falls on a batch boundary, where the writer advances the bar.
            bar?.show(scale, scale)
            bar?.finish()
        }
        for store in coordinator.persistentStores { try coordinator.remove(store) }
    }

    /// Folds the write-ahead log into the database and leaves rollback-journal mode, so the store is one file that
    /// opens read-only from a fresh clone (a WAL database needs its `-shm`, which git does not keep).
    private func checkpointIntoSingleFile() throws {
        let connection = try Connection(path: storeURL.path, mode: .readWrite)
        let checkpoint = try connection.query("PRAGMA wal_checkpoint(TRUNCATE)")
        guard checkpoint.first?.first == .integer(0) else {
            throw CommandFailure("\(storeURL.path): the write-ahead log could not be checkpointed (another process has the store open?)")
        }
        guard try connection.setJournalMode(.delete) == .delete else {
            throw CommandFailure("\(storeURL.path): could not switch the store to journal_mode=DELETE")
        }
        let integrity = try connection.integrityCheck()
        guard integrity == ["ok"] else {
            throw CommandFailure("\(storeURL.path): integrity check failed: \(integrity.joined(separator: "; "))")
        }
    }

    /// Counts every entity through a fresh read-only stack: proof that the finished file opens with its model.
    private func summarize(model: NSManagedObjectModel) throws -> Summary {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, at: storeURL, options: [NSReadOnlyPersistentStoreOption: true])
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        let counts = try context.performAndWait {
            try model.entities.map(\.entityName).sorted().map { name in
                (name, try context.count(for: NSFetchRequest<NSManagedObject>(entityName: name)))
            }
        }
        let externalFolder = supportURL.appendingPathComponent("_EXTERNAL_DATA")
        let externalFiles = (try? FileManager.default.contentsOfDirectory(atPath: externalFolder.path))?.count ?? 0
        return Summary(storePath: storeURL.relativePath, counts: counts, externalFiles: externalFiles)
    }
}
