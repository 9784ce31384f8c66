import Foundation

// Decoding of the Foundation classes, by the keys their `encode(with:)` uses under keyed coding.
extension ArchivedObject {
    /// The key where Apple's `NSKnownKeysDictionary1` marks unused value slots.
    static let knownKeysEmptyTokenKey = "emptyToken"

    /// Whether this is an array, set or ordered set (mutable or not) that `elements()` can decode.
    public var isCollection: Bool {
        isKind(of: "NSArray") || isKind(of: "NSSet") || isKind(of: "NSOrderedSet")
    }

    /// The elements of an `NSArray`, `NSSet`, `NSOrderedSet` or a mutable subclass, in archive order: from
    /// `NS.objects`, or from `NS.object.0`, `NS.object.1`, … (the form swift-corelibs-foundation writes for
    /// ordered sets).
    public func elements() throws -> [ArchivedValue] {
        guard isCollection else { throw classError(expected: "an NSArray, NSSet or NSOrderedSet") }
        if let objects = try value(forKey: "NS.objects") {
            guard case .array(let elements) = objects else { throw fieldError("NS.objects", objects, expected: "an array") }
            return elements
        }
        return try numberedValues(prefix: "NS.object.")
    }

    /// The references of `elements()`, for collections of objects; throws if an element is a plain value.
    public func elementObjects() throws -> [ArchivedObject] {
        try elements().map { element in
            guard case .object(let reference) = element else {
                throw fieldError("NS.objects", element, expected: "an object")
            }
            return try archive.object(reference)
        }
    }

    /// The entries of an `NSDictionary` or `NSMutableDictionary` (`NS.keys` with `NS.objects`, or numbered
    /// `NS.key.N`/`NS.object.N`), or of Core Data's `NSKnownKeysDictionary1` (keys in `searchMapping` → an
    /// `NSKnownKeysMappingStrategy1` whose `keys` is an array, values in `values`; slots holding `emptyToken`
    /// are skipped). Entries keep archive order.
    public func dictionaryEntries() throws -> [(key: ArchivedValue, value: ArchivedValue)] {
        if className == "NSKnownKeysDictionary1" { return try knownKeysDictionaryEntries() }
        guard isKind(of: "NSDictionary") else { throw classError(expected: "an NSDictionary") }
        let keys: [ArchivedValue]
        let values: [ArchivedValue]
        if contains(key: "NS.keys") || contains(key: "NS.objects") {
            keys = try inlineArray(forKey: "NS.keys")
            values = try inlineArray(forKey: "NS.objects")
        } else {
            keys = try numberedValues(prefix: "NS.key.")
            values = try numberedValues(prefix: "NS.object.")
        }
        guard keys.count == values.count else {
            throw PropertyListError(reason: "\(className) \(reference) has \(keys.count) keys but \(values.count) values")
        }
        return Array(zip(keys, values)).map { (key: $0.0, value: $0.1) }
    }

    /// The entries of a dictionary whose keys are all strings (see `dictionaryEntries()`).
    public func stringKeyedEntries() throws -> [String: ArchivedValue] {
        var result: [String: ArchivedValue] = [:]
        for (key, value) in try dictionaryEntries() {
            result[try stringValue(of: key, role: "dictionary key")] = value
        }
        return result
    }

    /// The text of an `NSString` or `NSMutableString` object (`NS.string`, or UTF-8 `NS.bytes`).
    public func stringValue() throws -> String {
        guard isKind(of: "NSString") else { throw classError(expected: "an NSString") }
        if let string = try value(forKey: "NS.string") {
            // Only a plain string: following an object here could loop through hostile self-references.
            guard case .string(let text) = string else { throw fieldError("NS.string", string, expected: "a string") }
            return text
        }
        if let bytes = try value(forKey: "NS.bytes"), case .data(let data) = bytes {
            guard let string = String(data: data, encoding: .utf8) else {
                throw PropertyListError(reason: "\(className) \(reference) NS.bytes is not UTF-8")
            }
            return string
        }
        throw PropertyListError(reason: "\(className) \(reference) has neither NS.string nor NS.bytes")
    }

    /// The bytes of an `NSData` or `NSMutableData` object (`NS.data` or `NS.bytes`).
    public func dataValue() throws -> Data {
        guard isKind(of: "NSData") else { throw classError(expected: "an NSData") }
        for key in ["NS.data", "NS.bytes"] {
            guard let value = try value(forKey: key) else { continue }
            guard case .data(let data) = value else { throw fieldError(key, value, expected: "data") }
            return data
        }
        throw PropertyListError(reason: "\(className) \(reference) has neither NS.data nor NS.bytes")
    }

    /// The instant of an `NSDate` object (`NS.time`, seconds since 2001-01-01).
    public func dateValue() throws -> Date {
        guard isKind(of: "NSDate") else { throw classError(expected: "an NSDate") }
        guard let seconds = try double(forKey: "NS.time") else {
            throw PropertyListError(reason: "\(className) \(reference) has no NS.time")
        }
        return Date(timeIntervalSinceReferenceDate: seconds)
    }

    /// The UUID of an `NSUUID` object (`NS.uuidbytes`, 16 bytes in RFC 4122 order).
    public func uuidValue() throws -> UUID {
        guard isKind(of: "NSUUID") else { throw classError(expected: "an NSUUID") }
        guard case .data(let bytes)? = try value(forKey: "NS.uuidbytes"), bytes.count == 16 else {
            throw PropertyListError(reason: "\(className) \(reference) has no 16-byte NS.uuidbytes")
        }
        let raw = Array(bytes)
        return UUID(uuid: (raw[0], raw[1], raw[2], raw[3], raw[4], raw[5], raw[6], raw[7],
                           raw[8], raw[9], raw[10], raw[11], raw[12], raw[13], raw[14], raw[15]))
    }

    /// The URL of an `NSURL` object: `NS.relative` resolved against the optional `NS.base` URL. Base chains are
    /// followed at most 16 levels, which also stops a URL that is its own base.
    public func urlValue() throws -> URL {
        try urlValue(remainingBaseLevels: 16)
    }

    private func urlValue(remainingBaseLevels: Int) throws -> URL {
        guard isKind(of: "NSURL") else { throw classError(expected: "an NSURL") }
        guard let relative = try string(forKey: "NS.relative") else {
            throw PropertyListError(reason: "\(className) \(reference) has no NS.relative")
        }
        var base: URL?
        if let baseObject = try object(forKey: "NS.base") {
            guard remainingBaseLevels > 0 else {
                throw PropertyListError(reason: "\(className) \(reference) has NS.base URLs nested too deeply")
            }
            base = try baseObject.urlValue(remainingBaseLevels: remainingBaseLevels - 1)
        }
        guard let url = URL(string: relative, relativeTo: base) else {
            throw PropertyListError(reason: "\(className) \(reference) NS.relative \"\(relative)\" is not a URL")
        }
        return url
    }

    // MARK: Helpers

    private func knownKeysDictionaryEntries() throws -> [(key: ArchivedValue, value: ArchivedValue)] {
        guard let mapping = try object(forKey: "searchMapping") else {
            throw PropertyListError(reason: "\(className) \(reference) has no searchMapping")
        }
        let keys = try mapping.arrayOrCollection(forKey: "keys")
        let values = try arrayOrCollection(forKey: "values")
        // `values` may have spare slots; slots beyond the keys, and slots holding the empty token, are unused.
        guard values.count >= keys.count else {
            throw PropertyListError(reason: "\(className) \(reference) has \(keys.count) keys but \(values.count) values")
        }
        let emptyToken = try value(forKey: Self.knownKeysEmptyTokenKey)
        return zip(keys, values).compactMap { key, value in
            if let emptyToken, !emptyToken.isNull, value == emptyToken { return nil }
            return (key: key, value: value)
        }
    }

    /// A field that holds either an inline array or a reference to an array object.
    private func arrayOrCollection(forKey key: String) throws -> [ArchivedValue] {
        guard let value = try value(forKey: key) else {
            throw PropertyListError(reason: "\(className) \(reference) has no \(key)")
        }
        switch value {
        case .array(let elements): return elements
        case .object(let reference): return try archive.object(reference).elements()
        default: throw fieldError(key, value, expected: "an array")
        }
    }

    private func inlineArray(forKey key: String) throws -> [ArchivedValue] {
        guard let value = try value(forKey: key) else { return [] }
        guard case .array(let elements) = value else { throw fieldError(key, value, expected: "an array") }
        return elements
    }

    /// `prefix0`, `prefix1`, … until the first missing number.
    private func numberedValues(prefix: String) throws -> [ArchivedValue] {
        var values: [ArchivedValue] = []
        while let value = try value(forKey: "\(prefix)\(values.count)") { values.append(value) }
        return values
    }

    private func stringValue(of value: ArchivedValue, role: String) throws -> String {
        switch value {
        case .string(let string): return string
        case .object(let reference): return try archive.object(reference).stringValue()
        default: throw PropertyListError(reason: "\(className) \(reference) \(role) is \(value.typeName), not a string")
        }
    }

    private func classError(expected: String) -> PropertyListError {
        PropertyListError(reason: "object \(reference) is an \(className), not \(expected)")
    }
}
