import Foundation
import OpenCoreData

/// A deterministic series of saves on a words store (entity `Word`: `text`, `length`, external-storage `blob`),
/// so that a test can tell from the store alone which save it holds. Save K (from 1):
/// - inserts N words `"K-i-xxx…"` with length K % 100, the first two carrying a 130 KB blob of bytes K % 251 (stored
///   in an external-data file);
/// - sets the length of the words of save K-1 to 100 + K % 100;
/// - deletes the words of save K-2 (with their external files).
struct SaveSeries {
    static let blobSize = 130 * 1024
    let url: URL
    let rowsPerSave: Int

    func run(saves: Int, beforeFirstSave: () -> Void, afterSave: (Int) -> Void) throws {
        guard let model = try SQLiteStoreFile(path: url.path).cachedModel() else {
            throw CocoaError(.fileReadCorruptFile)
        }
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, at: url)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        beforeFirstSave()
        for save in 1...max(saves, 1) {
            try context.performAndWait {
                try apply(save: save, in: context)
                try context.save()
                context.reset()
            }
            afterSave(save)
        }
    }

    private func apply(save: Int, in context: NSManagedObjectContext) throws {
        for index in 0..<rowsPerSave {
            let word = NSEntityDescription.insertNewObject(forEntityName: "Word", into: context)
            // Long enough that a save outgrows SQLite's page cache, which then writes pages before the commit.
            word.setValue("\(save)-\(index)-" + String(repeating: "x", count: 300), forKey: "text")
            word.setValue(Int16(save % 100), forKey: "length")
            if index < 2 { word.setValue(Data(repeating: UInt8(save % 251), count: Self.blobSize), forKey: "blob") }
        }
        for word in try words(ofSave: save - 1, in: context) { word.setValue(Int16(100 + save % 100), forKey: "length") }
        for word in try words(ofSave: save - 2, in: context) { context.delete(word) }
    }

    private func words(ofSave save: Int, in context: NSManagedObjectContext) throws -> [NSManagedObject] {
        guard save >= 1 else { return [] }
        let request = NSFetchRequest<NSManagedObject>(entityName: "Word")
        request.predicate = NSPredicate(format: "text BEGINSWITH %@", "\(save)-")
        return try context.fetch(request)
    }
}
