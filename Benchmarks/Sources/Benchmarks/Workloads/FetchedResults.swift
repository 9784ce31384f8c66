import Foundation
import OpenCoreData

/// `NSFetchedResultsController` (issue 20) on 100,000 words sectioned by length: `performFetch()` against the same
/// request fetched by the context (what the sections cost on top of the fetch), and the cost of one change in a
/// tracking controller (a word renamed, so it moves within its section) against refetching after it.
enum FetchedResults {
    static func request() -> NSFetchRequest<NSManagedObject> {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Word")
        request.sortDescriptors = [NSSortDescriptor(key: "length", ascending: true), NSSortDescriptor(key: "text", ascending: true)]
        return request
    }

    /// A delegate that counts what it is told, as a table view would take it.
    final class Counter: NSFetchedResultsControllerDelegate {
        var changes = 0
        func controller(_ controller: NSFetchedResultsController<NSManagedObject>, didChange anObject: Any, at indexPath: IndexPath?,
                        for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?) {
            changes += 1
        }
    }

    static func workloads(store url: URL, rows: Int) -> [Workload] {
        let model = Models.words(indexed: true)
        let plain = Contenders.ours("ours · context fetch, same request", store: url, model: model) { context, watch in
            let objects = try watch.measure { try context.fetch(request()) }
            watch.checksum = objects.count
            keep(objects)
        }
        let sectioned = Contenders.ours("ours · performFetch, sections by length", store: url, model: model) { context, watch in
            let controller = NSFetchedResultsController(fetchRequest: request(), managedObjectContext: context,
                                                        sectionNameKeyPath: "length", cacheName: nil)
            try watch.measure { try controller.performFetch() }
            watch.checksum = controller.sections?.reduce(0) { $0 + $1.numberOfObjects } ?? 0
            keep(controller)
        }
        let fetch = Workload(group: "fetched results controller", name: "performFetch, sections by length", rows: rows,
                             implementations: [plain, sectioned],
                             targets: [Target(implementation: sectioned.name, maximumRatio: 1.3, floor: plain.name,
                                              description: "≤ 1.3× the same request fetched by the context")])

        // 50 renames a round, each processed on its own: the controller finds the word, moves it and reports it.
        let changesPerRound = 50
        func rename(_ objects: [NSManagedObject], _ round: Int) -> NSManagedObject {
            let word = objects[(round * 7_919) % objects.count]
            word.setValue("zz\(round)", forKey: "text")
            return word
        }
        let tracked = Contenders.ours("ours · one change, tracking controller", store: url, model: model) { context, watch in
            let controller = NSFetchedResultsController(fetchRequest: request(), managedObjectContext: context,
                                                        sectionNameKeyPath: "length", cacheName: nil)
            let counter = Counter()
            controller.delegate = counter
            try controller.performFetch()
            let objects = controller.fetchedObjects ?? []
            for round in 0..<changesPerRound {
                _ = rename(objects, round)
                watch.measure { context.processPendingChanges() }
            }
            watch.operations = changesPerRound
            watch.checksum = counter.changes == changesPerRound ? controller.fetchedObjects?.count ?? 0 : -counter.changes
            keep(controller)
        }
        let refetch = Contenders.ours("ours · one change, then performFetch again", store: url, model: model) { context, watch in
            let controller = NSFetchedResultsController(fetchRequest: request(), managedObjectContext: context,
                                                        sectionNameKeyPath: "length", cacheName: nil)
            try controller.performFetch()
            let objects = controller.fetchedObjects ?? []
            for round in 0..<3 {
                _ = rename(objects, round)
                try watch.measure {
                    context.processPendingChanges()
                    try controller.performFetch()
                }
            }
            watch.operations = 3
            watch.checksum = controller.fetchedObjects?.count ?? 0
            keep(controller)
        }
        let change = Workload(group: "fetched results controller", name: "one change in a controller of \(rows) objects", rows: rows,
                              implementations: [refetch, tracked],
                              targets: [Target(implementation: tracked.name, maximumRatio: 0.02, floor: refetch.name,
                                               description: "≤ 2% of refetching (≤ 1/50 of performFetch)")])
        return [fetch, change]
    }
}
