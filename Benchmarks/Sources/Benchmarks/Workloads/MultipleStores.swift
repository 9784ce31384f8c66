import Foundation
import OpenCoreData

/// One entity in two stores (two configurations that share it, issue 20): 100,000 words as two stores of 50,000,
/// against the same number in one store. A sorted fetch reads each store in order and merges the two lists; the
/// first 100 in order cost one query per store.
enum MultipleStores {
    static func model() -> NSManagedObjectModel {
        let model = Models.words(indexed: true)
        let word = model.entitiesByName["Word"]!
        model.setEntities([word], forConfigurationName: "First")
        model.setEntities([word], forConfigurationName: "Second")
        return model
    }

    /// A copy of `store` under another store UUID, so that two copies can be added to one coordinator.
    static func copy(_ store: URL, named name: String) throws -> URL {
        let copy = store.deletingLastPathComponent().appendingPathComponent(name)
        ScratchStore.remove(copy)
        try FileManager.default.copyItem(at: store, to: copy)
        let database = try RawDatabase(path: copy.path, readOnly: false)
        try database.execute("UPDATE Z_METADATA SET Z_UUID = '\(UUID().uuidString)'")
        return copy
    }

    static func workloads(single: URL, half: URL, rows: Int) throws -> [Workload] {
        let model = model()
        let first = try copy(half, named: "words-first.sqlite")
        let second = try copy(half, named: "words-second.sqlite")
        func request(limit: Int) -> NSFetchRequest<NSManagedObject> {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Word")
            request.sortDescriptors = [NSSortDescriptor(key: "text", ascending: true)]
            request.fetchLimit = limit
            return request
        }
        func oneStore(_ limit: Int) -> Implementation {
            Contenders.ours("ours · one store of \(rows)", store: single, model: model) { context, watch in
                let objects = try watch.measure { try context.fetch(request(limit: limit)) }
                watch.checksum = objects.count
                keep(objects)
            }
        }
        func twoStores(_ limit: Int) -> Implementation {
            Implementation(name: "ours · two stores of \(rows / 2)", contender: .ours) { watch in
                let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
                for (configuration, url) in [("First", first), ("Second", second)] {
                    try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: configuration, at: url,
                                                       options: [NSReadOnlyPersistentStoreOption: true])
                }
                let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
                context.persistentStoreCoordinator = coordinator
                try context.performAndWait {
                    let objects = try watch.measure { try context.fetch(request(limit: limit)) }
                    watch.checksum = objects.count
                    keep(objects)
                }
            }
        }
        let all = Workload(group: "multiple stores", name: "\(rows) words sorted by text, across two stores", rows: rows,
                           implementations: [oneStore(0), twoStores(0)],
                           targets: [Target(implementation: twoStores(0).name, maximumRatio: 1.5, floor: oneStore(0).name,
                                            description: "≤ 1.5× the same words in one store (one merge comparison per object)")])
        let top = Workload(group: "multiple stores", name: "first 100 words by text, across two stores", rows: 100,
                           implementations: [oneStore(100), twoStores(100)],
                           targets: [Target(implementation: twoStores(100).name, maximumRatio: 2.5, floor: oneStore(100).name,
                                            description: "≤ 2.5× one store (a query per store)")])
        return [all, top]
    }
}
