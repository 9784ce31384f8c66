import Foundation

extension Data: KeyValueCoding {
    /// The `NSData` property key-value coding reaches on data: `length` (the byte count, as a validation predicate
    /// such as `length <= 1024` reads it); nil for any other key.
    public func value(forKey key: String) -> Any? {
        key == "length" ? count : nil
    }
}
