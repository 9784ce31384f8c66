import CoreDataModel
import Foundation
import PropertyListCoding

/// The map's usual shapes read straight from the archive's `$objects`, without an `ArchivedObject` per node, value
/// array, related-node dictionary and date: plain values and UIDs as Apple's (and our) writer lays them out. Any
/// other shape answers nil, and the general reader (`BinaryStoreMapReader.object`) takes that node, with its
/// precise errors.
struct BinaryStoreMapFastPath {
    let archive: KeyedArchive
    let schema: StoreFileSchema
    /// Class names by `$class` UID, resolved once.
    private var classNames: [UInt64: String] = [:]

    init(archive: KeyedArchive, schema: StoreFileSchema) {
        self.archive = archive
        self.schema = schema
    }

    /// The `(key, node)` UID pairs of the `mapData` dictionary, or nil when it is not a plain `NS.keys`/`NS.objects`
    /// dictionary.
    mutating func entries() -> [(key: PropertyListValue, node: PropertyListValue)]? {
        guard let top = archive.top["mapData"], let map = fields(top), isDictionary(map),
              case .array(let keys)? = map["NS.keys"], case .array(let nodes)? = map["NS.objects"],
              keys.count == nodes.count else { return nil }
        return Array(zip(keys, nodes)).map { (key: $0.0, node: $0.1) }
    }

    /// The key of a map entry, when it is a plain integer.
    func key(_ uid: PropertyListValue) -> Int64? {
        guard case .uid(let index) = uid, index < UInt64(archive.objects.count),
              case .integer(let key) = archive.objects[Int(index)] else { return nil }
        return key
    }

    /// The object for a node in the usual shape, or nil to leave it to the general reader.
    mutating func object(_ key: Int64, node uid: PropertyListValue) -> StoreFileObject? {
        guard let node = fields(uid), className(node) == "NSDictionaryMapNode",
              let entityName = plain(node["NSEntityName"])?.stringValue, let entity = schema.entity(named: entityName),
              case .integer(let nodeKey)? = node["NSPrimaryKey64"], nodeKey == key,
              let valuesArray = node["NSAttributeValues"].flatMap(fields), isArray(valuesArray),
              case .array(let values)? = valuesArray["NS.objects"] else { return nil }
        let plan = schema.plan(for: entity)
        guard values.count == plan.attributes.count else { return nil }
        var object = StoreFileObject(entity: entity, reference: key)
        for (attribute, valueUID) in zip(plan.attributes, values) {
            guard case .uid(let index) = valueUID, index < UInt64(archive.objects.count) else { return nil }
            let raw = archive.objects[Int(index)]
            let archived: ArchivedValue
            switch raw {
            case .string("$null") where index == 0: continue
            case .string(let text): archived = .string(text)
            case .integer(let number): archived = .integer(number)
            case .real(let number): archived = .real(number)
            case .bool(let flag): archived = .bool(flag)
            case .data(let bytes): archived = .data(bytes)
            case .dictionary(let entry):
                switch className(entry) {
                case "NSNull": continue
                case "NSDate" where attribute.attributeType == .dateAttributeType:
                    guard case .real(let seconds)? = entry["NS.time"] else { return nil }
                    object.attributes[attribute.name] = .date(Date(timeIntervalSinceReferenceDate: seconds))
                    continue
                default: archived = .object(ArchivedObjectReference(index: Int(index)))
                }
            default: return nil
            }
            do {
                if let value = try BinaryStoreValues.value(archived, for: attribute, in: archive) {
                    object.attributes[attribute.name] = value
                }
            } catch {
                return nil
            }
        }
        if let relatedUID = node["NSRelatedNodes"] {
            guard let related = fields(relatedUID), isDictionary(related),
                  case .array(let names)? = related["NS.keys"], case .array(let lists)? = related["NS.objects"],
                  names.count == lists.count else { return nil }
            for (nameUID, listUID) in zip(names, lists) {
                guard let name = plain(nameUID)?.stringValue, let relationship = plan.relationship(folded: name),
                      let list = fields(listUID), isArray(list), case .array(let destinations)? = list["NS.objects"] else { return nil }
                guard !destinations.isEmpty else { continue }
                var keys: [Int64] = []
                keys.reserveCapacity(destinations.count)
                for destination in destinations {
                    guard let destinationKey = self.key(destination) else { return nil }
                    keys.append(destinationKey)
                }
                object.relationships[relationship.name] = keys
            }
        }
        return object
    }

    /// The fields of the object a UID points at (with `$class`), or nil.
    private func fields(_ uid: PropertyListValue) -> [String: PropertyListValue]? {
        guard case .uid(let index) = uid, index < UInt64(archive.objects.count),
              case .dictionary(let entry) = archive.objects[Int(index)], entry["$class"] != nil else { return nil }
        return entry
    }

    /// The plain value a UID points at (a string, number or data), or nil.
    private func plain(_ uid: PropertyListValue?) -> PropertyListValue? {
        guard case .uid(let index)? = uid, index > 0, index < UInt64(archive.objects.count) else { return nil }
        let value = archive.objects[Int(index)]
        if case .dictionary = value { return nil }
        return value
    }

    private mutating func className(_ entry: [String: PropertyListValue]) -> String? {
        guard case .uid(let uid)? = entry["$class"] else { return nil }
        if let known = classNames[uid] { return known }
        guard uid < UInt64(archive.objects.count), case .dictionary(let description) = archive.objects[Int(uid)],
              case .string(let name)? = description["$classname"] else { return nil }
        classNames[uid] = name
        return name
    }

    private mutating func isArray(_ entry: [String: PropertyListValue]) -> Bool {
        ["NSArray", "NSMutableArray"].contains(className(entry) ?? "")
    }

    private mutating func isDictionary(_ entry: [String: PropertyListValue]) -> Bool {
        ["NSDictionary", "NSMutableDictionary"].contains(className(entry) ?? "")
    }
}
