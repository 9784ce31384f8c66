import Foundation

extension Dictionary: KeyValueCoding where Key == String {
    /// The entry for `key`; a stored `NSNull` reads as nil.
    public func value(forKey key: String) -> Any? {
        KeyValueLookup.unwrapped(self[key].map { $0 as Any })
    }
}

extension Dictionary: MutableKeyValueCoding where Key == String {
    /// Stores `value` under `key` (nil removes the entry); a value of the wrong type is ignored.
    public mutating func setValue(_ value: Any?, forKey key: String) {
        guard let value else { self[key] = nil; return }
        if let typed = value as? Value { self[key] = typed }
    }
}

extension NSDictionary: KeyValueCoding {}

extension Array: KeyValueCoding {
    /// A collection operator (`"@count"`) applied to the array, or the array of each element's value for
    /// `key`, with `NSNull` standing for nil so that positions are kept (as `NSArray` does).
    public func value(forKey key: String) -> Any? {
        if key.hasPrefix("@") { return KeyValueLookup.value(of: self, forKey: key) }
        return map { KeyValueLookup.value(of: $0, forKey: key) ?? NSNull() } as [Any]
    }
}

extension Set: KeyValueCoding {
    /// As for arrays; the result is an array because element values need not be hashable.
    public func value(forKey key: String) -> Any? {
        if key.hasPrefix("@") { return KeyValueLookup.value(of: self, forKey: key) }
        return map { KeyValueLookup.value(of: $0, forKey: key) ?? NSNull() } as [Any]
    }
}

extension NSArray: KeyValueCoding {
    /// As for Swift arrays.
    public func value(forKey key: String) -> Any? {
        (map { $0 } as [Any]).value(forKey: key)
    }
}

extension NSSet: KeyValueCoding {
    /// As for Swift sets.
    public func value(forKey key: String) -> Any? {
        allObjects.value(forKey: key)
    }
}
