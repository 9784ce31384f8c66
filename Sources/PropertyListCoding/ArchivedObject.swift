import Foundation

/// One object of a keyed archive: a `$objects` entry with a `$class`, whose fields are read one at a time.
///
/// Reading a field never follows references further than one step, so cyclic graphs are safe to walk.
public struct ArchivedObject: Sendable {
    /// The archive this object belongs to.
    public let archive: KeyedArchive
    /// Where the object sits in `$objects`.
    public let reference: ArchivedObjectReference
    /// The object's class, from `$class` → `$classname` (for example `NSEntityDescription`).
    public let className: String
    /// The class and its superclasses, from `$class` → `$classes` (for example
    /// `["NSMutableDictionary", "NSDictionary", "NSObject"]`). Holds at least `className`.
    public let classHierarchy: [String]
    /// The object's fields, unresolved, without `$class`.
    public let fields: [String: PropertyListValue]

    init(archive: KeyedArchive, reference: ArchivedObjectReference) throws {
        let raw = try archive.rawObject(reference)
        guard case .dictionary(var fields) = raw else {
            throw PropertyListError(reason: "object \(reference) is a \(raw.typeName), not an archived object")
        }
        guard case .uid(let classUID)? = fields.removeValue(forKey: "$class") else {
            throw PropertyListError(reason: "object \(reference) has no $class UID")
        }
        let classReference = ArchivedObjectReference(index: Int(clamping: classUID))
        let classDescription = try archive.rawObject(classReference)
        guard case .string(let className)? = classDescription["$classname"] else {
            throw PropertyListError(reason: "class \(classReference) of object \(reference) has no $classname")
        }
        var hierarchy = [className]
        if case .array(let classes)? = classDescription["$classes"] {
            hierarchy = try classes.map { entry in
                guard case .string(let name) = entry else {
                    throw PropertyListError(reason: "class \(classReference) lists a \(entry.typeName) in $classes")
                }
                return name
            }
            if hierarchy.first != className { hierarchy.insert(className, at: 0) }
        }
        self.archive = archive
        self.reference = reference
        self.className = className
        self.classHierarchy = hierarchy
        self.fields = fields
    }

    /// The field names, sorted, without `$class`.
    public var keys: [String] { fields.keys.sorted() }

    /// Whether the archiving code encoded a value for `key`.
    public func contains(key: String) -> Bool { fields[key] != nil }

    /// Whether the object's class is `className` or a subclass of it, according to `$classes`.
    public func isKind(of className: String) -> Bool { classHierarchy.contains(className) }

    /// The value of `key` resolved one step, or nil when the archiving code encoded nothing under `key`.
    /// Throws when the field holds a dangling UID.
    public func value(forKey key: String) throws -> ArchivedValue? {
        guard let raw = fields[key] else { return nil }
        return try archive.resolve(raw)
    }

    /// The object that `key` refers to; nil when the key is absent or holds `$null`. Throws for plain values.
    public func object(forKey key: String) throws -> ArchivedObject? {
        guard let value = try value(forKey: key) else { return nil }
        switch value {
        case .null: return nil
        case .object(let reference): return try archive.object(reference)
        default: throw fieldError(key, value, expected: "an object")
        }
    }

    /// The string under `key`: a plain string or an `NSString` object; nil when absent or `$null`.
    public func string(forKey key: String) throws -> String? {
        guard let value = try value(forKey: key) else { return nil }
        switch value {
        case .null: return nil
        case .string(let string): return string
        case .object(let reference): return try archive.object(reference).stringValue()
        default: throw fieldError(key, value, expected: "a string")
        }
    }

    /// The integer under `key`; nil when absent. Booleans count as 0 and 1, as `decodeInteger(forKey:)` does.
    public func integer(forKey key: String) throws -> Int64? {
        guard let value = try value(forKey: key) else { return nil }
        if let integer = value.int64Value { return integer }
        if let flag = value.boolValue { return flag ? 1 : 0 }
        throw fieldError(key, value, expected: "an integer")
    }

    /// The boolean under `key`; nil when absent. Integers count as true when non-zero.
    public func bool(forKey key: String) throws -> Bool? {
        guard let value = try value(forKey: key) else { return nil }
        if let flag = value.boolValue { return flag }
        if let integer = value.int64Value { return integer != 0 }
        throw fieldError(key, value, expected: "a boolean")
    }

    /// The number under `key` as a `Double`; nil when absent.
    public func double(forKey key: String) throws -> Double? {
        guard let value = try value(forKey: key) else { return nil }
        if let number = value.doubleValue { return number }
        throw fieldError(key, value, expected: "a number")
    }

    func fieldError(_ key: String, _ value: ArchivedValue, expected: String) -> PropertyListError {
        PropertyListError(reason: "\(className) \(reference) field \(key) holds \(value.typeName), not \(expected)")
    }
}
