import CoreDataModel
import Foundation

extension StoredValue {
    /// A value being assigned to an attribute, checked against its type and converted to the stored form
    /// (every integer type to `Int64`, `Float`/`Double` to their own, and so on).
    init(assigning value: Any?, to attribute: NSAttributeDescription) throws(ValueAssignmentError) {
        self = try Self.assigning(value, to: attribute, ofType: attribute.attributeType)
    }

    /// `init(assigning:to:)` with the attribute's type given (slots keep it: reading it from the description is a
    /// dynamic call across modules). A function rather than an initializer, whose parameters are passed owned: the
    /// value is only borrowed, not copied.
    static func assigning(_ value: Any?, to attribute: NSAttributeDescription,
                          ofType type: NSAttributeType) throws(ValueAssignmentError) -> StoredValue {
        guard let value else { return .null }
        // A value of exactly the attribute's own Swift type (nearly every call) converts without the runtime's
        // general casts, which are slow on Linux (they consult bridging too).
        if let exact = exactValue(value, for: type) { return exact }
        if value is NSNull { return .null }
        func fail() -> ValueAssignmentError { ValueAssignmentError(value: value, attribute: attribute) }
        switch type {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType:
            guard let integer = Self.integer(value) else { throw fail() }
            let limits: ClosedRange<Int64> = type == .integer16AttributeType ? Int64(Int16.min)...Int64(Int16.max)
                : type == .integer32AttributeType ? Int64(Int32.min)...Int64(Int32.max) : Int64.min...Int64.max
            guard limits.contains(integer) else { throw fail() }
            return .attribute(.integer(integer))
        case .booleanAttributeType:
            if let bool = value as? Bool { return .attribute(.boolean(bool)) } else if let integer = Self.integer(value) {
                return .attribute(.boolean(integer != 0))
            } else { throw fail() }
        case .doubleAttributeType:
            guard let double = Self.double(value) else { throw fail() }
            return .attribute(.double(double))
        case .floatAttributeType:
            guard let double = Self.double(value) else { throw fail() }
            return .attribute(.float(Float(double)))
        case .decimalAttributeType:
            if let decimal = value as? Decimal { return .attribute(.decimal(decimal)) } else if let integer = Self.integer(value) {
                return .attribute(.decimal(Decimal(integer)))
            } else if let double = Self.double(value) {
                return .attribute(.decimal(Decimal(string: String(format: "%.15g", double))!))
            } else { throw fail() }
        case .stringAttributeType:
            guard let string = value as? String else { throw fail() }
            return .attribute(.string(string))
        case .dateAttributeType:
            guard let date = value as? Date else { throw fail() }
            return .attribute(.date(date))
        case .binaryDataAttributeType, .transformableAttributeType:
            if let data = value as? Data { return .attribute(.data(data)) } else if let bytes = value as? [UInt8] {
                return .attribute(.data(Data(bytes)))
            } else { throw fail() }
        case .UUIDAttributeType:
            guard let uuid = value as? UUID else { throw fail() }
            return .attribute(.uuid(uuid))
        case .URIAttributeType:
            guard let url = value as? URL else { throw fail() }
            return .attribute(.uri(url))
        case .undefinedAttributeType, .objectIDAttributeType, .compositeAttributeType:
            throw fail()
        }
    }

    /// `value` converted for an attribute of `type` when that takes no general cast: nil becomes `.null`, a value of
    /// exactly the attribute's own Swift type its stored form; nil for anything else (convert it with
    /// `assigning(_:to:ofType:)`, which also reports errors). Needs no attribute description, so the common
    /// assignment does not retain one.
    static func exactAssignment(_ value: Any?, ofType type: NSAttributeType) -> StoredValue? {
        guard let value else { return .null }
        return exactValue(value, for: type)
    }

    /// The stored form of `value` when its dynamic type is the one Swift code naturally uses for `type` and it is
    /// in range; nil sends the value through the general conversion (which also reports errors).
    private static func exactValue(_ value: Any, for type: NSAttributeType) -> StoredValue? {
        switch type {
        case .stringAttributeType:
            return exactly(value, String.self).map { .attribute(.string($0)) }
        case .integer64AttributeType:
            if let integer = exactly(value, Int64.self) ?? exactly(value, Int.self).map(Int64.init) { return .attribute(.integer(integer)) }
        case .integer32AttributeType:
            if let integer = exactly(value, Int32.self) { return .attribute(.integer(Int64(integer))) }
            if let integer = exactly(value, Int.self), let narrow = Int32(exactly: integer) { return .attribute(.integer(Int64(narrow))) }
        case .integer16AttributeType:
            if let integer = exactly(value, Int16.self) { return .attribute(.integer(Int64(integer))) }
            if let integer = exactly(value, Int.self), let narrow = Int16(exactly: integer) { return .attribute(.integer(Int64(narrow))) }
        case .doubleAttributeType:
            return exactly(value, Double.self).map { .attribute(.double($0)) }
        case .floatAttributeType:
            return exactly(value, Float.self).map { .attribute(.float($0)) }
        case .booleanAttributeType:
            return exactly(value, Bool.self).map { .attribute(.boolean($0)) }
        case .dateAttributeType:
            return exactly(value, Date.self).map { .attribute(.date($0)) }
        case .decimalAttributeType:
            return exactly(value, Decimal.self).map { .attribute(.decimal($0)) }
        case .binaryDataAttributeType, .transformableAttributeType:
            return exactly(value, Data.self).map { .attribute(.data($0)) }
        case .UUIDAttributeType:
            return exactly(value, UUID.self).map { .attribute(.uuid($0)) }
        case .URIAttributeType:
            return exactly(value, URL.self).map { .attribute(.uri($0)) }
        case .undefinedAttributeType, .objectIDAttributeType, .compositeAttributeType:
            return nil
        }
        return nil
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

/// `value` as a `T` when its dynamic type is exactly `T`: the existential is opened and its type compared first, so
/// what follows is a copy between identical types and a mismatch costs a pointer comparison instead of
/// the runtime's search through optionals, existentials and bridging. Optionals, subclasses and bridged types answer
/// nil here; callers fall back to the general casts for those.
@inline(__always)
func exactly<T>(_ value: Any, _: T.Type) -> T? {
    func open<V>(_ opened: V) -> T? {
        // The types are identical, so reinterpreting is a copy (`as?` would still go through the runtime's cast).
        V.self == T.self ? unsafeBitCast(opened, to: T.self) : nil
    }
    return open(value)
}
