import Foundation

extension AttributeValue {
    /// A default value as Apple's `defaultValue: Any?` takes it (`0`, `"Untitled"`, `false`, `Date()`, an
    /// `NSNumber`, …) in the stored form of an attribute of `type`; with the type not set yet, the value's own type
    /// decides (`Int` an integer, `Double` a double, …). Nil when the value does not fit.
    public init?(defaultValue value: Any, as type: NSAttributeType) {
        if let typed = value as? AttributeValue {
            self = typed
            return
        }
        switch type {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType:
            guard let integer = Self.integer(value) else { return nil }
            self = .integer(integer)
        case .doubleAttributeType:
            guard let double = Self.double(value) else { return nil }
            self = .double(double)
        case .floatAttributeType:
            guard let double = Self.double(value) else { return nil }
            self = .float(Float(double))
        case .decimalAttributeType:
            if let decimal = value as? Decimal {
                self = .decimal(decimal)
            } else if let number = value as? NSNumber {
                self = .decimal(number.decimalValue)
            } else if let integer = Self.integer(value) {
                self = .decimal(Decimal(integer))
            } else {
                return nil
            }
        case .booleanAttributeType:
            if let bool = value as? Bool { self = .boolean(bool) } else if let integer = Self.integer(value) { self = .boolean(integer != 0) } else { return nil }
        case .stringAttributeType:
            guard let string = value as? String else { return nil }
            self = .string(string)
        case .dateAttributeType:
            guard let date = value as? Date else { return nil }
            self = .date(date)
        case .binaryDataAttributeType:
            guard let data = value as? Data else { return nil }
            self = .data(data)
        case .UUIDAttributeType:
            guard let uuid = value as? UUID else { return nil }
            self = .uuid(uuid)
        case .URIAttributeType:
            guard let url = value as? URL else { return nil }
            self = .uri(url)
        case .undefinedAttributeType:
            guard let inferred = Self.inferred(value) else { return nil }
            self = inferred
        case .transformableAttributeType, .objectIDAttributeType, .compositeAttributeType:
            return nil
        }
    }

    /// The stored form a value's own Swift type suggests, for an attribute whose type is not set yet.
    private static func inferred(_ value: Any) -> AttributeValue? {
        switch value {
        case let bool as Bool: return .boolean(bool)
        case let string as String: return .string(string)
        case let double as Double: return .double(double)
        case let float as Float: return .float(float)
        case let decimal as Decimal: return .decimal(decimal)
        case let date as Date: return .date(date)
        case let data as Data: return .data(data)
        case let uuid as UUID: return .uuid(uuid)
        case let url as URL: return .uri(url)
        default: return integer(value).map { .integer($0) }
        }
    }

    private static func integer(_ value: Any) -> Int64? {
        switch value {
        case let value as Int: return Int64(value)
        case let value as Int64: return value
        case let value as Int32: return Int64(value)
        case let value as Int16: return Int64(value)
        case let value as Int8: return Int64(value)
        case let value as UInt8: return Int64(value)
        case let value as UInt16: return Int64(value)
        case let value as UInt32: return Int64(value)
        case let value as NSNumber: return value.int64Value
        default: return nil
        }
    }

    private static func double(_ value: Any) -> Double? {
        switch value {
        case let value as Double: return value
        case let value as Float: return Double(value)
        case let value as NSNumber: return value.doubleValue
        default: return integer(value).map(Double.init)
        }
    }
}
