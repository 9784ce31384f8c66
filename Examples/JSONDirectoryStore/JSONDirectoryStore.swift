// A custom Core Data store, written as an app would write one: a subclass of NSAtomicStore using public API only.
//
// The store is a directory a person can read and edit:
//
//     Library.store/
//       metadata.json    the store's UUID, type, model version hashes (base64) and the app's own keys (JSON values)
//       Author.json      {"entity": "Author", "objects": [{"ref": "Author-1", "name": "Ann", "books": ["Book-2"]}]}
//       Book.json        one file per entity that has objects, objects in reference order
//
// Each object has a reference string ("Book-2"), unique in the store; relationships hold the references of their
// destinations (a list for a to-many, in order when the relationship is ordered). Attribute values are JSON
// strings, numbers and booleans; dates are ISO 8601 with milliseconds, binary data base64, decimals strings.
//
// The atomic store contract, in the order Core Data calls it:
//   load()                      read the files: metadata first, then one cache node per object, then relationships
//   newReferenceObject(for:)    a reference for an object saved for the first time
//   newCacheNode(for:)          a node for it, with its values
//   updateCacheNode(_:from:)    a changed object's values into its node
//   save()                      every node back to the files
// Core Data does the rest: fetching (predicates, sorts, batches) runs in memory over the nodes.
import Foundation
import OpenCoreData

public final class JSONDirectoryStore: NSAtomicStore, @unchecked Sendable {
    /// The store type this class registers under: `coredata --type jsondirectory` opens one.
    public static let type = "JSONDirectory"
    public override class var storeType: String { type }

    /// Makes the type known to every coordinator of this program.
    public static func register() {
        NSPersistentStoreCoordinator.registerStoreClass(JSONDirectoryStore.self, type: type)
    }

    /// The number in the last reference handed out ("Book-7" → 7); new references count on from it.
    private var lastNumber = 0

    // MARK: Loading

    public override func load() throws {
        guard let directory = url else { throw failure("a JSON directory store needs a directory URL") }
        let model = persistentStoreCoordinator!.managedObjectModel
        let metadataFile = directory.appendingPathComponent("metadata.json")
        guard FileManager.default.fileExists(atPath: metadataFile.path) else {
            // A new store: an empty directory with the metadata Core Data completes after load().
            guard !isReadOnly else { throw failure("\(directory.path): no store there, and it is opened read-only") }
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            return
        }
        // The metadata first: its UUID is the one the object IDs made below carry.
        metadata = try Self.readMetadata(metadataFile)
        var nodes: [String: NSAtomicStoreCacheNode] = [:]
        var pending: [(node: NSAtomicStoreCacheNode, record: [String: Any], file: String)] = []
        for entity in model.entities where !entity.isAbstract {
            let file = directory.appendingPathComponent("\(entity.name!).json")
            guard FileManager.default.fileExists(atPath: file.path) else { continue }
            for record in try Self.records(in: file) {
                guard let ref = record["ref"] as? String else { throw failure("\(file.path): an object has no \"ref\" string") }
                guard nodes[ref] == nil else { throw failure("\(file.path): \(ref): the reference is used twice") }
                let node = NSAtomicStoreCacheNode(objectID: objectID(for: entity, withReferenceObject: ref))
                for (name, attribute) in entity.attributesByName where !attribute.isTransient {
                    guard let value = record[name], !(value is NSNull) else { continue }
                    node.setValue(try Self.attributeValue(value, attribute, where: "\(file.path): \(ref).\(name)"), forKey: name)
                }
                nodes[ref] = node
                pending.append((node, record, file.path))
                lastNumber = max(lastNumber, Int(ref.split(separator: "-").last ?? "") ?? 0)
            }
        }
        // Relationships once every node exists: a reference becomes the destination's node.
        for (node, record, file) in pending {
            for (name, relationship) in node.objectID.entity.relationshipsByName where !relationship.isTransient {
                guard let value = record[name], !(value is NSNull) else { continue }
                let refs = relationship.isToMany ? value as? [String] : (value as? String).map { [$0] }
                guard let refs else { throw failure("\(file): \(record["ref"]!).\(name): expected \(relationship.isToMany ? "a list of references" : "a reference")") }
                let destinations = try refs.map { ref in
                    guard let destination = nodes[ref] else { throw failure("\(file): \(record["ref"]!).\(name) refers to \(ref), which is not in the store") }
                    return destination
                }
                if !relationship.isToMany {
                    node.setValue(destinations.first, forKey: name)
                } else {
                    node.setValue(relationship.isOrdered ? destinations as Any : Set(destinations) as Any, forKey: name)
                }
            }
        }
        addCacheNodes(Set(nodes.values))
    }

    // MARK: Saving

    public override func newReferenceObject(for managedObject: NSManagedObject) -> Any {
        lastNumber += 1
        return "\(managedObject.entity.name!)-\(lastNumber)"
    }

    public override func newCacheNode(for managedObject: NSManagedObject) -> NSAtomicStoreCacheNode {
        let node = NSAtomicStoreCacheNode(objectID: managedObject.objectID)
        copyValues(from: managedObject, to: node)
        return node
    }

    public override func updateCacheNode(_ node: NSAtomicStoreCacheNode, from managedObject: NSManagedObject) {
        copyValues(from: managedObject, to: node)
    }

    /// Writes one file per entity, each atomically (a temporary file renamed over the old one), then the metadata.
    /// The files are replaced one by one: a crash between two leaves entity files from two saves.
    public override func save() throws {
        guard let directory = url else { throw failure("a JSON directory store needs a directory URL") }
        var byEntity: [String: [NSAtomicStoreCacheNode]] = [:]
        for node in cacheNodes() { byEntity[node.objectID.entity.name!, default: []].append(node) }
        for entity in persistentStoreCoordinator!.managedObjectModel.entities where !entity.isAbstract {
            let file = directory.appendingPathComponent("\(entity.name!).json")
            let nodes = (byEntity[entity.name!] ?? []).sorted { Self.order(reference(of: $0), reference(of: $1)) }
            if nodes.isEmpty {
                if FileManager.default.fileExists(atPath: file.path) { try FileManager.default.removeItem(at: file) }
                continue
            }
            let records = nodes.map { record(of: $0) }
            try writeAtomically(try Self.json(["entity": entity.name!, "objects": records]), to: file)
        }
        try writeAtomically(try Self.json(Self.jsonMetadata(metadata)), to: directory.appendingPathComponent("metadata.json"))
    }

    private func reference(of node: NSAtomicStoreCacheNode) -> String {
        referenceObject(for: node.objectID) as? String ?? "?"
    }

    /// A node as JSON: its reference, its attributes, its relationships as references.
    private func record(of node: NSAtomicStoreCacheNode) -> [String: Any] {
        var record: [String: Any] = ["ref": reference(of: node)]
        for (name, attribute) in node.objectID.entity.attributesByName where !attribute.isTransient {
            if let value = node.value(forKey: name) { record[name] = Self.jsonValue(value) }
        }
        for (name, relationship) in node.objectID.entity.relationshipsByName where !relationship.isTransient {
            switch node.value(forKey: name) {
            case let destination as NSAtomicStoreCacheNode:
                record[name] = reference(of: destination)
            case let ordered as [NSAtomicStoreCacheNode]:
                record[name] = ordered.map(reference(of:))
            case let set as Set<NSAtomicStoreCacheNode>:
                record[name] = set.map(reference(of:)).sorted(by: Self.order)
            default:
                if relationship.isToMany { record[name] = [String]() }
            }
        }
        return record
    }

    // MARK: Metadata without a coordinator

    public override class func metadataForPersistentStore(with url: URL) throws -> [String: Any] {
        var metadata = try readMetadata(url.appendingPathComponent("metadata.json"))
        metadata[NSStoreTypeKey] = type
        return metadata
    }

    // MARK: Values

    /// "Book-2" before "Book-10".
    private static func order(_ left: String, _ right: String) -> Bool {
        left.compare(right, options: .numeric) == .orderedAscending
    }

    private static func attributeValue(_ value: Any, _ attribute: NSAttributeDescription, where place: String) throws -> Any {
        let converted: Any?
        switch attribute.attributeType {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType:
            converted = (value as? NSNumber).map { $0.int64Value }
        case .doubleAttributeType: converted = (value as? NSNumber).map { $0.doubleValue }
        case .floatAttributeType: converted = (value as? NSNumber).map { $0.floatValue }
        case .booleanAttributeType: converted = value as? Bool
        case .stringAttributeType: converted = value as? String
        case .decimalAttributeType: converted = (value as? String).flatMap { Decimal(string: $0) }
        case .dateAttributeType: converted = (value as? String).flatMap { dateFormat.date(from: $0) }
        case .UUIDAttributeType: converted = (value as? String).flatMap(UUID.init(uuidString:))
        case .URIAttributeType: converted = (value as? String).flatMap(URL.init(string:))
        default: converted = (value as? String).flatMap { Data(base64Encoded: $0) }
        }
        guard let converted else {
            throw failure("\(place): \(value) is not a \(attribute.attributeType) value as this store writes them")
        }
        return converted
    }

    private static func jsonValue(_ value: Any) -> Any {
        switch value {
        case let date as Date: dateFormat.string(from: date)
        case let data as Data: data.base64EncodedString()
        case let decimal as Decimal: decimal.description
        case let uuid as UUID: uuid.uuidString
        case let url as URL: url.absoluteString
        default: value
        }
    }

    nonisolated(unsafe) private static let dateFormat: ISO8601DateFormatter = {
        let format = ISO8601DateFormatter()
        format.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return format
    }()

    // MARK: Files

    private static func records(in file: URL) throws -> [[String: Any]] {
        guard let root = try parse(file) as? [String: Any], let objects = root["objects"] as? [[String: Any]] else {
            throw failure("\(file.path): expected {\"entity\": …, \"objects\": [ … ]}")
        }
        return objects
    }

    private static func readMetadata(_ file: URL) throws -> [String: Any] {
        guard var metadata = try parse(file) as? [String: Any] else { throw failure("\(file.path): expected a JSON object") }
        // Version hashes are data, which JSON spells in base64.
        if let hashes = metadata[NSStoreModelVersionHashesKey] as? [String: String] {
            metadata[NSStoreModelVersionHashesKey] = hashes.compactMapValues { Data(base64Encoded: $0) }
        }
        return metadata
    }

    private static func jsonMetadata(_ metadata: [String: Any]) -> [String: Any] {
        var result: [String: Any] = [:]
        for (key, value) in metadata {
            if let hashes = value as? [String: Data] {
                result[key] = hashes.mapValues { $0.base64EncodedString() }
            } else if JSONSerialization.isValidJSONObject([value]) {
                result[key] = value
            }
        }
        return result
    }

    private static func parse(_ file: URL) throws -> Any {
        do {
            return try JSONSerialization.jsonObject(with: Data(contentsOf: file))
        } catch {
            throw failure("\(file.path): not readable JSON (\(error.localizedDescription))")
        }
    }

    private static func json(_ object: Any) throws -> Data {
        try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
    }

    private static func failure(_ message: String) -> CoreDataError {
        CoreDataError(.persistentStoreOpen, message)
    }

    private func failure(_ message: String) -> CoreDataError { Self.failure(message) }
}
