/// Key-value coding for objects that can also be written to by key.
public protocol MutableKeyValueCoding: KeyValueCoding {
    /// Stores `value` under `key`; nil removes or clears the value.
    mutating func setValue(_ value: Any?, forKey key: String)
}
