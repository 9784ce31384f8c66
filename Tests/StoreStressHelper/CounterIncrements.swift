import Foundation
import OpenCoreData

/// `StoreStressHelper increment STORE N WORKER`: N increments of the `value` of `Counter` objects (counter
/// `(WORKER + i) % count` for the i-th), each read, incremented and saved on its own; an optimistic-locking conflict
/// refreshes the object and tries again. Prints `updates=N conflicts=C`.
func runCounterIncrements(store url: URL, increments: Int, worker: Int) throws {
    guard let model = try SQLiteStoreFile(path: url.path).cachedModel() else { throw CocoaError(.fileReadCorruptFile) }
    let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
    try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, at: url, options: [NSPersistentStoreTimeoutOption: 30.0])
    let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
    context.persistentStoreCoordinator = coordinator
    var conflicts = 0
    try context.performAndWait {
        let counters = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Counter"))
            .sorted { $0.objectID.primaryKey < $1.objectID.primaryKey }
        for index in 0..<increments {
            let counter = counters[(worker + index) % counters.count]
            while true {
                let value = counter.value(forKey: "value") as? Int64 ?? 0
                counter.setValue(value + 1, forKey: "value")
                do {
                    try context.save()
                    break
                } catch let error as CoreDataError where error.code == .managedObjectMerge {
                    // Another process saved first: read its value and try again.
                    conflicts += 1
                    context.rollback()
                    context.refresh(counter, mergeChanges: false)
                }
            }
        }
    }
    print("updates=\(increments) conflicts=\(conflicts)")
}
