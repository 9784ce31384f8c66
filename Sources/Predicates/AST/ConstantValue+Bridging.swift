import Foundation
import KeyValueCoding

extension ConstantValue {
    /// Classifies an untyped value: numbers by their exact type (never mistaking `NSNumber(1)` for `true`),
    /// strings, dates, data, UUIDs, URLs, collections element by element, `NSNull` and nil as ``null``, and
    /// anything else as an ``object(_:)`` compared by identity.
    public init(any value: Any?) {
        guard let value = KeyValueLookup.unwrapped(value) else { self = .null; return }
        // The common types by exact metatype first: conditional casts of a String to NSNumber and the like are slow.
        let type = type(of: value)
        if type == String.self { self = .string(value as! String); return }
        if type == Int.self { self = .integer(Int64(value as! Int)); return }
        if type == Double.self { self = .double(value as! Double); return }
        if type == Bool.self { self = .bool(value as! Bool); return }
        if type == Date.self { self = .date(value as! Date); return }
        if type == ConstantValue.self { self = value as! ConstantValue; return }
        if NumericValue.isBoolean(value), let number = NumericValue(value), case .integer(let v) = number {
            self = .bool(v != 0)
            return
        }
        if let number = NumericValue(value) {
            switch number {
            case .integer(let v): self = .integer(v)
            case .double(let v): self = .double(v)
            case .decimal(let v): self = .decimal(v)
            }
            return
        }
        switch value {
        case let v as String: self = .string(v)
        case let v as NSString: self = .string(v as String)
        case let v as Date: self = .date(v)
        case let v as Data: self = .data(v)
        case let v as UUID: self = .uuid(v)
        case let v as URL: self = .url(v)
        case let v as [String: Any]: self = .dictionary(v.mapValues { ConstantValue(any: $0) })
        case let v as NSDictionary:
            var entries: [String: ConstantValue] = [:]
            for (key, entry) in v { entries[String(describing: key)] = ConstantValue(any: entry) }
            self = .dictionary(entries)
        default:
            if let elements = KeyValueLookup.elements(of: value) {
                self = .array(elements.map { ConstantValue(any: $0) })
            } else {
                self = .object(OpaqueObject(value))
            }
        }
    }

    /// The constant as a Foundation value (`Int`, `Double`, `String`, `Date`, `[Any]`, `[String: Any]`, …);
    /// nil for ``null``. Used to hand values to key-value coding and to ``NSExpression/constantValue``.
    public var anyValue: Any? {
        switch self {
        case .null: return nil
        case .nullObject: return NSNull()
        case .bool(let v): return v
        case .integer(let v): return Int(exactly: v) ?? v
        case .double(let v): return v
        case .decimal(let v): return v
        case .string(let v): return v
        case .date(let v): return v
        case .data(let v): return v
        case .uuid(let v): return v
        case .url(let v): return v
        case .array(let v): return v.map { $0.anyValue ?? NSNull() } as [Any]
        case .dictionary(let v): return v.mapValues { $0.anyValue ?? NSNull() } as [String: Any]
        case .object(let v): return v.value
        }
    }

    /// The constant as Apple's `expressionValue(with:context:)` returns it: numbers and booleans as `NSNumber` (so
    /// that `as? Int`, `as? Int16`, `as? Double` and `as? Bool` succeed exactly where they do on Apple's platforms),
    /// decimals as `NSDecimalNumber`, collections element by element; everything else as ``anyValue``.
    public var objectValue: Any? {
        switch self {
        case .bool(let v): return NSNumber(value: v)
        case .integer(let v): return NSNumber(value: v)
        case .double(let v): return NSNumber(value: v)
        case .decimal(let v): return NSDecimalNumber(decimal: v)
        case .array(let v): return v.map { $0.objectValue ?? NSNull() } as [Any]
        case .dictionary(let v): return v.mapValues { $0.objectValue ?? NSNull() } as [String: Any]
        default: return anyValue
        }
    }
}
