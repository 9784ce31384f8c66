import CoreDataModel
import Foundation
import SQLiteDatabase

/// The requests the coordinator and its contexts send to a store: the one contract every store type fulfils to hold
/// objects, public so that a store outside the library can fulfil it too.
///
/// A store is an ``NSPersistentStore`` subclass that also adopts `RowStore` (Apple's custom stores subclass
/// `NSPersistentStore` as well; `NSIncrementalStore`'s requests are spelled differently, see docs/DEVIATIONS.md).
/// ``NSSQLiteStore`` adopts it over SQL, and ``NSAtomicStore`` over cache nodes held in memory (its subclasses, and
/// ``NSInMemoryStore``, only load and save). Every request goes through this protocol: contexts, batch-faulting arrays
/// and the coordinator never downcast to a store class.
///
/// Every call is made under the coordinator's lock, one at a time, so a store needs no locking of its own (the SQLite
/// store's one connection is opened without SQLite's mutex).
///
/// Rows are handed over as ``FetchedRow``s: an object ID (``NSPersistentStore/newObjectID(for:primaryKey:)``) and a
/// ``Snapshot`` holding one ``StoredValue`` per stored property, in the order of
/// ``NSPersistentStoreCoordinator/propertySlots(for:)``.
public protocol RowStore: NSPersistentStore {
    // MARK: Fetching

    /// Runs a fetch and hands each row to `body` as it is read, collecting nothing (a fetch of objects turns each row
    /// into its object at once); returns how many rows there were. Without property values
    /// (``ResolvedFetch/includesPropertyValues`` false), rows carry IDs only. Rows come in the fetch's order: its sort
    /// descriptors, then primary key.
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
    /// The bytes of a value stored outside the row (``StoredValue/externalData(reference:)``).
    func externalData(reference: String) throws -> Data

    // MARK: Saving

    /// Writes the inserts, updates and deletes of one save atomically, with optimistic locking: a conflict throws
    /// `.managedObjectMerge` naming the objects (``CoreDataError/affectedObjectIDs``), and writes nothing.
    func save(_ request: SaveRequest) throws -> SaveOutcome
    /// Permanent IDs for objects not saved yet (`obtainPermanentIDs(for:)`), in the order of `objects`; a later save
    /// of those objects keeps them.
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
public struct ToManyPrefetch {
    public var destinations: [NSManagedObjectID: [NSManagedObjectID]] = [:]
    public var snapshots: [NSManagedObjectID: Snapshot] = [:]

    public init(destinations: [NSManagedObjectID: [NSManagedObjectID]] = [:], snapshots: [NSManagedObjectID: Snapshot] = [:]) {
        self.destinations = destinations
        self.snapshots = snapshots
    }
}

/// Where a window of a batched fetch starts: after an offset, after or before a known row (keyset), or at an
/// offset from the end (the order reversed).
public enum FetchWindowStart {
    case offset(Int)
    case after(SortBoundary)
    case before(SortBoundary)
    case fromEnd(Int)
}

/// Where a keyset window continues: the sort-key values and primary key of one row, as the store that read it keeps
/// them. Only the store that made a boundary reads it back.
public struct SortBoundary {
    /// The SQLite store's sort-key values, as bound.
    var keys: [SQLiteValue]
    /// Another store's sort-key values (the in-memory engine keeps the values its sort descriptors compared).
    public var values: [Any]
    public var primaryKey: Int64

    init(keys: [SQLiteValue], primaryKey: Int64) {
        self.keys = keys
        self.values = []
        self.primaryKey = primaryKey
    }

    /// A boundary of a store other than SQLite: the values its order compares, and the row's primary key.
    public init(values: [Any], primaryKey: Int64) {
        self.keys = []
        self.values = values
        self.primaryKey = primaryKey
    }
}

/// Rows of a window and the boundaries of its first and last rows.
public struct FetchWindow {
    public var rows: [FetchedRow]
    public var first: SortBoundary?
    public var last: SortBoundary?

    public init(rows: [FetchedRow], first: SortBoundary?, last: SortBoundary?) {
        self.rows = rows
        self.first = first
        self.last = last
    }
}

/// The objects of one save, for ``RowStore/save(_:)``: each list in the order the objects first changed.
public struct SaveRequest {
    public var inserted: [NSManagedObject]
    public var updated: [NSManagedObject]
    public var deleted: [NSManagedObject]

    public init(inserted: [NSManagedObject], updated: [NSManagedObject], deleted: [NSManagedObject]) {
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
    }

    /// The stored values `object` is saved with, one per slot of ``NSPersistentStoreCoordinator/propertySlots(for:)``
    /// (to-one destinations as object IDs, possibly temporary ones of objects inserted in the same save); nil for a
    /// fault (an object changed only through the inverse of a to-many, whose own values did not change).
    public static func storedValues(of object: NSManagedObject) -> [StoredValue]? { object.storedValues }

    /// The version of `object`'s row when it was read (`Z_OPT`): a save must find the row still at this version.
    public static func readVersion(of object: NSManagedObject) -> Int64 { object.snapshotVersion }

    /// The destinations of `object`'s to-many relationship `name` as the save writes them, in order; nil when the
    /// relationship was never loaded (and so did not change).
    public static func destinations(of object: NSManagedObject, relationshipNamed name: String) -> [NSManagedObjectID]? {
        object.toMany[name]?.ids
    }
}

/// What the store wrote, in the request's order (arrays rather than dictionaries keyed by object: a save of
/// thousands of objects would hash each of them twice more): the permanent ID of each inserted object, and the
/// version of each updated row. Inserted rows are at version 1.
public struct SaveOutcome {
    public var permanentIDs: [NSManagedObjectID] = []
    public var updatedVersions: [Int64] = []

    public init(permanentIDs: [NSManagedObjectID] = [], updatedVersions: [Int64] = []) {
        self.permanentIDs = permanentIDs
        self.updatedVersions = updatedVersions
    }
}
