import CoreDataModel
import Foundation
import Predicates

/// `includesPendingChanges`: a fetch for objects or object IDs sees the unsaved inserts, deletions and changes of its
/// context and of the context's ancestors, as Apple's does. A fetch that no unsaved object of its entity tree can
/// affect returns the store's results untouched.
extension NSManagedObjectContext {
    /// The unsaved state of an object that could change a fetch's results.
    struct PendingState {
        var isInserted: Bool
        var isDeleted: Bool
        /// Where the object's change came in: an ancestor's changes first, then each context's in its change order.
        var order: Int
    }

    /// The unsaved objects of `entity` (and its subentities when asked) in this context and its ancestors, the nearest
    /// level's state winning; each context is read on its own queue. Empty, without visiting any object, when nothing
    /// changed.
    func pendingStates(of entity: NSEntityDescription, includesSubentities: Bool) -> [NSManagedObjectID: PendingState] {
        var states: [NSManagedObjectID: PendingState] = [:]
        if let parent {
            states = parent.performAndWait { parent.pendingStates(of: entity, includesSubentities: includesSubentities) }
        }
        var order = states.count
        for object in changedObjects.values where object.hasChanges {
            let matches = includesSubentities ? object.entity.isKind(of: entity) : object.entity === entity
            guard matches else { continue }
            states[object.objectID] = PendingState(isInserted: object.isInserted, isDeleted: object.isDeleted, order: order)
            order += 1
        }
        return states
    }

    /// The fetch to ask the store for when pending objects will be merged into its results: the request's window
    /// (offset and limit) widened so that it still holds every row the merged window can need, as each pending object
    /// can take at most one row out of the store's results.
    static func widened(_ fetch: ResolvedFetch, forPending count: Int) -> ResolvedFetch {
        guard fetch.fetchLimit > 0 || fetch.fetchOffset > 0 else { return fetch }
        var widened = fetch
        widened.fetchLimit = fetch.fetchLimit > 0 ? fetch.fetchOffset + fetch.fetchLimit + count : 0
        widened.fetchOffset = 0
        return widened
    }

    /// The store's results of `fetch` (already sorted by the store, from a widened window) with the pending objects
    /// merged in: unsaved objects leave the store's list, and those that are not deleted and match the predicate in
    /// memory go back in at their place in the request's order; then the request's offset and limit apply.
    func applyingPendingChanges(_ pending: [NSManagedObjectID: PendingState], to objects: [NSManagedObject],
                                fetch: ResolvedFetch) -> [NSManagedObject] {
        let matches = { (object: NSManagedObject) -> Bool in Self.matches(object, fetch.predicate) }
        // Unsaved objects leave the store's list (their stored values may no longer be their values).
        let stored = objects.filter { pending[$0.objectID] == nil }
        // Pending objects in the order they changed (inserted objects in insertion order).
        let candidates = pending.filter { !$0.value.isDeleted }.sorted { $0.value.order < $1.value.order }
        var added: [NSManagedObject] = []
        for (id, _) in candidates {
            let object = self.object(with: id)
            if matches(object) { added.append(object) }
        }
        guard !added.isEmpty else { return Self.window(stored, offset: fetch.fetchOffset, limit: fetch.fetchLimit) }
        let descriptors = fetch.sortDescriptors
        // The store's order: the sort descriptors, ties (and fetches without descriptors) by primary key; objects not
        // saved yet have none and come after the saved ones, in the order they were inserted.
        let ascending = { (lhs: NSManagedObject, rhs: NSManagedObject) -> Bool in
            for descriptor in descriptors {
                let order = descriptor.compare(lhs, to: rhs)
                if order != .orderedSame { return order == .orderedAscending }
            }
            let left = lhs.objectID.isTemporaryID ? Int64.max : lhs.objectID.primaryKey
            let right = rhs.objectID.isTemporaryID ? Int64.max : rhs.objectID.primaryKey
            return left < right
        }
        // The pending objects find their places in the store's sorted list by binary search (the stored objects are
        // not compared with each other again: each comparison reads values), then one pass builds the merged list.
        added.sort(by: ascending)
        var merged: [NSManagedObject] = []
        merged.reserveCapacity(stored.count + added.count)
        var next = 0
        for object in added {
            var low = next, high = stored.count
            while low < high {
                let middle = (low + high) / 2
                if ascending(object, stored[middle]) { high = middle } else { low = middle + 1 }
            }
            merged.append(contentsOf: stored[next..<low])
            merged.append(object)
            next = low
        }
        merged.append(contentsOf: stored[next...])
        return Self.window(merged, offset: fetch.fetchOffset, limit: fetch.fetchLimit)
    }

    /// The number of objects a fetch with pending changes returns, without making an object of every row: the
    /// store's count, less the unsaved objects it counted by their stored values, plus those that match now.
    func countIncludingPendingChanges(_ pending: [NSManagedObjectID: PendingState], fetch: ResolvedFetch,
                                      stores: [any RowStore], coordinator: NSPersistentStoreCoordinator) throws -> Int {
        coordinator.statistics.record { $0.fetches += 1 }
        var total = 0
        for store in stores { total += try coordinator.withLock { try store.executeCount(fetch) } }
        let saved = pending.keys.filter { !$0.isTemporaryID }
        var counted = 0
        if !saved.isEmpty {
            var unsaved = fetch
            let membership = Predicates.NSPredicate(format: "SELF IN %@", argumentArray: [saved]).predicateNode
            unsaved.predicate = fetch.predicate.map { .and([$0, membership]) } ?? membership
            for store in stores { counted += try coordinator.withLock { try store.executeCount(unsaved) } }
        }
        var matching = 0
        for (id, state) in pending where !state.isDeleted && Self.matches(object(with: id), fetch.predicate) { matching += 1 }
        return total - counted + matching
    }

    /// Whether `object`, with its unsaved values, matches `predicate` (no predicate matches everything).
    private static func matches(_ object: NSManagedObject, _ predicate: PredicateNode?) -> Bool {
        guard let predicate else { return true }
        return (try? PredicateEvaluator(evaluatedObject: object).evaluate(predicate)) ?? false
    }

    /// The objects from `offset`, at most `limit` of them (0: no limit).
    static func window(_ objects: [NSManagedObject], offset: Int, limit: Int) -> [NSManagedObject] {
        guard offset > 0 || limit > 0 else { return objects }
        let start = min(max(offset, 0), objects.count)
        let end = limit > 0 ? min(start + limit, objects.count) : objects.count
        return Array(objects[start..<end])
    }
}
