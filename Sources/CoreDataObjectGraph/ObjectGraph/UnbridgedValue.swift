import Foundation
import KeyValueCoding

/// The in-repo tools (commands, browser) print values by their Swift type; `value(forKey:)` hands out Apple's
/// `NSNumber`s, which on Linux cast to `Bool`, `Int64` and `Double` alike. This turns them back into the one Swift
/// type they hold (`Bool`, `Int64`, `Double`, `Decimal`), collections element by element.
package enum UnbridgedValue {
    package static func of(_ value: Any?) -> Any? {
        guard let value else { return nil }
        if value is NSNumber {
            if NumericValue.isBoolean(value), let number = NumericValue(value), case .integer(let v) = number { return v != 0 }
            switch NumericValue(value) {
            case .integer(let v)?: return v
            case .double(let v)?: return v
            case .decimal(let v)?: return v
            case nil: return value
            }
        }
        if let array = value as? [Any], array.contains(where: { $0 is NSNumber }) { return array.map { of($0) ?? NSNull() } }
        return value
    }
}
