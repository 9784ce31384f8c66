import CoreDataModel
import Foundation

/// Declares a typed property of a managed object subclass, backed by the entity's property of the same name.
/// `@NSManaged` does not link on Linux, so subclasses write:
///
/// ```swift
/// final class Recipe: NSManagedObject {
///     @Managed("name") var name: String?
///     @Managed("minutes") var minutes: Int16
/// }
/// ```
@propertyWrapper
public struct Managed<Value> {
    public let key: String

    public init(_ key: String) {
        self.key = key
    }

    @available(*, unavailable, message: "@Managed properties are only available on NSManagedObject subclasses")
    public var wrappedValue: Value {
        get { fatalError("unreachable") }
        set { fatalError("unreachable") }
    }

    @inlinable
    public static subscript<Object: NSManagedObject>(
        _enclosingInstance object: Object,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<Object, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<Object, Managed<Value>>
    ) -> Value {
        get {
            let key = object[keyPath: storageKeyPath].key
            // Naming a Swift key path (`\Person.name`) reads it on a probe object, which this tells the key.
            if _slowPath(ManagedKeyPathProbe.isActive) { ManagedKeyPathProbe.record(wrappedKeyPath, key: key) }
            // An attribute of the declared type reads without a trip through `Any` (see `value(forKey:as:)`); nils,
            // relationships and conversions take the general path.
            if let typed = object.value(forKey: key, as: Value.self) { return typed }
            return ManagedValueConversion.convert(object.value(forKey: key), to: Value.self, key: key, entity: object.entity.name)
        }
        set {
            let key = object[keyPath: storageKeyPath].key
            // An optional `Value` would arrive boxed (a nil as `.some(nil)`): it is unwrapped first. `_isOptional`
            // reads the type's kind (folded away when specialised), so other types skip the cast this costs.
            if _isOptional(Value.self) {
                object.setValue(ManagedValueConversion.flattened(newValue), forKey: key)
            } else {
                object.setValue(newValue, forKey: key)
            }
        }
    }
}

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
    static func convert<Value>(_ raw: Any?, to valueType: Value.Type, key: String, entity: String) -> Value {
        if let value = raw as? Value { return value }
        if let converted = numeric(raw, to: valueType) { return converted }
        if let optional = Value.self as? any ExpressibleByNilLiteral.Type, raw == nil {
            return optional.init(nilLiteral: ()) as! Value
        }
        preconditionFailure("\(entity).\(key) holds \(raw.map { "\(type(of: $0))" } ?? "nil"), which is not a \(Value.self)")
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
}

extension Optional: OptionalValue {
    var wrappedAny: Any? {
        guard case .some(let wrapped) = self else { return nil }
        return ManagedValueConversion.flattened(wrapped)
    }
}
