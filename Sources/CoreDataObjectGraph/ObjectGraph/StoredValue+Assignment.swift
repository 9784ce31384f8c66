import CoreDataModel
import Foundation

extension StoredValue {
    /// A value being assigned to an attribute, checked against its type and converted to the stored form
    /// (every integer type to `Int64`, `Float`/`Double` to their own, and so on).
    init(assigning value: Any?, to attribute: NSAttributeDescription) throws(ValueAssignmentError) {
        guard let value, !(value is NSNull) else {
            self = .null
            return
        }
        let type = attribute.attributeType
        func fail() -> ValueAssignmentError { ValueAssignmentError(value: value, attribute: attribute) }
        switch type {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType:
            guard let integer = Self.integer(value) else { throw fail() }
            let limits: ClosedRange<Int64> = type == .integer16AttributeType ? Int64(Int16.min)...Int64(Int16.max)
                : type == .integer32AttributeType ? Int64(Int32.min)...Int64(Int32.max) : Int64.min...Int64.max
            guard limits.contains(integer) else { throw fail() }
            self = .attribute(.integer(integer))
        case .booleanAttributeType:
            if let bool = value as? Bool { self = .attribute(.boolean(bool)) } else if let integer = Self.integer(value) {
                self = .attribute(.boolean(integer != 0))
            } else { throw fail() }
        case .doubleAttributeType:
            guard let double = Self.double(value) else { throw fail() }
            self = .attribute(.double(double))
        case .floatAttributeType:
            guard let double = Self.double(value) else { throw fail() }
            self = .attribute(.float(Float(double)))
        case .decimalAttributeType:
            if let decimal = value as? Decimal { self = .attribute(.decimal(decimal)) } else if let integer = Self.integer(value) {
                self = .attribute(.decimal(Decimal(integer)))
            } else if let double = Self.double(value) {
                self = .attribute(.decimal(Decimal(string: String(format: "%.15g", double))!))
            } else { throw fail() }
        case .stringAttributeType:
            guard let string = value as? String else { throw fail() }
            self = .attribute(.string(string))
        case .dateAttributeType:
            guard let date = value as? Date else { throw fail() }
            self = .attribute(.date(date))
        case .binaryDataAttributeType, .transformableAttributeType:
            if let data = value as? Data { self = .attribute(.data(data)) } else if let bytes = value as? [UInt8] {
                self = .attribute(.data(Data(bytes)))
            } else { throw fail() }
        case .UUIDAttributeType:
            guard let uuid = value as? UUID else { throw fail() }
            self = .attribute(.uuid(uuid))
        case .URIAttributeType:
            guard let url = value as? URL else { throw fail() }
            self = .attribute(.uri(url))
        case .undefinedAttributeType, .objectIDAttributeType, .compositeAttributeType:
            throw fail()
        }
    }

    private static func integer(_ value: Any) -> Int64? {
        switch value {
        case let v as Int: return Int64(v)
        case let v as Int64: return v
        case let v as Int32: return Int64(v)
        case let v as Int16: return Int64(v)
        case let v as Int8: return Int64(v)
        case let v as UInt8: return Int64(v)
        case let v as UInt16: return Int64(v)
        case let v as UInt32: return Int64(v)
        case let v as UInt: return Int64(exactly: v)
        default: return nil
        }
    }

    private static func double(_ value: Any) -> Double? {
        switch value {
        case let v as Double: return v
        case let v as Float: return Double(v)
        case let v as Decimal: return NSDecimalNumber(decimal: v).doubleValue
        default: return integer(value).map(Double.init)
        }
    }
}

/// A value that does not fit an attribute's type.
public struct ValueAssignmentError: Error, CustomStringConvertible, @unchecked Sendable {
    public var value: Any
    public var attribute: NSAttributeDescription
    public var description: String {
        "\(String(describing: value)) (\(type(of: value))) is not a valid \(attribute.attributeType.xcodeName) value for \(attribute.name)"
    }
}
