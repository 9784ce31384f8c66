import CoreDataModel
import Foundation

/// What `@Managed var name: String?` expands to (the `CoreDataMacros` module declares the macro):
///
/// ```swift
/// var name: String? {
///     get { managedValue(forKey: "name", keyPath: \.name) }
///     set { setManagedValue(newValue, forKey: "name") }
/// }
/// ```
extension ManagedObjectSubclass {
    /// The value of the property `key` in the declared Swift type `Value`: an attribute in its own type (any integer
    /// type for an integer attribute, read without a trip through `Any`), a to-one relationship as its destination's
    /// class, a to-many one as `Set<Destination>`, `NSSet`, `NSOrderedSet` or an array. A stored value that is not a
    /// `Value` traps, naming the entity and key. `keyPath` (the property's own) is evaluated only while a Swift key
    /// path is being named (`NSManagedObject.key(for:)`).
    @inlinable
    public func managedValue<Value>(forKey key: String, keyPath: @autoclosure () -> KeyPath<Self, Value>) -> Value {
        if _slowPath(ManagedKeyPathProbe.isActive), let probed: Value = ManagedKeyPathProbe.read(key, of: self, keyPath: keyPath()) {
            return probed
        }
        // An attribute of the declared type reads without a trip through `Any` (see `value(forKey:as:)`); nils,
        // relationships and conversions take the general path.
        if let typed = value(forKey: key, as: Value.self) { return typed }
        return ManagedValueConversion.convert(value(forKey: key), to: Value.self, key: key, entity: entity)
    }
}

extension NSManagedObject {
    /// Sets the property `key` to `newValue`, as `setValue(_:forKey:)` does; an optional is unwrapped first, so nil
    /// clears an attribute or a to-one relationship. What an `@Managed` property's setter calls.
    @inlinable
    public final func setManagedValue<Value>(_ newValue: Value, forKey key: String) {
        // An optional `Value` would arrive boxed (a nil as `.some(nil)`): it is unwrapped first. `_isOptional` reads
        // the type's kind (folded away when specialised), so other types skip the cast this costs.
        if _isOptional(Value.self) {
            setValue(ManagedValueConversion.flattened(newValue), forKey: key)
        } else {
            setValue(newValue, forKey: key)
        }
    }
}
