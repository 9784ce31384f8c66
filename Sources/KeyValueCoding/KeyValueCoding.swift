/// Key-value coding, which Foundation on Linux does not provide: reading a value by a string key or key path.
///
/// Conform a type by implementing ``value(forKey:)``; ``value(forKeyPath:)`` then follows dotted key paths,
/// maps over collections and applies the collection operators (`@count`, `@sum`, `@avg`, `@min`, `@max`,
/// `@distinctUnionOfObjects`, `@unionOfObjects`, `@distinctUnionOfArrays`, `@unionOfArrays`,
/// `@distinctUnionOfSets`). Dictionaries with string keys, `NSDictionary`, arrays, sets, `NSArray` and `NSSet`
/// conform out of the box; managed objects conform in a higher module.
public protocol KeyValueCoding {
    /// The value for `key`, or nil when the object has no value there.
    func value(forKey key: String) -> Any?

    /// The value at the end of a dotted key path such as `"author.name"` or `"books.@avg.price"`.
    func value(forKeyPath keyPath: String) -> Any?
}

extension KeyValueCoding {
    /// Follows `keyPath` component by component with ``KeyValueLookup/value(of:forKeyPath:)``.
    public func value(forKeyPath keyPath: String) -> Any? {
        KeyValueLookup.value(of: self, forKeyPath: keyPath)
    }
}
