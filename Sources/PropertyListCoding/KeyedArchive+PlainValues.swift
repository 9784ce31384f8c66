import Foundation

extension KeyedArchive {
    /// The deepest object nesting `plainValue(of:)` follows.
    public static let maximumPlainValueDepth = 256

    /// The root object (or any value) of an archive of plain Foundation objects, as a property-list tree:
    /// strings, numbers and data as themselves, `NSString`/`NSData`/`NSDate` objects as `.string`/`.data`/`.date`,
    /// arrays, sets and ordered sets as `.array`, string-keyed dictionaries as `.dictionary`, and `NSNull` and
    /// `$null` as `.null`. Throws for other classes, for non-string dictionary keys, and for cycles.
    public func plainValue(of value: ArchivedValue) throws -> PropertyListValue {
        var inProgress: Set<ArchivedObjectReference> = []
        return try plainValue(of: value, inProgress: &inProgress, depth: 0)
    }

    /// `plainValue(of:)` applied to the value under `key` in `$top`.
    public func plainTopValue(forKey key: String = "root") throws -> PropertyListValue {
        try plainValue(of: topValue(forKey: key))
    }

    private func plainValue(
        of value: ArchivedValue, inProgress: inout Set<ArchivedObjectReference>, depth: Int
    ) throws -> PropertyListValue {
        guard depth <= Self.maximumPlainValueDepth else {
            throw PropertyListError(reason: "objects nested deeper than \(Self.maximumPlainValueDepth) levels")
        }
        switch value {
        case .null: return .null
        case .string(let string): return .string(string)
        case .integer(let integer): return .integer(integer)
        case .unsignedInteger(let integer): return .unsignedInteger(integer)
        case .real(let real): return .real(real)
        case .bool(let flag): return .bool(flag)
        case .date(let date): return .date(date)
        case .data(let data): return .data(data)
        case .array(let elements):
            return .array(try elements.map { try plainValue(of: $0, inProgress: &inProgress, depth: depth + 1) })
        case .dictionary(let entries):
            return .dictionary(try entries.mapValues { try plainValue(of: $0, inProgress: &inProgress, depth: depth + 1) })
        case .object(let reference):
            guard inProgress.insert(reference).inserted else {
                throw PropertyListError(reason: "object \(reference) contains itself")
            }
            defer { inProgress.remove(reference) }
            return try plainValue(of: object(reference), inProgress: &inProgress, depth: depth)
        }
    }

    private func plainValue(
        of object: ArchivedObject, inProgress: inout Set<ArchivedObjectReference>, depth: Int
    ) throws -> PropertyListValue {
        if object.isCollection {
            return .array(try object.elements().map { try plainValue(of: $0, inProgress: &inProgress, depth: depth + 1) })
        }
        if object.isKind(of: "NSDictionary") {
            var entries: [String: PropertyListValue] = [:]
            for (key, value) in try object.dictionaryEntries() {
                guard case .string(let keyString) = try plainValue(of: key, inProgress: &inProgress, depth: depth + 1) else {
                    throw PropertyListError(reason: "\(object.className) \(object.reference) has a key that is not a string")
                }
                entries[keyString] = try plainValue(of: value, inProgress: &inProgress, depth: depth + 1)
            }
            return .dictionary(entries)
        }
        if object.isKind(of: "NSString") { return .string(try object.stringValue()) }
        if object.isKind(of: "NSData") { return .data(try object.dataValue()) }
        if object.isKind(of: "NSDate") { return .date(try object.dateValue()) }
        if object.isKind(of: "NSNull") { return .null }
        throw PropertyListError(reason: "\(object.className) \(object.reference) has no plain property-list form")
    }
}
