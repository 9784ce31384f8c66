import Foundation

/// Builds `NSKeyedArchiver` archives: the `$objects` graph, its class descriptions and `$top`.
///
/// Plain Foundation values (`add(_:)` with a `PropertyListValue` tree) come out the way Foundation's
/// `NSKeyedArchiver` writes them, so `NSKeyedUnarchiver` reads them back. Custom objects, including cyclic
/// graphs such as Core Data models, are built with `reserveObject()` and `defineObject(_:className:fields:)`:
/// fields hold plain values inline and references as `reference.uid`.
public struct KeyedArchiveBuilder: Sendable {
    /// The `$version` Apple writes.
    public static let archiveVersion: Int64 = 100_000

    /// `$objects`; nil marks an object that was reserved but not yet defined.
    private var objects: [PropertyListValue?] = [.string("$null")]
    private var classReferences: [String: ArchivedObjectReference] = [:]
    private var plainValueReferences: [LeafIdentity: ArchivedObjectReference] = [:]
    private var top: [String: PropertyListValue] = [:]

    /// The reference archivers write for `nil`: `$objects[0]`, the `$null` placeholder.
    public static let nullReference = ArchivedObjectReference(index: 0)

    /// An empty archive.
    public init() {}

    // MARK: Objects

    /// A new object slot to fill later with `defineObject`, so that objects can refer to each other in cycles.
    public mutating func reserveObject() -> ArchivedObjectReference {
        objects.append(nil)
        return ArchivedObjectReference(index: objects.count - 1)
    }

    /// Fills a reserved slot with an object of `className`. `classHierarchy` defaults to the Foundation class list
    /// (or `[className, "NSObject"]`). Field values are stored as given: use `reference.uid` for references.
    public mutating func defineObject(
        _ reference: ArchivedObjectReference, className: String, classHierarchy: [String]? = nil,
        fields: [String: PropertyListValue]
    ) throws {
        guard objects.indices.contains(reference.index), objects[reference.index] == nil else {
            throw PropertyListError(reason: "object \(reference) was not reserved or is already defined")
        }
        guard fields["$class"] == nil else {
            throw PropertyListError(reason: "object \(reference) fields may not contain $class")
        }
        var entry = fields
        entry["$class"] = classReference(className, hierarchy: classHierarchy).uid
        objects[reference.index] = .dictionary(entry)
    }

    /// A new object of `className` with `fields` (see `defineObject`).
    public mutating func addObject(
        className: String, classHierarchy: [String]? = nil, fields: [String: PropertyListValue]
    ) -> ArchivedObjectReference {
        let reference = reserveObject()
        var entry = fields
        entry["$class"] = classReference(className, hierarchy: classHierarchy).uid
        objects[reference.index] = .dictionary(entry)
        return reference
    }

    /// A plain string, number, boolean or data value stored directly in `$objects`, as archivers store `NSString`,
    /// `NSNumber` and `NSData`. Equal values share one entry. Throws for collections, dates, UIDs and null.
    public mutating func addPlainValue(_ value: PropertyListValue) throws -> ArchivedObjectReference {
        switch value {
        case .string, .integer, .unsignedInteger, .real, .bool, .data: break
        default: throw PropertyListError(reason: "a \(value.typeName) cannot be stored directly in $objects")
        }
        return storePlainValue(value)
    }

    /// A string stored directly in `$objects`.
    public mutating func addString(_ string: String) -> ArchivedObjectReference {
        storePlainValue(.string(string))
    }

    private mutating func storePlainValue(_ value: PropertyListValue) -> ArchivedObjectReference {
        let identity = LeafIdentity(value)
        if let existing = plainValueReferences[identity] { return existing }
        objects.append(value)
        let reference = ArchivedObjectReference(index: objects.count - 1)
        plainValueReferences[identity] = reference
        return reference
    }

    /// An `NSArray` (or `className`: `NSMutableArray`, `NSSet`, `NSOrderedSet`, …) holding `elements` in
    /// `NS.objects`.
    public mutating func addArray(
        _ elements: [ArchivedObjectReference], className: String = "NSArray"
    ) -> ArchivedObjectReference {
        addObject(className: className, fields: ["NS.objects": .array(elements.map(\.uid))])
    }

    /// An `NSDictionary` (or `className`) holding `keys` in `NS.keys` and `values` in `NS.objects`.
    public mutating func addDictionary(
        keys: [ArchivedObjectReference], values: [ArchivedObjectReference], className: String = "NSDictionary"
    ) throws -> ArchivedObjectReference {
        guard keys.count == values.count else {
            throw PropertyListError(reason: "dictionary with \(keys.count) keys and \(values.count) values")
        }
        return addObject(className: className, fields: [
            "NS.keys": .array(keys.map(\.uid)), "NS.objects": .array(values.map(\.uid)),
        ])
    }

    /// An `NSDate` object (`NS.time`).
    public mutating func addDate(_ date: Date) -> ArchivedObjectReference {
        addObject(className: "NSDate", fields: ["NS.time": .real(date.timeIntervalSinceReferenceDate)])
    }

    /// An `NSUUID` object (`NS.uuidbytes`).
    public mutating func addUUID(_ uuid: UUID) -> ArchivedObjectReference {
        let bytes = withUnsafeBytes(of: uuid.uuid) { Data($0) }
        return addObject(className: "NSUUID", fields: ["NS.uuidbytes": .data(bytes)])
    }

    /// An `NSURL` object with no base (`NS.base` is `$null`, `NS.relative` the absolute string).
    public mutating func addURL(_ url: URL) -> ArchivedObjectReference {
        let relative = addString(url.absoluteString)
        return addObject(className: "NSURL", fields: ["NS.base": Self.nullReference.uid, "NS.relative": relative.uid])
    }

    /// An `NSNull` object.
    public mutating func addNull() -> ArchivedObjectReference {
        addObject(className: "NSNull", fields: [:])
    }

    /// A whole tree of plain values, archived as Foundation objects: strings, numbers, booleans and data directly,
    /// dates as `NSDate`, arrays as `NSArray`, dictionaries as `NSDictionary` (keys sorted), null as `NSNull`.
    /// Throws for UIDs, which have no Foundation object form.
    public mutating func add(_ value: PropertyListValue) throws -> ArchivedObjectReference {
        switch value {
        case .string, .integer, .unsignedInteger, .real, .bool, .data:
            return try addPlainValue(value)
        case .date(let date):
            return addDate(date)
        case .null:
            return addNull()
        case .uid:
            throw PropertyListError(reason: "a UID has no Foundation object form")
        case .array(let elements):
            // The container is reserved first so that it precedes its elements, as NSKeyedArchiver orders them.
            let reference = reserveObject()
            let elementReferences = try elements.map { try add($0) }
            try defineObject(reference, className: "NSArray", fields: ["NS.objects": .array(elementReferences.map(\.uid))])
            return reference
        case .dictionary(let entries):
            let reference = reserveObject()
            let sorted = entries.sorted { $0.key < $1.key }
            let keys = sorted.map { addString($0.key) }
            let values = try sorted.map { try add($0.value) }
            try defineObject(reference, className: "NSDictionary", fields: [
                "NS.keys": .array(keys.map(\.uid)), "NS.objects": .array(values.map(\.uid)),
            ])
            return reference
        }
    }

    // MARK: Top level and output

    /// Stores `reference` under `key` in `$top` (`root` is what `NSKeyedUnarchiver` decodes by default).
    public mutating func setTopObject(_ reference: ArchivedObjectReference, forKey key: String = "root") {
        top[key] = reference.uid
    }

    /// The archive as a property list. Throws when a reserved object was never defined or a reference points
    /// outside `$objects`.
    public func propertyList() throws -> PropertyListValue {
        var finished: [PropertyListValue] = []
        finished.reserveCapacity(objects.count)
        for (index, object) in objects.enumerated() {
            guard let object else { throw PropertyListError(reason: "object @\(index) was reserved but never defined") }
            try checkReferences(in: object, of: index)
            finished.append(object)
        }
        for (key, value) in top { try checkReferences(in: value, of: nil, topKey: key) }
        return .dictionary([
            "$archiver": "NSKeyedArchiver",
            "$version": .integer(Self.archiveVersion),
            "$top": .dictionary(top),
            "$objects": .array(finished),
        ])
    }

    /// The archive as a binary property list, the form Apple stores in `.mom` files and `Z_MODELCACHE`.
    public func binaryData() throws -> Data {
        BinaryPropertyListWriter().write(try propertyList())
    }

    private mutating func classReference(_ className: String, hierarchy: [String]?) -> ArchivedObjectReference {
        if let existing = classReferences[className] { return existing }
        let classes = hierarchy ?? FoundationClassHierarchy.hierarchy(of: className)
        objects.append(.dictionary(["$classname": .string(className), "$classes": .array(classes.map { .string($0) })]))
        let reference = ArchivedObjectReference(index: objects.count - 1)
        classReferences[className] = reference
        return reference
    }

    private func checkReferences(in value: PropertyListValue, of index: Int?, topKey: String? = nil) throws {
        switch value {
        case .uid(let uid):
            guard uid < UInt64(objects.count) else {
                let owner = index.map { "object @\($0)" } ?? "$top key \(topKey ?? "")"
                throw PropertyListError(reason: "\(owner) refers to @\(uid), beyond the \(objects.count) objects")
            }
        case .array(let elements):
            for element in elements { try checkReferences(in: element, of: index, topKey: topKey) }
        case .dictionary(let entries):
            for entry in entries.values { try checkReferences(in: entry, of: index, topKey: topKey) }
        default:
            break
        }
    }
}
