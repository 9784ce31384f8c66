/// Key-value coding, which Foundation on Linux does not provide: reading a value by a string key.
public protocol KeyValueCoding {
    /// The value for `key`, or nil when the object has no value there.
    func value(forKey key: String) -> Any?
}
