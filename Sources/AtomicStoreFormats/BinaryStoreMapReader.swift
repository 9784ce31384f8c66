import CoreDataModel
import Foundation
import PropertyListCoding

/// Decodes the binary store's map archive: `mapData`, a dictionary from primary key to `NSDictionaryMapNode`
/// (`NSEntityName`, `NSPrimaryKey64`, `NSAttributeValues` by position in the entity's stored attributes sorted by
/// name, `NSRelatedNodes` from relationship name to destination keys).
struct BinaryStoreMapReader {
    let schema: StoreFileSchema
    let file: String
    /// Whether the map is read in place (`FlatKeyedArchive`) when its shape allows; else through the value tree.
    var readsInPlace = true

    func objects(in bytes: [UInt8], range: Range<Int>) throws(StoreFileError) -> [StoreFileObject] {
        let archiveBytes = Array(bytes[range])
        // The usual file: the archive read in place, node by node; a node in another shape (or an error) goes to the
        // readers below, over the archive's value tree, which is then built once.
        if readsInPlace, let flat = try? FlatKeyedArchive(bytes: archiveBytes) {
            var path = BinaryStoreMapFlatPath(archive: flat, schema: schema)
            if let entries = path.entries() {
                var objects: [StoreFileObject] = []
                objects.reserveCapacity(entries.count)
                var others: (archive: KeyedArchive, fast: BinaryStoreMapFastPath)?
                for entry in entries {
                    if let key = path.key(entry.key), let object = path.object(key, node: entry.node) {
                        objects.append(object)
                        continue
                    }
                    if others == nil {
                        let archive = try keyedArchive(archiveBytes, range: range)
                        others = (archive, BinaryStoreMapFastPath(archive: archive, schema: schema))
                    }
                    try objects.append(object(fromMapEntry: (flat.plainValue(ofObject: entry.key), flat.plainValue(ofObject: entry.node)),
                                              at: objects.count, fast: &others!.fast, in: others!.archive, range: range))
                }
                return try checked(objects)
            }
        }
        let archive = try keyedArchive(archiveBytes, range: range)
        var objects: [StoreFileObject] = []
        // The usual shapes straight from `$objects`; any node the fast path declines goes through the general
        // reader below, which reports exactly what is wrong.
        var fast = BinaryStoreMapFastPath(archive: archive, schema: schema)
        if let entries = fast.entries() {
            objects.reserveCapacity(entries.count)
            for entry in entries {
                try objects.append(object(fromMapEntry: entry, at: objects.count, fast: &fast, in: archive, range: range))
            }
            return try checked(objects)
        }
        let entries: [(key: ArchivedValue, value: ArchivedValue)]
        do {
            let map = try archive.topObject(forKey: "mapData")
            entries = try map.dictionaryEntries()
        } catch {
            throw BinaryStoreFormat.archiveError(error, range: range, name: "map", file: file)
        }
        objects.reserveCapacity(entries.count)
        for (position, entry) in entries.enumerated() {
            try objects.append(object(fromMapEntry: entry, at: position, in: archive, range: range))
        }
        return try checked(objects)
    }

    private func keyedArchive(_ bytes: [UInt8], range: Range<Int>) throws(StoreFileError) -> KeyedArchive {
        do {
            return try KeyedArchive(bytes: bytes)
        } catch {
            throw BinaryStoreFormat.archiveError(error, range: range, name: "map", file: file)
        }
    }

    /// The object of one `(key, node)` UID pair of the map: by the fast path when it takes the node, else by the
    /// general reader.
    private func object(fromMapEntry entry: (key: PropertyListValue, node: PropertyListValue), at position: Int,
                        fast: inout BinaryStoreMapFastPath, in archive: KeyedArchive,
                        range: Range<Int>) throws(StoreFileError) -> StoreFileObject {
        if let key = fast.key(entry.key), let object = fast.object(key, node: entry.node) { return object }
        do {
            let key = try archive.resolve(entry.key), node = try archive.resolve(entry.node)
            return try object(fromMapEntry: (key, node), at: position, in: archive, range: range)
        } catch let error as StoreFileError {
            throw error
        } catch {
            throw BinaryStoreFormat.archiveError(error, range: range, name: "map", file: file)
        }
    }

    private func checked(_ unsorted: [StoreFileObject]) throws(StoreFileError) -> [StoreFileObject] {
        let objects = unsorted.sorted { $0.reference < $1.reference }
        try StoreFileGraphCheck(schema: schema, file: file, spell: { "\($0)" },
                                locate: { index, _ in .object(objects[index].reference) }).check(objects)
        return objects
    }

    private func object(fromMapEntry entry: (key: ArchivedValue, value: ArchivedValue), at position: Int,
                        in archive: KeyedArchive, range: Range<Int>) throws(StoreFileError) -> StoreFileObject {
        do {
            guard let key = entry.key.int64Value else {
                throw StoreFileError(file: file, location: .byteOffset(range.lowerBound),
                                     reason: "entry \(position + 1) of the map has a \(entry.key.typeName) key, not a primary key")
            }
            do {
                return try object(key, entry.value, in: archive)
            } catch let error as StoreFileError {
                throw error
            } catch {
                throw StoreFileError(file: file, location: .object(key), reason: "\(error)")
            }
        }
    }

    private func object(_ key: Int64, _ value: ArchivedValue, in archive: KeyedArchive) throws -> StoreFileObject {
        func failure(_ reason: String) -> StoreFileError {
            StoreFileError(file: file, location: .object(key), reason: reason)
        }
        guard case .object(let reference) = value else { throw failure("the map holds a \(value.typeName), not a map node") }
        let node = try archive.object(reference)
        guard node.isKind(of: "NSStoreMapNode") || node.className == "NSDictionaryMapNode" else {
            throw failure("the map holds an archived \(node.className), not an NSDictionaryMapNode")
        }
        guard let entityName = try node.string(forKey: "NSEntityName") else { throw failure("the map node has no NSEntityName") }
        guard let entity = schema.entity(named: entityName) else {
            throw failure("entity \(entityName.prefix(80).debugDescription) is not an entity of the model")
        }
        if let nodeKey = try node.integer(forKey: "NSPrimaryKey64"), nodeKey != key {
            throw failure("the map node's NSPrimaryKey64 is \(nodeKey), not its map key")
        }
        let plan = schema.plan(for: entity)
        var object = StoreFileObject(entity: entity, reference: key)
        let values = try node.object(forKey: "NSAttributeValues")?.elements() ?? []
        guard values.count == plan.attributes.count else {
            throw failure("\(entity.entityName) has \(plan.attributes.count) stored attributes, but the map node holds "
                          + "\(values.count) values")
        }
        for (attribute, archived) in zip(plan.attributes, values) {
            do {
                if let value = try BinaryStoreValues.value(archived, for: attribute, in: archive) {
                    object.attributes[attribute.name] = value
                }
            } catch let problem as BinaryValueProblem {
                throw failure("\(entity.entityName): \(problem.reason)")
            }
        }
        if let related = try node.object(forKey: "NSRelatedNodes") {
            for (name, destinations) in try related.stringKeyedEntries() {
                guard let relationship = plan.relationship(folded: name) else {
                    throw failure("\(entity.entityName) has no stored relationship \(name.prefix(80).debugDescription)")
                }
                let keys: [ArchivedValue]
                switch destinations {
                case .object(let listReference): keys = try archive.object(listReference).elements()
                case .array(let inline): keys = inline
                default: throw failure("relationship \(name) holds a \(destinations.typeName), not a list of keys")
                }
                guard !keys.isEmpty else { continue }
                object.relationships[relationship.name] = try keys.map { element in
                    guard let destination = element.int64Value else {
                        throw failure("relationship \(name) lists a \(element.typeName), not a primary key")
                    }
                    return destination
                }
            }
        }
        return object
    }
}
