import CoreDataModel
import Foundation
import Predicates

extension NSManagedObjectContext {
    /// Executes a fetch request: managed objects (faults whose values wait in the row cache, unless
    /// `returnsObjectsAsFaults` is false), object IDs, dictionaries, or a count, as `resultType` says.
    public func fetch<T: NSFetchRequestResult>(_ request: NSFetchRequest<T>) throws -> [T] {
        switch request.resultType {
        case .dictionaryResultType where T.self == FetchedDictionary.self:
            // Dictionary rows go back as they are, not boxed into `Any` and cast back one by one (`as! [T]` casts
            // each element of an array of structs; `T` is the element type, so the array is already a `[T]`).
            return unsafeBitCast(try dictionaryResults(request), to: [T].self)
        case .dictionaryResultType where T.self == [String: Any].self:
            return unsafeBitCast(try dictionaryResults(request).map([String: Any].init), to: [T].self)
        case .dictionaryResultType where T.self == NSDictionary.self:
            return unsafeBitCast(try dictionaryResults(request).map { NSDictionary(dictionary: [String: Any]($0)) }, to: [T].self)
        case .dictionaryResultType, .countResultType, .managedObjectIDResultType:
            break
        default:
            // Objects stay typed as objects: boxing each into `Any` and casting it back cost more than registering it.
            let objects = try fetchManagedObjects(request)
            ObjectLifetimeScope.keepUntilEndOfWork(objects)
            // `as! [T]` checks every element at run time; `T` is the element type here, so the array already is a
            // `[T]`.
            if T.self == NSManagedObject.self { return unsafeBitCast(objects, to: [T].self) }
            return try objects.map { object in
                guard let typed = object as? T else { throw Self.resultTypeMismatch(request, object) }
                return typed
            }
        }
        let results = try fetchResults(request)
        var typed: [T] = []
        typed.reserveCapacity(results.count)
        for result in results {
            guard let value = result as? T else { throw Self.resultTypeMismatch(request, result) }
            typed.append(value)
        }
        return typed
    }

    private static func resultTypeMismatch<T>(_ request: NSFetchRequest<T>, _ result: Any) -> CoreDataError {
        CoreDataError(.persistentStoreOperation,
                      "a fetch for \(request.resolvedEntityName ?? "?") returned \(type(of: result)), not \(T.self); set resultType to match")
    }

    /// The number of objects a fetch request would return, counted by the store without creating objects. With
    /// `includesPendingChanges` (the default), unsaved objects of the entity are counted as they are now.
    public func count<T>(for request: NSFetchRequest<T>) throws -> Int {
        assertOnQueue()
        let (coordinator, entity) = try resolve(request)
        let stores = try coordinator.stores(holding: entity, among: request.affectedStores)
        if request.includesPendingChanges, request.resultType != .dictionaryResultType {
            let pending = pendingStates(of: entity, includesSubentities: request.includesSubentities)
            if !pending.isEmpty {
                // A window (limit, offset) is taken from the merged, sorted objects; a plain count needs no object.
                if request.fetchLimit > 0 || request.fetchOffset > 0 { return try fetchManagedObjects(request).count }
                return try countIncludingPendingChanges(pending, fetch: ResolvedFetch(request, entity: entity),
                                                        stores: stores, coordinator: coordinator)
            }
        }
        // Several stores: a window is taken from their merged, sorted objects; without one the counts add up.
        if stores.count > 1, request.fetchLimit > 0 || request.fetchOffset > 0 { return try fetchManagedObjects(request).count }
        coordinator.statistics.record { $0.fetches += 1 }
        var total = 0
        for store in stores { total += try coordinator.withLock { try store.executeCount(ResolvedFetch(request, entity: entity)) } }
        return total
    }

    func fetchResults<T>(_ request: NSFetchRequest<T>) throws -> [Any] {
        switch request.resultType {
        case .dictionaryResultType:
            return try dictionaryResults(request).map([String: Any].init)
        case .countResultType:
            return [NSNumber(value: try count(for: request))]
        case .managedObjectIDResultType:
            assertOnQueue()
            let (coordinator, entity) = try resolve(request)
            let stores = try coordinator.stores(holding: entity, among: request.affectedStores)
            // Pending changes, or several stores' results to merge in order, need the objects.
            if stores.count != 1 || request.includesPendingChanges
                && !pendingStates(of: entity, includesSubentities: request.includesSubentities).isEmpty {
                return try fetchManagedObjects(request).map(\.objectID)
            }
            let store = stores[0]
            var idOnly = ResolvedFetch(request, entity: entity)
            idOnly.includesPropertyValues = false
            coordinator.statistics.record { $0.fetches += 1 }
            return try coordinator.withLock { try store.executeFetch(idOnly) }.map(\.objectID)
        default:
            return try fetchManagedObjects(request)
        }
    }

    /// The objects a fetch request matches: registered (uniqued) in this context, as faults or filled, with the
    /// unsaved changes of this context and its ancestors when the request includes pending changes.
    func fetchManagedObjects<T>(_ request: NSFetchRequest<T>) throws -> [NSManagedObject] {
        assertOnQueue()
        let (coordinator, entity) = try resolve(request)
        let requested = ResolvedFetch(request, entity: entity)
        let pending = request.includesPendingChanges
            ? pendingStates(of: entity, includesSubentities: requested.includesSubentities) : [:]
        // Nothing unsaved of the entity tree: the store's results as they are.
        if pending.isEmpty { return try storeObjects(request, requested, coordinator: coordinator) }
        let objects = try storeObjects(request, Self.widened(requested, forPending: pending.count), coordinator: coordinator)
        return applyingPendingChanges(pending, to: objects, fetch: requested)
    }

    /// The objects of the stores' rows for `fetch`: of the one store that holds the entity, or merged from several in
    /// the request's order.
    private func storeObjects<T>(_ request: NSFetchRequest<T>, _ fetch: ResolvedFetch,
                                 coordinator: NSPersistentStoreCoordinator) throws -> [NSManagedObject] {
        let stores = try coordinator.stores(holding: fetch.entity, among: request.affectedStores)
        if stores.count == 1 { return try storeObjects(request, fetch, store: stores[0], coordinator: coordinator) }
        // Each store gives its first offset + limit objects in order; the merged list is sorted and then windowed.
        var perStore = fetch
        perStore.fetchLimit = fetch.fetchLimit > 0 ? fetch.fetchOffset + fetch.fetchLimit : 0
        perStore.fetchOffset = 0
        let lists = try stores.map { try storeObjects(request, perStore, store: $0, coordinator: coordinator) }
        return Self.window(Self.merge(lists, by: fetch.sortDescriptors), offset: fetch.fetchOffset, limit: fetch.fetchLimit)
    }

    /// The stores' lists, each already in the order of `descriptors`, merged into one list in that order: one pass
    /// that takes the smallest head each time (a tie goes to the earlier store), so each object is compared with the
    /// other lists' heads only. Without descriptors, the lists follow each other.
    static func merge(_ lists: [[NSManagedObject]], by descriptors: [Predicates.NSSortDescriptor]) -> [NSManagedObject] {
        guard !descriptors.isEmpty, lists.count > 1 else { return Array(lists.joined()) }
        // Each object's sort keys are read once, when it becomes its list's head; the first key is kept apart so that
        // the usual single descriptor costs no array per object.
        struct Keys {
            var first: ConstantValue
            var rest: [ConstantValue]
        }
        let first = descriptors[0], rest = descriptors.dropFirst()
        func keys(_ object: NSManagedObject) -> Keys {
            Keys(first: first.sortKey(of: object), rest: rest.isEmpty ? [] : rest.map { $0.sortKey(of: object) })
        }
        func precedes(_ lhs: Keys, _ rhs: Keys) -> Bool {
            let order = first.compareSortKeys(lhs.first, rhs.first)
            if order != .orderedSame { return order == .orderedAscending }
            for (index, descriptor) in rest.enumerated() {
                let order = descriptor.compareSortKeys(lhs.rest[index], rhs.rest[index])
                if order != .orderedSame { return order == .orderedAscending }
            }
            return false
        }
        var heads = Array(repeating: 0, count: lists.count)
        var headKeys = lists.map { $0.first.map(keys) ?? Keys(first: .null, rest: []) }
        var merged: [NSManagedObject] = []
        merged.reserveCapacity(lists.reduce(0) { $0 + $1.count })
        while true {
            var best: Int?
            for list in lists.indices where heads[list] < lists[list].count {
                guard let current = best else {
                    best = list
                    continue
                }
                if precedes(headKeys[list], headKeys[current]) { best = list }
            }
            guard let best else { return merged }
            merged.append(lists[best][heads[best]])
            heads[best] += 1
            if heads[best] < lists[best].count { headKeys[best] = keys(lists[best][heads[best]]) }
        }
    }

    /// The objects of one store's rows for `fetch`.
    private func storeObjects<T>(_ request: NSFetchRequest<T>, _ fetch: ResolvedFetch, store: any RowStore,
                                 coordinator: NSPersistentStoreCoordinator) throws -> [NSManagedObject] {
        coordinator.statistics.record { $0.fetches += 1 }
        if request.fetchBatchSize > 0 {
            // As Core Data does: every ID at once, values for the first batch; `fetchBatched` does better.
            var idOnly = fetch
            idOnly.includesPropertyValues = false
            let objects = try coordinator.withLock { try store.executeFetch(idOnly) }.map { register($0.objectID, snapshot: nil) }
            try fulfillFaults(for: Array(objects.prefix(request.fetchBatchSize)))
            return objects
        }
        var objects: [NSManagedObject] = []
        let keepsFaults = request.returnsObjectsAsFaults || parent != nil
        var cachedRows: [(id: NSManagedObjectID, snapshot: Snapshot)] = []
        var shape: ObjectShape?
        // Each row becomes its object as it is read, under the coordinator's lock: collecting the rows first cost an
        // array of them (16 MB for half a million rows, grown by copying) and memory the objects then had to share
        // the caches with.
        // Into a context with no registered object, every row is a new object: a fetch reads one table (to-one joins
        // add no rows, to-many conditions are subqueries), so its rows are distinct objects, and only this queue adds
        // to the registry. Such a fetch (a new context's first) skips looking each row up, a lock and a probe a row.
        let registryWasEmpty = registry.count == 0
        // Objects of subclasses filled by this fetch, awakened once the store's lock is released (their
        // `awakeFromFetch` may fetch); a plain `NSManagedObject`'s hook is empty, so those are not listed.
        var awakened: [NSManagedObject] = []
        // `shouldRefreshRefetchedObjects`: filled objects fetched again, with the rows just read.
        let refreshesRefetched = request.shouldRefreshRefetchedObjects && fetch.includesPropertyValues && parent == nil
        var refetched: [(object: NSManagedObject, row: Snapshot)] = []
        _ = try coordinator.withLock {
            try store.executeFetch(fetch) { (row: consuming FetchedRow) in
                // The row's values move into the object, and the object into the list: binding copies of them cost a
                // retain and a release of each, on every row.
                let snapshot = row.snapshot.take()
                let object: NSManagedObject
                if !registryWasEmpty, let existing = registry.object(for: row.objectID) {
                    object = existing
                    if !keepsFaults, existing.storedValues == nil, let snapshot {
                        existing.fill(from: snapshot)
                        if type(of: existing) != NSManagedObject.self { awakened.append(existing) }
                    } else if refreshesRefetched, existing.storedValues != nil, let snapshot {
                        refetched.append((existing, snapshot))
                    }
                } else {
                    object = makeObject(for: row.objectID, coordinator: coordinator, shape: &shape)
                    // A child leaves objects as faults, so they fill from its parent (which may hold unsaved changes).
                    if !keepsFaults, let snapshot {
                        object.fill(from: snapshot)
                        if shape?.type != NSManagedObject.self { awakened.append(object) }
                    }
                }
                if keepsFaults, let snapshot, object.storedValues == nil {
                    // A fault of a context without a parent keeps its row, and the row cache takes the last rows from
                    // the objects afterwards; a child's faults fill from its parent, so its rows are listed.
                    if parent == nil { object.keepPending(consume snapshot) } else { cachedRows.append((row.objectID, snapshot)) }
                }
                objects.append(consume object)
            }
        }
        for object in awakened { object.awakeFromFetch() }
        for (object, row) in refetched where !object.isInserted {
            coordinator.rowCache.store(row, for: object.objectID)
            if object.hasChanges { object.mergeStoreValuesKeepingChanges(row) } else { object.fill(from: row) }
            object.awake(fromSnapshotEvents: .refresh)
        }
        if keepsFaults && fetch.includesPropertyValues {
            if parent == nil { coordinator.rowCache.store(pendingRowsOf: objects) } else { coordinator.rowCache.store(contentsOf: cachedRows) }
        }
        if let keyPaths = request.relationshipKeyPathsForPrefetching, !keyPaths.isEmpty {
            try prefetch(keyPaths, for: objects)
        }
        if retainsRegisteredObjects { retainedObjects.formUnion(objects) }
        return objects
    }

    /// The rows of a dictionary fetch: the requested properties and aggregates, computed by the store.
    private func dictionaryResults<T>(_ request: NSFetchRequest<T>) throws -> [FetchedDictionary] {
        assertOnQueue()
        let (coordinator, entity) = try resolve(request)
        let stores = try coordinator.stores(holding: entity, among: request.affectedStores)
        let shape = try DictionaryShape(request, entity: entity)
        if stores.count > 1, request.sortDescriptors?.isEmpty == false || request.fetchLimit > 0 || request.fetchOffset > 0
            || request.returnsDistinctResults || request.propertiesToGroupBy?.isEmpty == false
            || request.propertiesToFetch?.contains(where: { $0 is NSExpressionDescription }) == true {
            throw CoreDataError(.persistentStoreUnsupportedRequestType,
                                "a dictionary fetch of \(entity.entityName) reaches \(stores.count) stores; across stores it takes no sort, "
                                    + "limit, offset, distinct results, grouping or expressions (set affectedStores to one store)")
        }
        var rows: [FetchedDictionary] = []
        for store in stores {
            coordinator.statistics.record { $0.fetches += 1 }
            rows += try coordinator.withLock { try store.executeDictionaryFetch(ResolvedFetch(request, entity: entity), shape) }
        }
        return rows
    }

    /// Calls `body` with each row of a dictionary fetch as the store reads it, without collecting them: the rows of
    /// ``fetch(_:)`` for `.dictionaryResultType`, in flat memory however many there are (an extension of this
    /// project; Core Data has no streaming fetch). SQLite stores run one statement; a fetch with a
    /// `havingPredicate`, or another store type, is fetched whole and then walked. `body` runs while the store is
    /// being read, so it must not use this context or its coordinator (collect what it needs and use it after).
    public func enumerateDictionaries(_ request: NSFetchRequest<FetchedDictionary>, _ body: (FetchedDictionary) throws -> Void) throws {
        assertOnQueue()
        let (coordinator, entity) = try resolve(request)
        let stores = try coordinator.stores(holding: entity, among: request.affectedStores)
        guard stores.count == 1, let sqliteStore = stores[0] as? NSSQLiteStore, request.havingPredicate == nil else {
            for row in try fetch(request) { try body(row) }
            return
        }
        coordinator.statistics.record { $0.fetches += 1 }
        let shape = try DictionaryShape(request, entity: entity)
        try coordinator.withLock { try sqliteStore.enumerateDictionaries(ResolvedFetch(request, entity: entity), shape, body) }
    }

    /// The coordinator and the entity a request names, or a precise error.
    func resolve<T>(_ request: NSFetchRequest<T>) throws -> (NSPersistentStoreCoordinator, NSEntityDescription) {
        guard let coordinator = persistentStoreCoordinator else {
            throw CoreDataError(.persistentStoreOperation, "the context has no persistent store coordinator")
        }
        if let entity = request.entity { return (coordinator, entity) }
        guard let name = request.entityName else {
            throw CoreDataError(.persistentStoreOperation, "the fetch request names no entity")
        }
        return (coordinator, try coordinator.entity(named: name))
    }

    // MARK: Prefetching

    /// Loads the destinations of relationship key paths for `objects` in one query per relationship, as a fetch
    /// with `relationshipKeyPathsForPrefetching` does (useful on the batches of a `BatchFaultingArray`).
    public func prefetchRelationships(_ keyPaths: [String], for objects: [NSManagedObject]) throws {
        try prefetch(keyPaths, for: objects)
    }

    /// Loads the destinations of `keyPaths` for all `objects` at once: one query per relationship level instead of
    /// one per object (the seeds' prefetching). To-one destinations come in with one `IN` query; to-many
    /// relationships with one query for all sources.
    func prefetch(_ keyPaths: [String], for objects: [NSManagedObject]) throws {
        guard let coordinator = persistentStoreCoordinator else { return }
        var tree: [String: [String]] = [:]
        for keyPath in keyPaths {
            let parts = keyPath.split(separator: ".", maxSplits: 1).map(String.init)
            tree[parts[0], default: []] += parts.count > 1 ? [parts[1]] : []
        }
        for (name, rest) in tree.sorted(by: { $0.key < $1.key }) {
            let byEntity = Dictionary(grouping: objects) { ObjectIdentifier($0.entity) }
            var destinations: [NSManagedObject] = []
            for (_, group) in byEntity {
                guard let relationship = group[0].entity.relationshipsByName[name] else {
                    throw CoreDataError(.persistentStoreOperation, "cannot prefetch \(name): \(group[0].entity.entityName) has no relationship \(name)")
                }
                if relationship.isToMany {
                    let store = try coordinator.store(for: group[0].entity)
                    let sources = group.filter { $0.toMany[name] == nil }
                    let result = try coordinator.withLock {
                        try store.prefetchToMany(relationship, sourceIDs: sources.map(\.objectID))
                    }
                    coordinator.rowCache.store(contentsOf: result.snapshots.map { ($0.key, $0.value) })
                    var prefetched: [NSManagedObjectID: NSManagedObject] = [:]
                    for (id, snapshot) in result.snapshots {
                        let destination = register(id, snapshot: nil)
                        // The fault keeps its prefetched row, as a fetched fault does: the row cache is an LRU, and
                        // a large prefetch would otherwise be evicted before it is read (one SELECT per object).
                        if parent == nil, destination.storedValues == nil { destination.keepPending(snapshot) }
                        prefetched[id] = destination
                        destinations.append(destination)
                    }
                    for source in sources {
                        let ids = result.destinations[source.objectID] ?? []
                        source.toMany[name] = ToManyIDs(ids)
                        source.prefetchedDestinations[name] = ids.compactMap { prefetched[$0] }
                    }
                } else {
                    try fulfillFaults(for: group)
                    var targets: [NSManagedObject] = []
                    for source in group {
                        guard let id = source.objectIDForToOne(name) else { continue }
                        let target = self.object(with: id)
                        source.prefetchedDestinations[name] = [target]
                        targets.append(target)
                    }
                    try fulfillFaults(for: targets.filter(\.isFault))
                    destinations += targets
                }
            }
            if !rest.isEmpty, !destinations.isEmpty {
                try prefetch(rest, for: destinations)
            }
        }
    }
}
