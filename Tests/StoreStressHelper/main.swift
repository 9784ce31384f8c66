// A child process for tests that must fail the way real machines fail: killed with SIGKILL in the middle of a
// large save, or out of disk space during one. It saves through the public API only.
//
//   StoreStressHelper large-save STORE N          inserts N words in one save, printing "saving" first
//   StoreStressHelper full-disk STORE N BYTES     the same with the process's file size limited to BYTES
//   StoreStressHelper off-queue STORE 0            fetches on a private-queue context without perform (must trap)
//   StoreStressHelper increment STORE N WORKER     N increments of Counter values, retried on conflicts (CounterIncrements.swift)
import Foundation
import OpenCoreData

let arguments = CommandLine.arguments
guard arguments.count >= 4, let count = Int(arguments[3]) else {
    FileHandle.standardError.write(Data("usage: StoreStressHelper large-save|full-disk STORE N [BYTES]\n".utf8))
    exit(2)
}
let url = URL(fileURLWithPath: arguments[2])

if arguments[1] == "increment" {
    do {
        try runCounterIncrements(store: url, increments: count, worker: arguments.count >= 5 ? Int(arguments[4]) ?? 0 : 0)
        exit(0)
    } catch {
        print("failed: \(error)")
        exit(1)
    }
}

if arguments[1] == "full-disk", arguments.count >= 5, let bytes = UInt(arguments[4]) {
    // Writing past the limit then fails with EFBIG, as a full disk fails with ENOSPC.
    signal(SIGXFSZ, SIG_IGN)
    var limit = rlimit(rlim_cur: rlim_t(bytes), rlim_max: rlim_t(bytes))
    setrlimit(Int32(RLIMIT_FSIZE.rawValue), &limit)
}

do {
    guard let model = try SQLiteStoreFile(path: url.path).cachedModel() else {
        FileHandle.standardError.write(Data("the store carries no model\n".utf8))
        exit(2)
    }
    let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
    try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, at: url)
    let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
    context.persistentStoreCoordinator = coordinator
    if arguments[1] == "off-queue" {
        _ = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Word"))
        print("not trapped")
        exit(0)
    }
    try context.performAndWait {
        for index in 0..<count {
            let word = NSEntityDescription.insertNewObject(forEntityName: "Word", into: context)
            word.setValue(String(repeating: "x", count: 200) + String(index), forKey: "text")
            word.setValue(Int16(index % 100), forKey: "length")
        }
        // Unbuffered, so the parent sees it before the save starts.
        FileHandle.standardOutput.write(Data("saving\n".utf8))
        try context.save()
    }
    print("saved")
} catch {
    print("failed: \(error)")
    exit(1)
}
