// A child process for tests that must fail the way real machines fail: killed with SIGKILL in the middle of a
// large save, out of disk space during one, or hit by I/O errors injected through the CSQLiteFaultVFS shim. It
// saves through the public API only.
//
//   StoreStressHelper large-save STORE N          inserts N words in one save, printing "saving" first
//   StoreStressHelper full-disk STORE N BYTES     the same with the process's file size limited to BYTES
//   StoreStressHelper off-queue STORE 0 [-com.apple.CoreData.ConcurrencyDebug 1]
//                                                 fetches on a private-queue context without perform (traps with the flag)
//   StoreStressHelper increment STORE N WORKER    N increments of Counter values, retried on conflicts (CounterIncrements.swift)
//   StoreStressHelper saves STORE N SAVES         SAVES successive saves (SaveSeries), printing "saved K" after each
//   StoreStressHelper migrate STORE 0 FROM TO     a lightweight migration between two model files (MigrationRun.swift)
//   StoreStressHelper atomic-saves STORE N        N saves of a custom atomic store, one megabyte more each (AtomicSaves.swift)
//
// For `saves`, the environment arms the fault shim and limits: OCD_FAULT="KIND:AT[:sticky]" with KIND one of
// full, short-write, read-error, sync-error, kill (SIGKILL at that write); OCD_FSIZE=BYTES sets RLIMIT_FSIZE with
// SIGXFSZ ignored. The last line is "calls writes=W reads=R syncs=S injected=I" unless the process died.
import CSQLiteFaultVFS
import Foundation
import OpenCoreData

let arguments = CommandLine.arguments
guard arguments.count >= 4, let count = Int(arguments[3]) else {
    FileHandle.standardError.write(Data("usage: StoreStressHelper large-save|full-disk|off-queue|increment|saves STORE N [BYTES|WORKER|SAVES]\n".utf8))
    exit(2)
}
let url = URL(fileURLWithPath: arguments[2])

if arguments[1] == "migrate", arguments.count >= 6 {
    runMigration(store: url, from: arguments[4], to: arguments[5])
}

if arguments[1] == "atomic-saves" {
    do {
        try runAtomicSaves(store: url, saves: count)
        exit(0)
    } catch {
        say("failed: \(error)")
        exit(1)
    }
}

if arguments[1] == "increment" {
    do {
        try runCounterIncrements(store: url, increments: count, worker: arguments.count >= 5 ? Int(arguments[4]) ?? 0 : 0)
        exit(0)
    } catch {
        print("failed: \(error)")
        exit(1)
    }
}

func limitFileSize(_ bytes: UInt) {
    // Writing past the limit then fails with EFBIG, as a full disk fails with ENOSPC.
    signal(SIGXFSZ, SIG_IGN)
    var limit = rlimit(rlim_cur: rlim_t(bytes), rlim_max: rlim_t(bytes))
    setrlimit(Int32(RLIMIT_FSIZE.rawValue), &limit)
}

func say(_ line: String) {
    // Unbuffered, so the parent sees each line before the next step starts (or the process dies).
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

if arguments[1] == "full-disk", arguments.count >= 5, let bytes = UInt(arguments[4]) {
    limitFileSize(bytes)
}

if arguments[1] == "saves" {
    let environment = ProcessInfo.processInfo.environment
    if let bytes = environment["OCD_FSIZE"].flatMap(UInt.init) { limitFileSize(bytes) }
    let kinds: [String: OCDFaultKind] = ["full": OCDFaultDiskFull, "short-write": OCDFaultShortWrite,
                                         "read-error": OCDFaultReadError, "sync-error": OCDFaultSyncError,
                                         "kill": OCDFaultKill]
    let fault = (environment["OCD_FAULT"] ?? "").split(separator: ":").map(String.init)
    let kind = fault.first.flatMap { kinds[$0] } ?? OCDFaultNone
    let at = fault.count > 1 ? Int(fault[1]) ?? 0 : 0
    // Armed after the store is open, so the counts (and the Nth call) are those of the saves alone.
    let arm = { _ = ocd_fault_vfs_install(kind, at, fault.count > 2 && fault[2] == "sticky" ? 1 : 0, url.deletingLastPathComponent().path) }
    let saves = arguments.count >= 5 ? Int(arguments[4]) ?? 1 : 1
    let finish = {
        say("calls writes=\(ocd_fault_vfs_writes()) reads=\(ocd_fault_vfs_reads()) syncs=\(ocd_fault_vfs_syncs()) injected=\(ocd_fault_vfs_injected())")
    }
    _ = ocd_fault_vfs_install(OCDFaultNone, 0, 0, nil)
    do {
        try SaveSeries(url: url, rowsPerSave: count).run(saves: saves, beforeFirstSave: arm) { say("saved \($0)") }
    } catch {
        say("failed: \(error)")
        finish()
        exit(1)
    }
    finish()
    exit(0)
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
        say("saving")
        try context.save()
    }
    print("saved")
} catch {
    print("failed: \(error)")
    exit(1)
}
