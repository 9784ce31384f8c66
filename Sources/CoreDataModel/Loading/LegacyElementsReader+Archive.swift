import Foundation
import PropertyListCoding

/// How Xcode 3 lays its model objects out in the `elements` archive.
///
/// Xcode 3's modeller is a UML editor: an entity is a UML class and a property a UML property, each held in a
/// "bucket" field pair (`XDBucketFor<Name>storage` with the collection, `XDBucketFor<Name>ordered` and
/// `…wasEncoded` describing it). The Core Data settings are not fields of those objects but *stereotypes*: each
/// element's `XDBucketForStereotypesstorage` maps a stereotype name (`XD_PStereotype`, `XD_PPropStereotype`,
/// `XD_PAtt_Stereotype`, …) to a stereotype object whose own `XDBucketForOwnedAttributesstorage` maps a setting
/// key (`XD_PSK_isAbstract`, `XD_PPSK_isOptional`, …) to an `XDUMLPropertyImp` holding the value in `_default`.
struct LegacyElementsArchive {
    let file: String
    let archive: KeyedArchive

    /// Collections are walked at most this deep when turning user info values into text, and packages at most
    /// this deep when looking for entities: hostile archives may nest or loop.
    static let maximumNesting = 16

    // MARK: Xcode classes

    /// Whether `object` is the Xcode 3 modeller class with this role: `XDPM<role>` (the persistence model
    /// classes) or `XDDev<role>` (their subclasses in Xcode's developer-tools layer).
    func isXcodeClass(_ object: ArchivedObject, _ role: String) -> Bool {
        object.isKind(of: "XDPM" + role) || object.isKind(of: "XDDev" + role)
    }

    /// The UML element name (`_name`), required for entities and properties.
    func elementName(_ object: ArchivedObject, role: String) throws -> String {
        guard let name = try object.string(forKey: "_name"), !name.isEmpty else {
            throw ModelError(file: file, reason: "\(role) \(object.reference) (\(object.className)) has no name")
        }
        return name
    }

    // MARK: Buckets

    /// The objects held by the bucket `name` of `object` (a dictionary's values in archive order, or a
    /// collection's elements); empty when the bucket is absent or `$null`. Plain values in a bucket are skipped:
    /// buckets hold model elements only.
    func bucketObjects(of object: ArchivedObject, _ name: String) throws -> [ArchivedObject] {
        guard let storage = try object.object(forKey: "XDBucketFor\(name)storage") else { return [] }
        let values: [ArchivedValue]
        if storage.isKind(of: "NSDictionary") {
            values = try storage.dictionaryEntries().map(\.value)
        } else if storage.isCollection {
            values = try storage.elements()
        } else {
            throw ModelError(file: file, reason: "bucket \(name) of \(object.className) \(object.reference) is an "
                             + "\(storage.className), not a dictionary or collection")
        }
        return try values.compactMap { value in try value.objectReference.map { try archive.object($0) } }
    }

    /// The names of every bucket of `object` (from its `XDBucketFor<Name>storage` fields).
    func bucketNames(of object: ArchivedObject) -> [String] {
        object.keys.compactMap { key in
            guard key.hasPrefix("XDBucketFor"), key.hasSuffix("storage") else { return nil }
            return String(key.dropFirst("XDBucketFor".count).dropLast("storage".count))
        }
    }

    // MARK: Stereotype settings

    /// Every Core Data setting of `element`, merged across its stereotypes: setting key → the `_default` value.
    ///
    /// The stereotypes are merged rather than looked up by name because their keys carry their own prefix
    /// (`XD_PSK_`, `XD_PPSK_`, `XD_PAttK_`, `XD_PRK_`), so a setting is found whatever stereotype holds it.
    func settings(of element: ArchivedObject) throws -> LegacyElementSettings {
        var values: [String: ArchivedValue] = [:]
        for stereotype in try bucketObjects(of: element, "Stereotypes") {
            guard let attributes = try stereotype.object(forKey: "XDBucketForOwnedAttributesstorage") else { continue }
            guard attributes.isKind(of: "NSDictionary") else {
                throw ModelError(file: file, reason: "stereotype \(stereotype.reference) of \(element.className) "
                                 + "\(element.reference) holds its settings in an \(attributes.className), not a dictionary")
            }
            for (key, value) in try attributes.dictionaryEntries() {
                guard case .object(let reference) = value else { continue }
                let setting = try archive.object(reference)
                // The key of the dictionary and the setting's `_name` agree; the key is what Xcode looks up.
                guard let name = try keyText(key) else { continue }
                values[name] = try setting.value(forKey: "_default") ?? .null
            }
        }
        return LegacyElementSettings(file: file, archive: archive, owner: element, values: values)
    }

    private func keyText(_ key: ArchivedValue) throws -> String? {
        switch key {
        case .string(let text): return text
        case .object(let reference):
            let object = try archive.object(reference)
            return object.isKind(of: "NSString") ? try object.stringValue() : nil
        default: return nil
        }
    }
}

/// The Core Data settings of one Xcode 3 model element, typed on access; every mismatch names the element.
struct LegacyElementSettings {
    let file: String
    let archive: KeyedArchive
    let owner: ArchivedObject
    let values: [String: ArchivedValue]

    /// Whether the archive holds a value (not `$null`) for `key`.
    func contains(_ key: String) -> Bool {
        guard let value = values[key] else { return false }
        return !value.isNull
    }

    /// The raw value, nil when absent or `$null`.
    func value(_ key: String) -> ArchivedValue? {
        guard let value = values[key], !value.isNull else { return nil }
        return value
    }

    /// A string setting; nil when absent, `$null` or empty (Xcode 3 writes empty strings for blank fields).
    func string(_ key: String) throws -> String? {
        guard let value = value(key) else { return nil }
        let text: String
        switch value {
        case .string(let string): text = string
        case .object(let reference):
            let object = try archive.object(reference)
            guard object.isKind(of: "NSString") else { throw mismatch(key, value, expected: "a string") }
            text = try object.stringValue()
        default: throw mismatch(key, value, expected: "a string")
        }
        return text.isEmpty ? nil : text
    }

    /// A boolean setting (`YES`/`NO` strings and numbers are accepted too); nil when absent.
    func bool(_ key: String) throws -> Bool? {
        guard let value = value(key) else { return nil }
        if let flag = value.boolValue { return flag }
        if let number = value.int64Value { return number != 0 }
        if case .string(let text) = value {
            switch text.uppercased() {
            case "YES", "TRUE", "1": return true
            case "NO", "FALSE", "0", "": return false
            default: break
            }
        }
        throw mismatch(key, value, expected: "a boolean")
    }

    /// An integer setting (decimal strings are accepted too); nil when absent.
    func integer(_ key: String) throws -> Int? {
        guard let value = value(key) else { return nil }
        if let number = value.intValue { return number }
        if let flag = value.boolValue { return flag ? 1 : 0 }
        if case .string(let text) = value, let number = Int(text.trimmingCharacters(in: .whitespaces)) { return number }
        throw mismatch(key, value, expected: "an integer")
    }

    /// The object a setting refers to; nil when absent or a plain value.
    func object(_ key: String) throws -> ArchivedObject? {
        guard let reference = value(key)?.objectReference else { return nil }
        return try archive.object(reference)
    }

    /// A user info dictionary setting as `[String: String]`; non-string values become their property-list text
    /// (arrays as `(a, b)`, dictionaries as `{key = value; }`), since model user info is text everywhere else.
    func userInfo(_ key: String) throws -> [String: String] {
        guard let dictionary = try object(key) else { return [:] }
        guard dictionary.isKind(of: "NSDictionary") else {
            throw mismatch(key, .object(dictionary.reference), expected: "a dictionary")
        }
        var result: [String: String] = [:]
        for (entryKey, entryValue) in try dictionary.dictionaryEntries() {
            result[try text(entryKey, depth: 0)] = try text(entryValue, depth: 0)
        }
        return result
    }

    private func text(_ value: ArchivedValue, depth: Int) throws -> String {
        guard depth < LegacyElementsArchive.maximumNesting else {
            throw ModelError(file: file, reason: "user info of \(owner.className) \(owner.reference) nests too deeply")
        }
        switch value {
        case .null: return ""
        case .string(let string): return string
        case .integer(let number): return String(number)
        case .unsignedInteger(let number): return String(number)
        case .real(let number): return String(number)
        case .bool(let flag): return flag ? "YES" : "NO"
        case .date(let date): return ISO8601DateFormatter().string(from: date)
        case .data(let data): return "<\(data.map { String(format: "%02x", $0) }.joined())>"
        case .array(let elements):
            return "(" + (try elements.map { try text($0, depth: depth + 1) }).joined(separator: ", ") + ")"
        case .dictionary(let entries):
            let inner = try entries.sorted { $0.key < $1.key }.map { "\($0.key) = \(try text($0.value, depth: depth + 1)); " }
            return "{" + inner.joined() + "}"
        case .object(let reference):
            let object = try archive.object(reference)
            if object.isKind(of: "NSString") { return try object.stringValue() }
            if object.isCollection { return try text(.array(object.elements()), depth: depth + 1) }
            if object.isKind(of: "NSDictionary") {
                let entries = try object.dictionaryEntries().map { entry in
                    "\(try text(entry.key, depth: depth + 1)) = \(try text(entry.value, depth: depth + 1)); "
                }
                return "{" + entries.joined() + "}"
            }
            return object.className
        }
    }

    private func mismatch(_ key: String, _ value: ArchivedValue, expected: String) -> ModelError {
        let name = (try? owner.string(forKey: "_name")).flatMap { $0 } ?? owner.reference.description
        return ModelError(file: file, reason: "\(key) of \(name) (\(owner.className)) holds \(value.typeName), not \(expected)")
    }
}
