import CoreDataModel
import Foundation
import PropertyListCoding

/// The whole content of an atomic store file (XML or binary), decoded and checked against a model, in a form that
/// belongs to neither format: what `NSAtomicStore` subclasses turn into cache nodes on load and back into bytes on
/// save.
///
/// Reading a file gives exactly this; writing this gives a file that reads back equal (`decode(encode(x)) == x`).
public struct StoreFileContents: Sendable, Equatable {
    /// The store's metadata as Core Data reports it: `NSStoreType`, `NSStoreUUID`, `NSStoreModelVersionHashes`
    /// (entity name → 32 bytes of hash), `NSStoreModelVersionIdentifiers`, … and the application's own keys. The
    /// XML format keeps the UUID in its own element and writes no `NSStoreType`; its reader puts both here.
    public var metadata: [String: PropertyListValue]
    /// The largest reference handed out so far: new objects take references above it. The XML store's
    /// `nextObjectID` (the last `z` number used) and the binary store's primary-key mark in its header. Never below
    /// the largest reference of `objects` once read.
    public var referenceHighWaterMark: Int64
    /// The objects, in ascending `reference` order once read; writers order them the same way.
    public var objects: [StoreFileObject]

    public init(metadata: [String: PropertyListValue], referenceHighWaterMark: Int64, objects: [StoreFileObject]) {
        self.metadata = metadata
        self.referenceHighWaterMark = referenceHighWaterMark
        self.objects = objects
    }

    /// `NSStoreUUID`, when the metadata holds one as a string.
    public var storeUUID: String? {
        if case .string(let uuid)? = metadata[StoreMetadataKey.storeUUID] { return uuid }
        return nil
    }

    /// `NSStoreModelVersionHashes`: entity name → hash bytes (entries that are not data are left out).
    public var modelVersionHashes: [String: Data] {
        guard case .dictionary(let hashes)? = metadata[StoreMetadataKey.modelVersionHashes] else { return [:] }
        return hashes.compactMapValues { value in
            if case .data(let bytes) = value { return bytes }
            return nil
        }
    }
}

/// One object of a store file: its entity, its reference (the XML store's `z` number, the binary store's primary
/// key; one key space over all entities), its attribute values and its relationships.
public struct StoreFileObject: Sendable, Equatable {
    /// The object's own entity (never abstract).
    public var entity: NSEntityDescription
    /// The object's reference, unique in the file and greater than 0.
    public var reference: Int64
    /// Attribute values by the model's attribute name (inherited attributes included). A nil value is absent.
    /// Transformable attributes hold the transformed bytes (`.data`), as the SQLite store keeps them.
    public var attributes: [String: AttributeValue]
    /// Destination references by the model's relationship name, in stored order (the order of an ordered to-many).
    /// A relationship with no destination is absent, never an empty list.
    public var relationships: [String: [Int64]]

    public init(entity: NSEntityDescription, reference: Int64, attributes: [String: AttributeValue] = [:],
                relationships: [String: [Int64]] = [:]) {
        self.entity = entity
        self.reference = reference
        self.attributes = attributes
        self.relationships = relationships
    }

    /// Equal when the entity is the same description (by identity) and every value and reference list is equal.
    public static func == (lhs: StoreFileObject, rhs: StoreFileObject) -> Bool {
        lhs.entity === rhs.entity && lhs.reference == rhs.reference && lhs.attributes == rhs.attributes
            && lhs.relationships == rhs.relationships
    }
}

/// The metadata keys the formats treat specially.
public enum StoreMetadataKey {
    public static let storeType = "NSStoreType"
    public static let storeUUID = "NSStoreUUID"
    public static let modelVersionHashes = "NSStoreModelVersionHashes"
}
