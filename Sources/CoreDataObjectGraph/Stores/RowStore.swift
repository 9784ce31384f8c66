import CoreDataModel
import Foundation
import SQLiteDatabase

/// The requests the coordinator and its contexts send to a store: the contract a store type fulfils to hold objects.
///
/// Every call is made under the coordinator's lock (`NSPersistentStoreCoordinator.withLock`), one at a time, so a
/// store needs no locking of its own and may keep one connection (the SQLite store's is opened without SQLite's
/// mutex). Contexts never downcast to a store class: what they need of a store is here. Stores adopt the protocol in
/// extensions, one file per topic (DECISIONS #9).
///
/// The shape is the one a public store interface needs (issue 18: in-memory, atomic and custom stores): fetches of
/// objects, IDs, dictionaries and counts, batch windows, faulting by key, to-many loads, and saves. It stays internal
/// while its row and snapshot types are internal.
protocol RowStore: NSPersistentStore {
    // MARK: Fetching

    /// Runs a fetch and hands each row to `body` as it is read, collecting nothing (a fetch of objects turns each row
    /// into its object at once); returns how many rows there were. Without property values, rows carry IDs only.
    @discardableResult
    func executeFetch(_ fetch: ResolvedFetch, forEachRow body: (consuming FetchedRow) throws -> Void) throws -> Int
    /// How many rows the fetch would return, its limit and offset applied.
    func executeCount(_ fetch: ResolvedFetch) throws -> Int
    /// Dictionary results: properties, key paths and aggregates, grouped and filtered as `shape` says.
    func executeDictionaryFetch(_ fetch: ResolvedFetch, _ shape: DictionaryShape) throws -> [FetchedDictionary]
    /// One window of a batched fetch: `limit` rows from `start`, with values, in the fetch's order (sort descriptors,
    /// then primary key), and the sort-key boundaries of its first and last rows, where neighbouring windows continue.
    func fetchWindow(_ fetch: ResolvedFetch, start: FetchWindowStart, limit: Int) throws -> FetchWindow

    // MARK: Faulting and relationships

    /// Batch faulting: the snapshots of many objects at once; IDs whose rows are gone are missing from the result.
    func snapshots(for ids: [NSManagedObjectID]) throws -> [NSManagedObjectID: Snapshot]
    /// Why `id` has no snapshot (its row is gone, or belongs to another entity), for the fault's error; nil when the
    /// store cannot tell.
    func missingRowReason(for id: NSManagedObjectID) -> String?
    /// The destinations of one object's to-many relationship, in relationship order.
    func destinations(of id: NSManagedObjectID, relationship: NSRelationshipDescription) throws -> [NSManagedObjectID]
    /// The destinations of many sources' to-many relationship, with the destinations' snapshots.
    func prefetchToMany(_ relationship: NSRelationshipDescription, sourceIDs: [NSManagedObjectID]) throws -> ToManyPrefetch
    /// The bytes of a value stored outside the row.
    func externalData(reference: String) throws -> Data

    // MARK: Saving

    /// Writes the inserts, updates and deletes of one save atomically, with optimistic locking: a conflict throws
    /// `.managedObjectMerge` naming the objects, and writes nothing.
    func save(_ request: SaveRequest) throws -> SaveOutcome
    /// Permanent IDs for objects not saved yet (`obtainPermanentIDs(for:)`), in the order of `objects`.
    func reservePrimaryKeys(for objects: [NSManagedObject]) throws -> [NSManagedObjectID]
}

extension RowStore {
    /// The rows of a fetch, collected.
    func executeFetch(_ fetch: ResolvedFetch) throws -> [FetchedRow] {
        var rows: [FetchedRow] = []
        try executeFetch(fetch) { rows.append($0) }
        return rows
    }
}

/// What a to-many prefetch returns: each source's destinations in order, and the destinations' snapshots.
struct ToManyPrefetch {
    var destinations: [NSManagedObjectID: [NSManagedObjectID]] = [:]
    var snapshots: [NSManagedObjectID: Snapshot] = [:]
}

/// Where a window of a batched fetch starts: after an offset, after or before a known row (keyset), or at an
/// offset from the end (the order reversed).
enum FetchWindowStart {
    case offset(Int)
    case after(SortBoundary)
    case before(SortBoundary)
    case fromEnd(Int)
}

/// The sort-key values and primary key of one row, as stored: where a keyset window continues.
struct SortBoundary {
    var keys: [SQLiteValue]
    var primaryKey: Int64
}

/// Rows of a window and the boundaries of its first and last rows.
struct FetchWindow {
    var rows: [FetchedRow]
    var first: SortBoundary?
    var last: SortBoundary?
}
