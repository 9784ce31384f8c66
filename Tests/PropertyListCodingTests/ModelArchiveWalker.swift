import PropertyListCoding

/// Walks a Core Data model archive (compiled `.mom` or `Z_MODELCACHE`) through the `KeyedArchive` API, the way
/// the model layer will: root model → `NSEntities` → entities → `NSProperties` → attributes and relationships.
struct ModelArchiveWalker {
    let archive: KeyedArchive
    let model: ArchivedObject
    /// Entity name → entity object, from the model's `NSEntities` dictionary.
    private(set) var entities: [String: ArchivedObject] = [:]
    /// Class name → the union of the field names its objects carry.
    private(set) var keysByClass: [String: Set<String>] = [:]
    /// The class of the model's `NSEntities` dictionary (`NSMutableDictionary` or `NSKnownKeysDictionary1`).
    let entitiesDictionaryClass: String

    init(_ archive: KeyedArchive) throws {
        self.archive = archive
        model = try archive.topObject(forKey: "root")
        let entitiesDictionary = try model.object(forKey: "NSEntities").orThrow("model has no NSEntities")
        entitiesDictionaryClass = entitiesDictionary.className
        record(model)
        record(entitiesDictionary)
        if entitiesDictionary.className == "NSKnownKeysDictionary1",
           let mapping = try entitiesDictionary.object(forKey: "searchMapping") {
            record(mapping)
        }
        for (key, value) in try entitiesDictionary.stringKeyedEntries() {
            let reference = try value.objectReference.orThrow("entity \(key) is not an object")
            let entity = try archive.object(reference)
            entities[key] = entity
            record(entity)
            if let propertiesDictionary = try entity.object(forKey: "NSProperties") { record(propertiesDictionary) }
            for property in try properties(of: entity).values { record(property) }
        }
    }

    /// The entity's `NSProperties`, by name.
    func properties(of entity: ArchivedObject) throws -> [String: ArchivedObject] {
        guard let dictionary = try entity.object(forKey: "NSProperties") else { return [:] }
        return try dictionary.stringKeyedEntries().mapValues { value in
            try archive.object(value.objectReference.orThrow("property is not an object"))
        }
    }

    private mutating func record(_ object: ArchivedObject) {
        keysByClass[object.className, default: []].formUnion(object.keys)
    }
}

struct WalkFailure: Error, CustomStringConvertible {
    let description: String
}

extension Optional {
    func orThrow(_ message: String) throws -> Wrapped {
        guard let self else { throw WalkFailure(description: message) }
        return self
    }
}
