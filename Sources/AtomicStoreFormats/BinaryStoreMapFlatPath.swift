import CoreDataModel
import Foundation
import PropertyListCoding

/// The map's usual shapes read in place from the archive's bytes (`FlatKeyedArchive`): `BinaryStoreMapFastPath`'s
/// reading without the archive's value tree, so a node costs its fields and values and no dictionary per archived
/// object. It takes the nodes that path takes, or fewer, and makes the same objects of them; any other node answers
/// nil and goes to that path (then to the general reader, with its precise errors).
struct BinaryStoreMapFlatPath {
    let archive: FlatKeyedArchive
    let schema: StoreFileSchema
    /// Which field each key string names, by object number (`Field.rawValue`; 0 when not read yet). Keys are shared
    /// strings, so each is read once.
    private var fieldNames: [UInt8]
    /// The class of each `$objects` entry used as a `$class`, by UID (`ClassKind.rawValue`; 0 when not read yet).
    private var classKinds: [UInt8]
    /// Entity plans and relationship names by the object number of their name string.
    private var plans: [Int: StoreFileSchema.EntityPlan] = [:]
    private var names: [Int: String] = [:]

    init(archive: FlatKeyedArchive, schema: StoreFileSchema) {
        self.archive = archive
        self.schema = schema
        fieldNames = [UInt8](repeating: 0, count: archive.objectCount)
        classKinds = [UInt8](repeating: 0, count: archive.count)
    }

    /// The field names the map's objects use; any other key is `other`.
    private enum Field: UInt8 {
        case other = 1, classReference, className, entityName, primaryKey, attributeValues, relatedNodes, keys, objects, time
    }

    /// The classes the map's shapes need, from `$classname`; `unnamed` when the class description has no name.
    private enum ClassKind: UInt8 {
        case unnamed = 1, other, mapNode, array, dictionary, null, date
    }

    /// The fields of one dictionary that the map reads, by object number of their values (a repeated key keeps its
    /// last value, as the property-list reader does).
    private struct Fields {
        var classReference, className, entityName, primaryKey, attributeValues, relatedNodes, keys, objects, time: Int?
    }

    /// The `(key, node)` object numbers of the `mapData` dictionary's entries, or nil when it is not a plain
    /// `NS.keys`/`NS.objects` dictionary.
    mutating func entries() -> [(key: Int, node: Int)]? {
        guard let top = archive.top["mapData"], let map = objectFields(top), isDictionary(map),
              let keys = array(map.keys), let nodes = array(map.objects), keys.count == nodes.count else { return nil }
        return (0..<keys.count).map { (key: archive.element(keys, at: $0), node: archive.element(nodes, at: $0)) }
    }

    /// The key of a map entry, when it is a plain integer.
    func key(_ object: Int) -> Int64? {
        guard case .uid(let uid) = archive.value(ofObject: object), case .integer(let key)? = archive.entry(uid) else { return nil }
        return key
    }

    /// The object for a node in the usual shape, or nil to leave it to `BinaryStoreMapFastPath`.
    mutating func object(_ key: Int64, node nodeObject: Int) -> StoreFileObject? {
        guard let node = objectFields(nodeObject), className(node) == .mapNode,
              let nameObject = node.entityName, let plan = plan(named: nameObject),
              let primaryKey = node.primaryKey, case .integer(let nodeKey) = archive.value(ofObject: primaryKey), nodeKey == key,
              let valuesObject = node.attributeValues, let valuesArray = objectFields(valuesObject), isArray(valuesArray),
              let values = array(valuesArray.objects), values.count == plan.attributes.count else { return nil }
        var object = StoreFileObject(entity: plan.entity, reference: key)
        object.attributes.reserveCapacity(values.count)
        for (position, attribute) in plan.attributes.enumerated() {
            guard case .uid(let index) = archive.value(ofObject: archive.element(values, at: position)),
                  let raw = archive.entry(index) else { return nil }
            let archived: ArchivedValue
            switch raw {
            case .string(let text):
                let string = archive.string(text)
                if index == 0 && string == "$null" { continue }
                archived = .string(string)
            case .integer(let number): archived = .integer(number)
            case .real(let number): archived = .real(number)
            case .bool(let flag): archived = .bool(flag)
            case .data(let bytes): archived = .data(archive.data(bytes))
            case .dictionary(let entry):
                let entryFields = fields(of: entry)
                switch className(entryFields) {
                case .some(.null): continue
                case .some(.date) where attribute.attributeType == .dateAttributeType:
                    guard let time = entryFields.time, case .real(let seconds) = archive.value(ofObject: time) else { return nil }
                    object.attributes[attribute.name] = .date(Date(timeIntervalSinceReferenceDate: seconds))
                    continue
                default: return nil
                }
            default: return nil
            }
            let value: AttributeValue?
            do {
                value = try BinaryStoreValues.plainValue(archived, for: attribute)
            } catch {
                return nil
            }
            if let value { object.attributes[attribute.name] = value }
        }
        if let relatedObject = node.relatedNodes {
            guard let related = objectFields(relatedObject), isDictionary(related),
                  let names = array(related.keys), let lists = array(related.objects),
                  names.count == lists.count else { return nil }
            for position in 0..<names.count {
                guard let name = string(archive.element(names, at: position)), let relationship = plan.relationship(folded: name),
                      let list = objectFields(archive.element(lists, at: position)), isArray(list),
                      let destinations = array(list.objects) else { return nil }
                guard destinations.count > 0 else { continue }
                var keys: [Int64] = []
                keys.reserveCapacity(destinations.count)
                for index in 0..<destinations.count {
                    guard let destinationKey = self.key(archive.element(destinations, at: index)) else { return nil }
                    keys.append(destinationKey)
                }
                object.relationships[relationship.name] = keys
            }
        }
        return object
    }

    // MARK: Reading objects

    /// The fields of the archived object a UID object points at (one with a `$class` key), or nil.
    private mutating func objectFields(_ object: Int) -> Fields? {
        guard case .uid(let uid) = archive.value(ofObject: object), case .dictionary(let entry)? = archive.entry(uid) else { return nil }
        let found = fields(of: entry)
        return found.classReference == nil ? nil : found
    }

    private mutating func fields(of dictionary: FlatKeyedArchive.Elements) -> Fields {
        var found = Fields()
        for index in 0..<dictionary.count {
            let value = archive.value(dictionary, at: index)
            switch field(archive.key(dictionary, at: index)) {
            case .other: break
            case .classReference: found.classReference = value
            case .className: found.className = value
            case .entityName: found.entityName = value
            case .primaryKey: found.primaryKey = value
            case .attributeValues: found.attributeValues = value
            case .relatedNodes: found.relatedNodes = value
            case .keys: found.keys = value
            case .objects: found.objects = value
            case .time: found.time = value
            }
        }
        return found
    }

    private mutating func field(_ keyObject: Int) -> Field {
        if let known = Field(rawValue: fieldNames[keyObject]) { return known }
        let field: Field
        // Compared as Swift strings, as the property-list reader's dictionaries compare keys.
        switch archive.string(keyObject) {
        case "$class": field = .classReference
        case "$classname": field = .className
        case "NSEntityName": field = .entityName
        case "NSPrimaryKey64": field = .primaryKey
        case "NSAttributeValues": field = .attributeValues
        case "NSRelatedNodes": field = .relatedNodes
        case "NS.keys": field = .keys
        case "NS.objects": field = .objects
        case "NS.time": field = .time
        default: field = .other
        }
        fieldNames[keyObject] = field.rawValue
        return field
    }

    /// The class an object's `$class` UID names, or nil when `$class` is not a UID to a class description.
    private mutating func className(_ fields: Fields) -> ClassKind? {
        guard let reference = fields.classReference, case .uid(let uid) = archive.value(ofObject: reference),
              uid < UInt64(archive.count) else { return nil }
        if let known = ClassKind(rawValue: classKinds[Int(uid)]) { return known == .unnamed ? nil : known }
        var kind = ClassKind.unnamed
        if case .dictionary(let description)? = archive.entry(uid), let nameObject = self.fields(of: description).className,
           case .string(let name) = archive.value(ofObject: nameObject) {
            switch archive.string(name) {
            case "NSDictionaryMapNode": kind = .mapNode
            case "NSArray", "NSMutableArray": kind = .array
            case "NSDictionary", "NSMutableDictionary": kind = .dictionary
            case "NSNull": kind = .null
            case "NSDate": kind = .date
            default: kind = .other
            }
        }
        classKinds[Int(uid)] = kind.rawValue
        return kind == .unnamed ? nil : kind
    }

    private mutating func isArray(_ fields: Fields) -> Bool { className(fields) == .array }
    private mutating func isDictionary(_ fields: Fields) -> Bool { className(fields) == .dictionary }

    /// An inline array field's elements.
    private func array(_ object: Int?) -> FlatKeyedArchive.Elements? {
        guard let object, case .array(let elements) = archive.value(ofObject: object) else { return nil }
        return elements
    }

    /// The string a UID object points at (not `$null`, not an archived object), or nil.
    private mutating func string(_ object: Int) -> String? {
        guard case .uid(let uid) = archive.value(ofObject: object), uid > 0, case .string(let text)? = archive.entry(uid) else { return nil }
        if let known = names[text] { return known }
        let name = archive.string(text)
        names[text] = name
        return name
    }

    /// The plan of the entity named by the string a UID object points at.
    private mutating func plan(named object: Int) -> StoreFileSchema.EntityPlan? {
        guard case .uid(let uid) = archive.value(ofObject: object), uid > 0, case .string(let text)? = archive.entry(uid) else { return nil }
        if let known = plans[text] { return known }
        guard let entity = schema.entity(named: archive.string(text)) else { return nil }
        let plan = schema.plan(for: entity)
        plans[text] = plan
        return plan
    }
}
