import Foundation

/// Key-value lookups on values of any type: the entry point used by the predicate evaluator, which holds
/// evaluated objects as `Any`.
public enum KeyValueLookup {
    /// The value of `key` on `object`; nil when `object` is nil, `NSNull`, or does not conform to ``KeyValueCoding``.
    public static func value(of object: Any?, forKey key: String) -> Any? {
        guard let object = unwrapped(object) else { return nil }
        if key.hasPrefix("@") {
            // A collection operator as the last component ("@count") takes no right-hand key path.
            return CollectionOperator(rawValue: String(key.dropFirst()))?.apply(to: operands(of: object), rightKeyPath: nil)
        }
        if let coding = object as? KeyValueCoding { return coding.value(forKey: key) }
        // Dictionaries read back from NSDictionary/NSArray on Linux are [AnyHashable: Any], which the
        // `Key == String` conformance does not cover.
        if let dictionary = object as? [AnyHashable: Any] { return unwrapped(dictionary[AnyHashable(key)]) }
        return nil
    }

    /// The value at the end of `keyPath`, a dotted path whose components may be collection operators.
    ///
    /// A collection met in the middle of a path maps the rest of the path over its elements, as `NSArray` does.
    /// A collection operator consumes the rest of the path as its right-hand key path (`@sum.price`).
    public static func value(of object: Any?, forKeyPath keyPath: String) -> Any? {
        if !keyPath.utf8.contains(UInt8(ascii: ".")) { return value(of: object, forKey: keyPath) }
        var current: Any? = object
        var components = keyPath.split(separator: ".", omittingEmptySubsequences: false)[...]
        while let component = components.popFirst() {
            guard let value = unwrapped(current) else { return nil }
            if component.hasPrefix("@") {
                guard let collectionOperator = CollectionOperator(rawValue: String(component.dropFirst())) else {
                    return nil
                }
                let rest = components.isEmpty ? nil : components.joined(separator: ".")
                return collectionOperator.apply(to: operands(of: value), rightKeyPath: rest)
            }
            current = self.value(of: value, forKey: String(component))
        }
        return current
    }

    /// The elements of `value` when it is an array, a set or an `NSArray`/`NSSet`/`NSOrderedSet`; nil otherwise.
    ///
    /// Strings and dictionaries are not collections here: a dictionary is a keyed object.
    public static func elements(of value: Any) -> [Any]? {
        switch value {
        case is String, is NSString: return nil
        case let array as [Any]: return array
        case let array as NSArray: return array.map { $0 }
        case let set as NSSet: return set.allObjects
        case let ordered as NSOrderedSet: return ordered.array
        case let set as any AnySetOfElements: return set.elementArray
        default: return nil
        }
    }

    /// What a collection operator ranges over: a collection's elements, a dictionary's values (so `@count` of a
    /// dictionary is its entry count), or a single value as a one-element collection.
    private static func operands(of value: Any) -> [Any] {
        elements(of: value) ?? (value as? [AnyHashable: Any]).map { Array($0.values) } ?? [value]
    }

    /// nil for nil, `NSNull` and nested optionals holding nil; the wrapped value otherwise.
    public static func unwrapped(_ value: Any?) -> Any? {
        guard let value else { return nil }
        if type(of: value) is NSNull.Type { return nil }
        if let optional = value as? any OptionalUnwrapping { return unwrapped(optional.wrappedAny) }
        return value
    }
}

/// Lets ``KeyValueLookup`` see through `Optional` values stored inside `Any`.
protocol OptionalUnwrapping {
    var wrappedAny: Any? { get }
}

extension Optional: OptionalUnwrapping {
    var wrappedAny: Any? { self.map { $0 as Any } }
}

/// Lets ``KeyValueLookup`` read any `Set` without knowing its element type.
protocol AnySetOfElements {
    var elementArray: [Any] { get }
}

extension Set: AnySetOfElements {
    var elementArray: [Any] { map { $0 as Any } }
}
