import CoreDataModel
import Foundation

/// One value of a ``FetchedDictionary`` row, stored typed: the common attribute types inline (no `Any` box, no
/// allocation), anything else (data, UUIDs, URLs, decimals, object IDs, transformed values) boxed.
///
/// A row holds one per key of its key table; ``absent`` stands for a key the row leaves out (a NULL, as in Core
/// Data, or an external-storage value, which a dictionary result does not resolve).
@usableFromInline
enum FetchedValue {
    case absent
    case integer(Int64)
    case double(Double)
    case string(String)
    case date(Date)
    case boolean(Bool)
    indirect case other(Any)

    /// Classifies a decoded value by its exact dynamic type, so that a value read through the general decoder is
    /// stored like the same value read directly (an `NSNumber` stays an `NSNumber`: no bridging cast).
    init(_ value: Any) {
        switch ObjectIdentifier(type(of: value)) {
        case ObjectIdentifier(Int64.self): self = .integer(value as! Int64)
        case ObjectIdentifier(Double.self): self = .double(value as! Double)
        case ObjectIdentifier(String.self): self = .string(value as! String)
        case ObjectIdentifier(Date.self): self = .date(value as! Date)
        case ObjectIdentifier(Bool.self): self = .boolean(value as! Bool)
        default: self = .other(value)
        }
    }

    @inlinable
    var isAbsent: Bool {
        if case .absent = self { return true }
        return false
    }

    /// The value as `Any` (what `[String: Any]` results hold), or nil when absent.
    @inlinable
    var anyValue: Any? {
        switch self {
        case .absent: return nil
        case .integer(let value): return value
        case .double(let value): return value
        case .string(let value): return value
        case .date(let value): return value
        case .boolean(let value): return value
        case .other(let value): return value
        }
    }

    /// The value as `Wanted`, without going through `Any` when `Wanted` is the stored type (once specialised, the
    /// cast below is resolved by the compiler). Integers convert to the other integer types when they fit exactly,
    /// as an `NSNumber` in Apple's dictionary results does.
    @inlinable
    func value<Wanted>(as _: Wanted.Type) -> Wanted? {
        switch self {
        case .absent: return nil
        case .integer(let value): return AttributeValue.integer(value, as: Wanted.self)
        case .double(let value): return value as? Wanted
        case .string(let value): return value as? Wanted
        case .date(let value): return value as? Wanted
        case .boolean(let value): return value as? Wanted
        case .other(let value): return value as? Wanted
        }
    }
}

extension FetchedValue: Equatable {
    @usableFromInline
    static func == (lhs: FetchedValue, rhs: FetchedValue) -> Bool {
        switch (lhs, rhs) {
        case (.absent, .absent): return true
        case (.integer(let left), .integer(let right)): return left == right
        case (.double(let left), .double(let right)): return left == right
        case (.string(let left), .string(let right)): return left == right
        case (.date(let left), .date(let right)): return left == right
        case (.boolean(let left), .boolean(let right)): return left == right
        case (.other(let left), .other(let right)):
            // Data, UUIDs, URLs, decimals and object IDs are all hashable; other values compare as objects.
            if let left = left as? AnyHashable, let right = right as? AnyHashable { return left == right }
            if let left = left as? NSObject, let right = right as? NSObject { return left.isEqual(right) }
            return false
        default: return false
        }
    }
}
