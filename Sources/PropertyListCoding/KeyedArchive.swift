import Foundation

/// An `NSKeyedArchiver` archive (`$archiver`, `$version`, `$top`, `$objects`) opened for navigation.
///
/// The archive is not turned into a tree, because Core Data's model archives are cyclic (an entity refers to its
/// model, which refers to its entities). Instead `topObject(forKey:)` and `object(_:)` give `ArchivedObject`s
/// whose fields resolve UIDs one step; the Foundation collection classes have decoding helpers on
/// `ArchivedObject`, and `plainValue(of:)` converts an acyclic graph of Foundation objects into a
/// `PropertyListValue`.
public struct KeyedArchive: Sendable {
    /// The archive's `$objects`: entry 0 is `$null`, class descriptions and objects follow.
    public let objects: [PropertyListValue]
    /// The archive's `$top`: top-level keys (usually `root`) and their UIDs.
    public let top: [String: PropertyListValue]
    /// The archiver name, `NSKeyedArchiver` in every archive Apple writes.
    public let archiverName: String
    /// The archive version, 100000 in every archive Apple writes.
    public let version: Int64

    /// Opens the keyed archive in a binary or XML property list.
    public init(data: Data) throws {
        try self.init(plist: PropertyList.read(data))
    }

    /// Opens the keyed archive in a binary or XML property list.
    public init(bytes: [UInt8]) throws {
        try self.init(plist: PropertyList.read(bytes))
    }

    /// Opens the keyed archive held by an already-decoded property list; checks its four top-level keys.
    public init(plist: PropertyListValue) throws {
        guard case .dictionary(let root) = plist else {
            throw PropertyListError(reason: "a keyed archive is a dictionary, not a \(plist.typeName)")
        }
        guard case .array(let objects)? = root["$objects"] else {
            throw PropertyListError(reason: "keyed archive has no $objects array")
        }
        guard case .dictionary(let top)? = root["$top"] else {
            throw PropertyListError(reason: "keyed archive has no $top dictionary")
        }
        guard case .string(let archiverName)? = root["$archiver"] else {
            throw PropertyListError(reason: "keyed archive has no $archiver name")
        }
        guard let version = root["$version"]?.int64Value else {
            throw PropertyListError(reason: "keyed archive has no integer $version")
        }
        self.objects = objects
        self.top = top
        self.archiverName = archiverName
        self.version = version
    }

    /// The keys of `$top`, sorted.
    public var topKeys: [String] { top.keys.sorted() }

    /// The value stored under `key` in `$top`, resolved one step.
    public func topValue(forKey key: String = "root") throws -> ArchivedValue {
        guard let raw = top[key] else {
            throw PropertyListError(reason: "keyed archive has no top-level key \"\(key)\"")
        }
        return try resolve(raw)
    }

    /// The object stored under `key` in `$top` (`root` for `NSKeyedArchiver.archivedData(withRootObject:)`).
    /// Throws when the key is absent or holds a plain value.
    public func topObject(forKey key: String = "root") throws -> ArchivedObject {
        let value = try topValue(forKey: key)
        guard case .object(let reference) = value else {
            throw PropertyListError(reason: "top-level key \"\(key)\" holds a \(value.typeName), not an object")
        }
        return try object(reference)
    }

    /// The object at `reference`. Throws when the index is out of range or the entry has no valid `$class`.
    public func object(_ reference: ArchivedObjectReference) throws -> ArchivedObject {
        try ArchivedObject(archive: self, reference: reference)
    }

    /// Every object whose class is `className` (exactly, not subclasses), in `$objects` order. Entries without a
    /// `$class` (strings, numbers, class descriptions) are skipped; an entry whose `$class` is broken throws.
    public func objects(ofClass className: String) throws -> [ArchivedObject] {
        var found: [ArchivedObject] = []
        for (index, entry) in objects.enumerated() where entry["$class"] != nil {
            let object = try object(ArchivedObjectReference(index: index))
            if object.className == className { found.append(object) }
        }
        return found
    }

    /// The `$objects` entry at `reference`, unresolved.
    public func rawObject(_ reference: ArchivedObjectReference) throws -> PropertyListValue {
        guard objects.indices.contains(reference.index) else {
            throw PropertyListError(reason: "UID \(reference.index) is outside $objects (\(objects.count) entries)")
        }
        return objects[reference.index]
    }

    /// Resolves `raw` (a field value or `$top` entry) one step: UIDs become the string, number or data they point
    /// at, `.null` for `$null`, or `.object` for archived objects; inline arrays and dictionaries resolve each
    /// element the same way.
    public func resolve(_ raw: PropertyListValue) throws -> ArchivedValue {
        switch raw {
        case .uid(let uid):
            guard uid < UInt64(objects.count) else {
                throw PropertyListError(reason: "UID \(uid) is outside $objects (\(objects.count) entries)")
            }
            let index = Int(uid)
            let target = objects[index]
            switch target {
            case .string("$null") where index == 0: return .null
            case .dictionary: return .object(ArchivedObjectReference(index: index))
            case .uid, .array:
                throw PropertyListError(reason: "UID \(uid) points at a bare \(target.typeName), not an object or value")
            default: return try resolve(target)
            }
        case .null: return .null
        case .string(let string): return .string(string)
        case .integer(let integer): return .integer(integer)
        case .unsignedInteger(let integer): return .unsignedInteger(integer)
        case .real(let real): return .real(real)
        case .bool(let flag): return .bool(flag)
        case .date(let date): return .date(date)
        case .data(let data): return .data(data)
        case .array(let elements): return .array(try elements.map(resolveInlineElement))
        case .dictionary(let entries): return .dictionary(try entries.mapValues(resolveInlineElement))
        }
    }

    /// Inline collections hold UIDs and scalars; nested inline collections would allow unbounded recursion
    /// through hostile input, and archivers never write them.
    private func resolveInlineElement(_ raw: PropertyListValue) throws -> ArchivedValue {
        switch raw {
        case .array, .dictionary:
            throw PropertyListError(reason: "inline \(raw.typeName) nested in an inline collection")
        default:
            return try resolve(raw)
        }
    }
}
