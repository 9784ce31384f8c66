import Foundation

extension String: KeyValueCoding {
    /// The `NSString` properties key-value coding reaches on a string: `length` (UTF-16 units, as `NSString`
    /// counts), `lowercaseString`, `uppercaseString`, `capitalizedString`, `intValue`, `integerValue`,
    /// `doubleValue`, `boolValue`; nil for any other key.
    public func value(forKey key: String) -> Any? {
        switch key {
        case "length": return utf16.count
        case "lowercaseString": return lowercased()
        case "uppercaseString": return uppercased()
        case "capitalizedString": return capitalized
        case "intValue", "integerValue": return Int(trimmingCharacters(in: .whitespaces)) ?? 0
        case "doubleValue": return Double(trimmingCharacters(in: .whitespaces)) ?? 0
        case "boolValue": return ["y", "t", "1", "2", "3", "4", "5", "6", "7", "8", "9"].contains(trimmingCharacters(in: .whitespaces).prefix(1).lowercased())
        default: return nil
        }
    }
}
