import Foundation
import KeyValueCoding

/// One record of an atomic store (``NSAtomicStore``): its object ID and its property values, as Apple's class.
///
/// The node is key-value coding compliant: ``value(forKey:)`` and ``setValue(_:forKey:)`` read and write
/// ``propertyCache``. Attributes hold their values (`String`, `Int64` or any integer type, `Double`, `Bool`, `Date`,
/// `Data`, `UUID`, `URL`, `Decimal`), a to-one relationship the destination's cache node, and a to-many relationship
/// a `Set` of cache nodes (an array of them, in order, for an ordered relationship). Predicates, sort descriptors and
/// key paths of fetches from the store are evaluated on nodes, so `value(forKeyPath: "author.name")` follows them.
///
/// Subclasses may override `value(forKey:)` and `setValue(_:forKey:)` to keep values elsewhere. Nodes compare by
/// identity, as Apple's (`NSObject`) do.
open class NSAtomicStoreCacheNode: KeyValueCoding, Hashable, CustomStringConvertible, @unchecked Sendable {
    /// The ID of the object the node records.
    public let objectID: NSManagedObjectID

    /// The node's values by property name; nil until a value is set. Apple's is an `NSMutableDictionary`; this one is a
    /// Swift dictionary (docs/DEVIATIONS.md).
    open var propertyCache: [String: Any]?

    /// The optimistic-locking version of the record (what `Z_OPT` is in an SQLite store): 1 when added, one more at
    /// each save that changes it. Kept by the store, not written to the store's file.
    var version: Int64 = 1

    /// A node for the object `objectID` (an ID from ``NSAtomicStore/objectID(for:withReferenceObject:)``).
    public required init(objectID: NSManagedObjectID) {
        self.objectID = objectID
    }

    /// The value of the property `key`, from ``propertyCache``.
    open func value(forKey key: String) -> Any? {
        propertyCache?[key]
    }

    /// Sets the value of the property `key` in ``propertyCache``; nil removes it.
    open func setValue(_ value: Any?, forKey key: String) {
        if propertyCache == nil {
            guard value != nil else { return }
            propertyCache = [:]
        }
        propertyCache![key] = value
    }

    public static func == (lhs: NSAtomicStoreCacheNode, rhs: NSAtomicStoreCacheNode) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    public var description: String { "<NSAtomicStoreCacheNode \(objectID)>" }
}
