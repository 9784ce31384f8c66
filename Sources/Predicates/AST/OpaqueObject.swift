/// An object carried through the AST without being interpreted (for example a managed object given as `%@`).
///
/// Objects are compared by identity; non-class values that are `Hashable` by value.
public struct OpaqueObject: @unchecked Sendable, Hashable, CustomStringConvertible {
    // Unchecked: the AST never reads or mutates the object; it only hands it back to the evaluator's caller.
    /// The wrapped value.
    public let value: Any

    /// Wraps `value`.
    public init(_ value: Any) { self.value = value }

    /// Identity for objects, value equality for hashable values, otherwise unequal.
    public static func == (lhs: OpaqueObject, rhs: OpaqueObject) -> Bool {
        if type(of: lhs.value) is AnyClass && type(of: rhs.value) is AnyClass {
            return (lhs.value as AnyObject) === (rhs.value as AnyObject)
        }
        if let a = lhs.value as? AnyHashable, let b = rhs.value as? AnyHashable { return a == b }
        return false
    }

    /// Consistent with `==`.
    public func hash(into hasher: inout Hasher) {
        if type(of: value) is AnyClass {
            hasher.combine(ObjectIdentifier(value as AnyObject))
        } else if let hashable = value as? AnyHashable {
            hasher.combine(hashable)
        }
    }

    /// The object's own description.
    public var description: String { String(describing: value) }
}
