import CoreDataModel
import Foundation

/// Converts the values Core Data stores (`Int64` for every integer type, `Double`, …) into the declared Swift type.
@usableFromInline
enum ManagedValueConversion {
    /// `value` with any optional wrapping removed: nil for an optional that holds nil, the wrapped value otherwise.
    @usableFromInline
    static func flattened<Value>(_ value: Value) -> Any? {
        guard let optional = value as? any OptionalValue else { return value }
        return optional.wrappedAny
    }
    @usableFromInline
    static func convert<Value>(_ raw: Any?, to valueType: Value.Type, key: String, entity: NSEntityDescription) -> Value {
        if let value = raw as? Value { return value }
        if let converted = numeric(raw, to: valueType) { return converted }
        if let converted = relationshipCollection(raw, as: valueType) { return converted }
        if let optional = Value.self as? any ExpressibleByNilLiteral.Type, raw == nil {
            return optional.init(nilLiteral: ()) as! Value
        }
        preconditionFailure("\(entity.entityName).\(key) holds \(raw.map { "\(type(of: $0))" } ?? "nil"), which is not a \(Value.self)")
    }

    /// A to-many relationship's destinations (`Set<NSManagedObject>`, or `[NSManagedObject]` when ordered) as the
    /// Foundation collection Xcode's generated properties declare: `NSSet`, or `NSOrderedSet` for an ordered one.
    private static func relationshipCollection<Value>(_ raw: Any?, as valueType: Value.Type) -> Value? {
        switch raw {
        case let set as Set<NSManagedObject>:
            return NSSet(array: Array(set)) as? Value ?? NSOrderedSet(array: Array(set)) as? Value
        case let array as [NSManagedObject]:
            return NSOrderedSet(array: array) as? Value ?? NSSet(array: array) as? Value ?? Set(array) as? Value
        default:
            return nil
        }
    }

    /// An `Int64` as `Int`, `Int32` or `Int16` when it fits exactly; nil otherwise.
    @usableFromInline
    static func exactNumber<Value>(_ raw: Any, as valueType: Value.Type) -> Value? {
        guard let integer = raw as? Int64 else { return nil }
        switch valueType {
        case is Int.Type: return Int(exactly: integer) as? Value
        case is Int32.Type: return Int32(exactly: integer) as? Value
        case is Int16.Type: return Int16(exactly: integer) as? Value
        default: return nil
        }
    }

    private static func numeric<Value>(_ raw: Any?, to valueType: Value.Type) -> Value? {
        guard let raw else { return nil }
        let integer: Int64? = raw as? Int64
        let double: Double? = (raw as? Double) ?? (raw as? Float).map(Double.init)
        func pick<T>(_ value: T?) -> Value? { value as? Value ?? (value.map { Optional($0) } as? Value) }
        switch valueType {
        case is Int.Type, is Int?.Type: return pick(integer.map { Int(truncatingIfNeeded: $0) })
        case is Int16.Type, is Int16?.Type: return pick(integer.map { Int16(truncatingIfNeeded: $0) })
        case is Int32.Type, is Int32?.Type: return pick(integer.map { Int32(truncatingIfNeeded: $0) })
        case is Int64.Type, is Int64?.Type: return pick(integer)
        case is Double.Type, is Double?.Type: return pick(double ?? integer.map(Double.init))
        case is Float.Type, is Float?.Type: return pick((double ?? integer.map(Double.init)).map(Float.init))
        case is Bool.Type, is Bool?.Type: return pick(integer.map { $0 != 0 })
        default: return nil
        }
    }
}

/// An `Optional` of any wrapped type, for unwrapping a value whose type is only known to be generic.
protocol OptionalValue {
    var wrappedAny: Any? { get }
    static var wrappedType: Any.Type { get }
}

extension Optional: OptionalValue {
    static var wrappedType: Any.Type { Wrapped.self }
    var wrappedAny: Any? {
        guard case .some(let wrapped) = self else { return nil }
        return ManagedValueConversion.flattened(wrapped)
    }
}
