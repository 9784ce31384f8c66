import CoreDataModel
import Foundation

/// The results of a fetch with a batch size: a random-access collection that loads only the batches that are
/// touched, and forgets far batches so memory stays bounded (the browser's scrolling table stands on it).
///
/// Core Data's batched array fetches every object ID first. This one does better: a batch next to a loaded one
/// continues by *keyset* (`WHERE (sort keys, Z_PK) > (last row)`), batches near the end are read backwards from the
/// end, so neither the first screen nor a page down nor the last screen costs more as the entity grows. Only a
/// jump into the middle uses `OFFSET`. The count is computed once, when first asked for.
///
/// The array is used on its context's queue, with one exception: ``preload(batch:)`` and ``computeCount()`` only
/// talk to the store, so a caller may run them on a thread of its own (a browser sorting a million rows keeps its
/// screen drawing meanwhile) while the context's queue goes on reading the batches already loaded. The array's
/// bookkeeping is behind a lock for that.
public final class BatchFaultingArray: RandomAccessCollection {
    public typealias Element = NSManagedObject

    public let batchSize: Int
    /// Batches kept in memory; loading one more evicts the farthest.
    public var maximumResidentBatches: Int
    private let context: NSManagedObjectContext
    private let store: any RowStore
    private let fetch: ResolvedFetch
    private let returnsObjectsAsFaults: Bool
    private let canUseKeyset: Bool
    private var batches: [Int: [NSManagedObject]] = [:]
    /// Boundaries of every batch ever loaded, kept after eviction so that a return is cheap again.
    private var boundaries: [Int: (first: SortBoundary, last: SortBoundary)] = [:]
    private var knownCount: Int?
    /// Rows read by `preload(batch:)` and not yet turned into objects (that needs the context's queue).
    private var preloaded: [Int: [FetchedRow]] = [:]
    /// Guards the bookkeeping above, never a store call.
    private let lock = NSLock()

    init<T>(context: NSManagedObjectContext, request: NSFetchRequest<T>, entity: NSEntityDescription, store: any RowStore) {
        self.context = context
        self.store = store
        self.fetch = ResolvedFetch(request, entity: entity)
        self.batchSize = Swift.max(1, request.fetchBatchSize)
        self.maximumResidentBatches = 8
        self.returnsObjectsAsFaults = request.returnsObjectsAsFaults
        self.canUseKeyset = request.fetchLimit == 0 && request.fetchOffset == 0
    }

    // MARK: Collection

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    /// The number of results, counted by the store on first use (`count(for:)`).
    public var count: Int { (try? computeCount()) ?? 0 }

    /// The count if it has been computed, without computing it (the browser shows "≥" until then).
    public var countIfKnown: Int? { lock.withLock { knownCount } }

    /// Takes a count computed elsewhere for the same request (a background counter on another connection), so
    /// that a jump to the end can read backwards without counting again.
    public func assumeCount(_ count: Int) {
        lock.withLock { if knownCount == nil { knownCount = Swift.max(0, count) } }
    }

    /// Computes the count now, throwing instead of treating a failure as empty. It only asks the store, so it may
    /// run off the context's queue (see the type's notes).
    public func computeCount() throws -> Int {
        if let known = countIfKnown { return known }
        guard let coordinator = context.persistentStoreCoordinator else { return 0 }
        let counted = try coordinator.withLock { try store.executeCount(fetch) }
        lock.withLock { knownCount = counted }
        return counted
    }

    public subscript(position: Int) -> NSManagedObject {
        let batch = position / batchSize
        let objects = (try? objects(inBatch: batch)) ?? []
        let offset = position - batch * batchSize
        precondition(offset < objects.count, "index \(position) is beyond the fetched results (\(count))")
        return objects[offset]
    }

    /// The objects of batch `index`, loading it if needed; throws the store's error.
    public func objects(inBatch index: Int) throws -> [NSManagedObject] {
        if let loaded = lock.withLock({ batches[index] }) { return loaded }
        guard let coordinator = context.persistentStoreCoordinator else { return [] }
        let rows = try lock.withLock({ preloaded.removeValue(forKey: index) }) ?? readRows(ofBatch: index, coordinator: coordinator)
        var objects: [NSManagedObject] = []
        objects.reserveCapacity(rows.count)
        for row in rows {
            objects.append(context.register(row.objectID, snapshot: returnsObjectsAsFaults ? nil : row.snapshot))
        }
        lock.withLock {
            batches[index] = objects
            evictFarBatches(around: index)
        }
        return objects
    }

    /// Reads batch `index` from the store without making objects of its rows, so that the next
    /// `objects(inBatch:)` on the context's queue costs no query. It only asks the store, so it may run off the
    /// context's queue (see the type's notes); a store error is thrown, and an interrupted query
    /// (`InterruptHandle`) throws too, leaving nothing half-read.
    public func preload(batch index: Int) throws {
        guard lock.withLock({ batches[index] == nil && preloaded[index] == nil }),
              let coordinator = context.persistentStoreCoordinator else { return }
        let rows = try readRows(ofBatch: index, coordinator: coordinator)
        lock.withLock { preloaded[index] = rows }
    }

    /// Reads the rows of batch `index` and records its boundaries (and the count, for a short batch).
    private func readRows(ofBatch index: Int, coordinator: NSPersistentStoreCoordinator) throws -> [FetchedRow] {
        let (start, limit) = lock.withLock { self.window(for: index) }
        // The store's connection is opened without SQLite's own mutex: every use, this one included, holds the
        // coordinator's lock, or a save on another context's queue would run on the same connection at once.
        let read = try coordinator.withLock { try store.fetchWindow(fetch, start: start, limit: limit) }
        for row in read.rows {
            if let snapshot = row.snapshot { coordinator.rowCache.store(snapshot, for: row.objectID) }
        }
        coordinator.statistics.record { $0.fetches += 1 }
        lock.withLock {
            if let first = read.first, let last = read.last { boundaries[index] = (first, last) }
            if read.rows.count < batchSize, knownCount == nil {
                // A short batch is the last one: the count is now known without counting.
                knownCount = index * batchSize + read.rows.count
            }
        }
        return read.rows
    }

    /// Whether batch `index` is in memory (or preloaded), so that reading it asks nothing of the store.
    public func holdsBatch(_ index: Int) -> Bool {
        lock.withLock { batches[index] != nil || preloaded[index] != nil }
    }

    /// Indexes of the batches in memory, for the browser's status line and for tests.
    public var residentBatches: [Int] { lock.withLock { batches.keys.sorted() } }

    // MARK: Windows

    /// Where batch `index` starts and how many rows it holds at most: next to a known batch by keyset, near the
    /// end by reading backwards, elsewhere by offset.
    private func window(for index: Int) -> (FetchWindowStart, Int) {
        var limit = batchSize
        if fetch.fetchLimit > 0 { limit = Swift.min(batchSize, Swift.max(0, fetch.fetchLimit - index * batchSize)) }
        if canUseKeyset {
            if let previous = boundaries[index - 1] { return (.after(previous.last), limit) }
            if let next = boundaries[index + 1] { return (.before(next.first), limit) }
            if let knownCount {
                let rowsAfter = knownCount - (index + 1) * batchSize
                if rowsAfter < index * batchSize {
                    // The last batch may be short: read only its rows from the end.
                    return (.fromEnd(Swift.max(0, rowsAfter)), rowsAfter < 0 ? batchSize + rowsAfter : batchSize)
                }
            }
        }
        return (.offset(fetch.fetchOffset + index * batchSize), limit)
    }

    private func evictFarBatches(around index: Int) {
        guard batches.count > maximumResidentBatches else { return }
        let far = batches.keys.sorted { abs($0 - index) > abs($1 - index) }
        for batch in far.prefix(batches.count - maximumResidentBatches) {
            batches.removeValue(forKey: batch)
        }
    }
}

extension NSManagedObjectContext {
    /// Fetches with batches: the results load `fetchBatchSize` objects at a time as they are touched (see
    /// `BatchFaultingArray`). `fetch(_:)` with a batch size returns a plain array of faults instead.
    public func fetchBatched<T>(_ request: NSFetchRequest<T>) throws -> BatchFaultingArray {
        let (coordinator, entity) = try resolve(request)
        let store = try coordinator.store(for: entity)
        if request.fetchBatchSize <= 0 { request.fetchBatchSize = 20 }
        return BatchFaultingArray(context: self, request: request, entity: entity, store: store)
    }
}
