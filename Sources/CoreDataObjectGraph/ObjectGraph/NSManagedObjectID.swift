import CoreDataModel
import Foundation

/// The identity of a managed object: its entity, the store that holds it and its primary key there
/// (or a temporary identifier before its first save). Object IDs are immutable and `Sendable`: they are what
/// crosses between contexts and threads, never the objects themselves.
public final class NSManagedObjectID: Hashable, Sendable, CustomStringConvertible {
    public let entity: NSEntityDescription
    /// The store's interned identifier, nil for a temporary ID; unretained, as interned identifiers live as long as
    /// the process (see `InternedStoreIdentifier`).
    private let store: UnretainedReference<InternedStoreIdentifier>?
    // A permanent ID's primary key, or a temporary ID's random UUID in two halves (`key` then `temporaryLow`): one
    // layout for both kinds, 48 bytes instead of the 58 of a key beside an optional UUID and a flag, so that each
    // fetched object's ID takes a 64-byte allocation rather than an 80-byte one.
    private let key: Int64
    private let temporaryLow: UInt64

    package convenience init(entity: NSEntityDescription, storeIdentifier: String, primaryKey: Int64) {
        self.init(entity: entity, store: .intern(storeIdentifier), primaryKey: primaryKey)
    }

    /// An ID in the store whose identifier is already interned (what stores making many IDs use: interning takes a
    /// lock and a hash of the identifier).
    init(entity: NSEntityDescription, store: InternedStoreIdentifier, primaryKey: Int64) {
        self.entity = entity
        self.store = UnretainedReference(store)
        self.key = primaryKey
        self.temporaryLow = 0
    }

    package init(temporaryFor entity: NSEntityDescription) {
        self.entity = entity
        self.store = nil
        let halves = withUnsafeBytes(of: TemporaryIDSource.next().uuid) { ($0.load(as: Int64.self), $0.load(fromByteOffset: 8, as: UInt64.self)) }
        self.key = halves.0
        self.temporaryLow = halves.1
    }

    /// The identifier of the store (its metadata UUID), or nil for a temporary ID.
    public var storeIdentifier: String? { store?.object.string }

    /// The store that holds the object, or nil for a temporary ID (an object not saved yet) and for a store no longer
    /// added to its coordinator. When two coordinators have the same store file added, it is the one added last.
    public var persistentStore: NSPersistentStore? { store?.object.latestAddedStore }

    /// The row's `Z_PK` in the store; 0 for a temporary ID.
    public var primaryKey: Int64 { store == nil ? 0 : key }

    /// Whether the object has not been saved yet (its ID changes when it is).
    public var isTemporaryID: Bool { store == nil }

    /// A temporary ID's random UUID.
    private var temporaryUUID: UUID? {
        guard isTemporaryID else { return nil }
        return UUID(uuid: unsafeBitCast((key, temporaryLow), to: uuid_t.self))
    }

    /// `x-coredata://STORE-UUID/Entity/pN`, or `x-coredata:///Entity/tUUID` for a temporary ID.
    public func uriRepresentation() -> URL {
        if let temporaryUUID {
            return URL(string: "x-coredata:///\(entity.entityName)/t\(temporaryUUID.uuidString)")!
        }
        return URL(string: "x-coredata://\(storeIdentifier ?? "")/\(entity.entityName)/p\(primaryKey)")!
    }

    public var description: String { uriRepresentation().absoluteString }

    public static func == (lhs: NSManagedObjectID, rhs: NSManagedObjectID) -> Bool {
        if lhs === rhs { return true }
        return lhs.key == rhs.key && lhs.temporaryLow == rhs.temporaryLow && UnretainedReference.same(lhs.store, rhs.store)
            && lhs.entity.rootEntity === rhs.entity.rootEntity
    }

    /// Hashes the primary key (or the temporary UUID) only: IDs of different stores or trees with the same key
    /// are rare and still told apart by `==`, and a 36-character store UUID is too long to hash on every registry
    /// and row-cache lookup.
    public func hash(into hasher: inout Hasher) {
        // A temporary ID's random UUID folded into one word: `UUID`'s own hashing feeds its 16 bytes through
        // `combine(bytes:)`, several times the cost, on every registry lookup of an inserted object.
        hasher.combine(UInt64(bitPattern: key) ^ temporaryLow)
    }

    /// The hash `Set` and `Dictionary` use (through `_rawHashValue(seed:)`, see `Storage/RawHashing.swift`): the
    /// fields `hash(into:)` combines, mixed with `seed` by the SplitMix64 finaliser, far cheaper than SipHash on the
    /// registry's and row cache's every lookup.
    @inline(__always)
    func mixedHash(seed: Int) -> Int {
        var bits = UInt64(bitPattern: Int64(seed)) ^ UInt64(bitPattern: key)
        if temporaryLow != 0 { bits = SplitMix64.finalize(bits) ^ temporaryLow }
        return Int(truncatingIfNeeded: SplitMix64.finalize(bits))
    }
}
