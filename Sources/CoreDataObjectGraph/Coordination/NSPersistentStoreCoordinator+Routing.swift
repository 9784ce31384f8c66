import CoreDataModel
import Foundation

// Which stores a request reaches when several stores hold one entity (configurations that share entities, as
// Apple's coordinator allows): fetches read every such store, or those of `affectedStores`; inserts go to the store
// they were assigned to, else to the first.
extension NSPersistentStoreCoordinator {
    /// The stores that hold `entity`, in the order they were added; with `affectedStores`, only those among them.
    func stores(holding entity: NSEntityDescription, among affectedStores: [NSPersistentStore]?) throws -> [any RowStore] {
        let holding = withLock {
            persistentStores.filter { store in
                holds(store, entity) && (affectedStores?.contains { $0 === store } ?? true)
            }
        }
        if holding.isEmpty, affectedStores == nil {
            throw CoreDataError(.persistentStoreOperation, "no store holds entity \(entity.entityName); add a persistent store first")
        }
        return try holding.map(rowStore)
    }

    /// Records that the unsaved object `id` is saved to `store`; the save checks that the store holds its entity.
    func assign(_ id: NSManagedObjectID, to store: NSPersistentStore) {
        withLock { storeAssignments[id] = store }
    }

    /// Forgets the assignments of objects that have their permanent IDs now (or left their context).
    func forgetAssignments(of ids: some Sequence<NSManagedObjectID>) {
        withLock {
            guard !storeAssignments.isEmpty else { return }
            for id in ids { storeAssignments[id] = nil }
        }
    }

    /// Whether any two stores of this coordinator could hold objects of one save, so a save must group its objects by
    /// store rather than send them all to one.
    var hasSeveralStores: Bool { withLock { persistentStores.count > 1 } }
}
