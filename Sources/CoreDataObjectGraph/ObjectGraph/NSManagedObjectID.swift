import CoreDataModel
import Foundation

/// The identity of a managed object: its entity, the store that holds it and its primary key there
/// (or a temporary identifier before its first save). Object IDs are immutable and `Sendable`: they are what
/// crosses between contexts and threads, never the objects themselves.
public final class NSManagedObjectID: Hashable, Sendable, CustomStringConvertible {
    public let entity: NSEntityDescription
    /// The identifier of the store (its metadata UUID), or nil for a temporary ID.
    public let storeIdentifier: String?
    /// The row's `Z_PK` in the store; for a temporary ID, a process-unique number.
    public let primaryKey: Int64
    /// Whether the object has not been saved yet (its ID changes when it is).
    public let isTemporaryID: Bool
    private let temporaryUUID: UUID?

    package init(entity: NSEntityDescription, storeIdentifier: String, primaryKey: Int64) {
        self.entity = entity
        self.storeIdentifier = storeIdentifier
        self.primaryKey = primaryKey
        self.isTemporaryID = false
        self.temporaryUUID = nil
    }

    package init(temporaryFor entity: NSEntityDescription) {
        self.entity = entity
        self.storeIdentifier = nil
        self.primaryKey = 0
        self.isTemporaryID = true
        self.temporaryUUID = TemporaryIDSource.next()
    }

    /// `x-coredata://STORE-UUID/Entity/pN`, or `x-coredata:///Entity/tUUID` for a temporary ID.
    public func uriRepresentation() -> URL {
        if let temporaryUUID {
            return URL(string: "x-coredata:///\(entity.name)/t\(temporaryUUID.uuidString)")!
        }
        return URL(string: "x-coredata://\(storeIdentifier ?? "")/\(entity.name)/p\(primaryKey)")!
    }

    public var description: String { uriRepresentation().absoluteString }

    public static func == (lhs: NSManagedObjectID, rhs: NSManagedObjectID) -> Bool {
        if lhs === rhs { return true }
        return lhs.primaryKey == rhs.primaryKey && lhs.isTemporaryID == rhs.isTemporaryID
            && lhs.temporaryUUID == rhs.temporaryUUID && lhs.storeIdentifier == rhs.storeIdentifier
            && lhs.entity.rootEntity === rhs.entity.rootEntity
    }

    /// Hashes the primary key (or the temporary UUID) only: IDs of different stores or trees with the same key
    /// are rare and still told apart by `==`, and hashing a 36-character store UUID on every registry and
    /// row-cache lookup was a measured fifth of fetch time.
    public func hash(into hasher: inout Hasher) {
        if let temporaryUUID {
            // The random UUID's two halves folded into one word: `UUID`'s own hashing feeds its 16 bytes through
            // `combine(bytes:)`, about ten times the cost, on every registry lookup of an inserted object.
            let halves = unsafeBitCast(temporaryUUID.uuid, to: (UInt64, UInt64).self)
            hasher.combine(halves.0 ^ halves.1)
        } else {
            hasher.combine(primaryKey)
        }
    }

    /// What `Set` and `Dictionary` hash an ID with: the same fields as `hash(into:)`, mixed with the per-process seed
    /// by the SplitMix64 finaliser instead of SipHash. Every registry, row-cache and uniquing lookup hashes an ID, and
    /// SipHash over eight bytes cost about 250 instructions; the finaliser spreads consecutive primary keys (the
    /// usual keys) over the whole table in a dozen.
    public func _rawHashValue(seed: Int) -> Int {
        var bits = UInt64(bitPattern: Int64(seed))
        if let temporaryUUID {
            let halves = withUnsafeBytes(of: temporaryUUID.uuid) { ($0.load(as: UInt64.self), $0.load(fromByteOffset: 8, as: UInt64.self)) }
            bits = Self.mix(bits ^ halves.0) ^ halves.1
        } else {
            bits ^= UInt64(bitPattern: primaryKey)
        }
        return Int(truncatingIfNeeded: Self.mix(bits))
    }

    private static func mix(_ value: UInt64) -> UInt64 {
        var bits = value
        bits = (bits ^ (bits >> 30)) &* 0xbf58_476d_1ce4_e5b9
        bits = (bits ^ (bits >> 27)) &* 0x94d0_49bb_1331_11eb
        return bits ^ (bits >> 31)
    }
}
