import CoreDataModel
import Foundation

/// The results of a fetch with a batch size: a random-access collection that loads only the batches that are
/// touched, and forgets far batches so memory stays bounded (the browser's scrolling table stands on it).
///
/// Core Data's batched array fetches every object ID first. This one does better: a batch next to a loaded one
/// continues by *keyset* (`WHERE (sort keys, Z_PK) > (last row)`), batches near the end are read backwards from the
/// end, so neither the first screen nor a page down nor the last screen costs more as the entity grows. Only a
/// jump into the middle uses `OFFSET`. The count is computed once, when first asked for.
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
    public var count: Int {
        if let knownCount { return knownCount }
        let counted = (try? context.persistentStoreCoordinator?.withLock { try store.executeCount(fetch) }) ?? 0
        knownCount = counted
        return counted
    }

    /// The count if it has been computed, without computing it (the browser shows "≥" until then).
    public var countIfKnown: Int? { knownCount }

    /// Takes a count computed elsewhere for the same request (a background counter on another connection), so
    /// that a jump to the end can read backwards without counting again.
    public func assumeCount(_ count: Int) {
        if knownCount == nil { knownCount = Swift.max(0, count) }
    }

    /// Computes the count now, throwing instead of treating a failure as empty.
    public func computeCount() throws -> Int {
        if let knownCount { return knownCount }
        let counted = try context.persistentStoreCoordinator!.withLock { try store.executeCount(fetch) }
        knownCount = counted
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
        if let loaded = batches[index] { return loaded }
        let (start, limit) = window(for: index)
        guard let coordinator = context.persistentStoreCoordinator else { return [] }
        // The store's connection is opened without SQLite's own mutex: every use, this one included, holds the
        // coordinator's lock, or a save on another context's queue would run on the same connection at once.
        let window = try coordinator.withLock { try store.fetchWindow(fetch, start: start, limit: limit) }
        var objects: [NSManagedObject] = []
        objects.reserveCapacity(window.rows.count)
        for row in window.rows {
            if let snapshot = row.snapshot { coordinator.rowCache.store(snapshot, for: row.objectID) }
            objects.append(context.register(row.objectID, snapshot: returnsObjectsAsFaults ? nil : row.snapshot))
        }
        coordinator.statistics.record { $0.fetches += 1 }
        if let first = window.first, let last = window.last { boundaries[index] = (first, last) }
        if objects.count < batchSize, knownCount == nil {
            // A short batch is the last one: the count is now known without counting.
            knownCount = index * batchSize + objects.count
        }
        batches[index] = objects
        evictFarBatches(around: index)
        return objects
    }

    /// Indexes of the batches in memory, for the browser's status line and for tests.
    public var residentBatches: [Int] { batches.keys.sorted() }

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
