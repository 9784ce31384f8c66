import CoreDataModel
import Foundation

/// The stored state of one object as a store last returned it: its attribute values and to-one destinations,
/// indexed by the entity's property slots, and its optimistic-locking version (`Z_OPT`).
public struct Snapshot: @unchecked Sendable {
    /// One value per stored property of the entity, in `PropertySlots` order; nil is NULL.
    public var values: [StoredValue]
    public var version: Int64

    public init(values: [StoredValue], version: Int64) {
        self.values = values
        self.version = version
    }
}

/// A stored property value: an attribute value, a to-one destination, or nothing.
public enum StoredValue: @unchecked Sendable, Equatable {
    case null
    case attribute(AttributeValue)
    case toOne(NSManagedObjectID)
    /// A value an external-storage reference points to, read when first accessed.
    case externalData(reference: String)

    public var attributeValue: AttributeValue? {
        if case .attribute(let value) = self { return value }
        return nil
    }
}
