import CSQLiteFaultVFS
import Foundation
import OpenCoreData

/// `StoreStressHelper migrate STORE 0 FROM TO`: migrates STORE from the model file FROM to the model file TO (Xcode
/// `contents` files) with the inferred mapping, in one transaction. OCD_FAULT (as for `saves`) arms the fault shim
/// once the models are loaded, so `kill:N` dies at the Nth write of the migration; OCD_MIGRATION_KILL_STEP=K sends
/// SIGKILL to itself before the Kth migration statement (K = total: just before the commit). Prints "migrated"
/// and "calls writes=W …" when it finishes.
func runMigration(store: URL, from: String, to: String) -> Never {
    let environment = ProcessInfo.processInfo.environment
    do {
        let source = try ModelLoader.loadModel(at: URL(fileURLWithPath: from))
        let destination = try ModelLoader.loadModel(at: URL(fileURLWithPath: to))
        let mapping = try NSMappingModel.inferredMappingModel(forSourceModel: source, destinationModel: destination)
        let kinds: [String: OCDFaultKind] = ["kill": OCDFaultKill, "read-error": OCDFaultReadError, "full": OCDFaultDiskFull]
        let fault = (environment["OCD_FAULT"] ?? "").split(separator: ":").map(String.init)
        _ = ocd_fault_vfs_install(fault.first.flatMap { kinds[$0] } ?? OCDFaultNone, fault.count > 1 ? Int(fault[1]) ?? 0 : 0, 0,
                                  store.deletingLastPathComponent().path)
        let killStep = environment["OCD_MIGRATION_KILL_STEP"].flatMap(Int.init)
        try SQLiteStoreMigrator.migrate(storeAt: store.path, sourceModel: source, destinationModel: destination, mapping: mapping) { step, _ in
            if step == killStep { kill(getpid(), SIGKILL) }
        }
        print("migrated")
    } catch {
        print("failed: \(error)")
        print("calls writes=\(ocd_fault_vfs_writes()) injected=\(ocd_fault_vfs_injected())")
        exit(1)
    }
    print("calls writes=\(ocd_fault_vfs_writes()) injected=\(ocd_fault_vfs_injected())")
    exit(0)
}
