import Foundation
import KeyValueCoding

/// A typed constant held by the predicate AST: a literal from the format string, a `%@` argument or a
/// substituted variable.
///
/// Equality follows `NSNumber.isEqual(_:)`: booleans, integers, doubles and decimals compare by numeric value,
/// so `TRUE` (printed `1`) equals the `1` it parses back to, and `10.0` (printed `10`) equals `10`.
public enum ConstantValue: Sendable {
    case null
    /// `NSNull()` given as a value: a null in every comparison and in SQL, printed `<null>` as Apple prints it (a
    /// `nil` literal or argument is ``null``, printed `nil`).
    case nullObject
    case bool(Bool)
    case integer(Int64)
    case double(Double)
    case decimal(Decimal)
    case string(String)
    /// A date; printed as `CAST(<seconds since 2001-01-01>, "NSDate")`.
    case date(Date)
    case data(Data)
    case uuid(UUID)
    case url(URL)
    /// An array, set or ordered set passed as an argument (a set's order is not significant).
    case array([ConstantValue])
    case dictionary([String: ConstantValue])
    /// Any other object, such as a managed object, compared by identity.
    case object(OpaqueObject)

    /// The number this constant holds, for numeric comparison and arithmetic; nil when it is not a number.
    public var numericValue: NumericValue? {
        switch self {
        case .bool(let v): return .integer(v ? 1 : 0)
        case .integer(let v): return .integer(v)
        case .double(let v): return .double(v)
        case .decimal(let v): return .decimal(v)
        default: return nil
        }
    }

    /// Whether this is ``null`` or ``nullObject``.
    public var isNull: Bool {
        switch self {
        case .null, .nullObject: return true
        default: return false
        }
    }

    /// The value with ``nullObject`` read as ``null``: what evaluation and SQL see (the difference is only printed).
    public var withoutNullObject: ConstantValue {
        switch self {
        case .nullObject: return .null
        case .array(let elements) where elements.contains(where: { if case .nullObject = $0 { true } else { false } }):
            return .array(elements.map(\.withoutNullObject))
        default: return self
        }
    }
}

extension ConstantValue: Hashable {
    /// `NSNumber`-like equality: numbers by value across types, strings code point by code point.
    public static func == (lhs: ConstantValue, rhs: ConstantValue) -> Bool {
        if let a = lhs.numericValue, let b = rhs.numericValue { return NumericValue.compare(a, b) == .orderedSame }
        switch (lhs, rhs) {
        case (.null, .null), (.null, .nullObject), (.nullObject, .null), (.nullObject, .nullObject): return true
        case let (.string(a), .string(b)): return a.unicodeScalars.elementsEqual(b.unicodeScalars)
        case let (.date(a), .date(b)): return a == b
        case let (.data(a), .data(b)): return a == b
        case let (.uuid(a), .uuid(b)): return a == b
        case let (.url(a), .url(b)): return a == b
        case let (.array(a), .array(b)): return a == b
        case let (.dictionary(a), .dictionary(b)): return a == b
        case let (.object(a), .object(b)): return a == b
        default: return false
        }
    }

    /// Consistent with `==`: equal numbers of different types hash alike.
    public func hash(into hasher: inout Hasher) {
        if let number = numericValue {
            // Equal numbers of different types must hash alike.
            hasher.combine(0)
            hasher.combine(number.doubleValue)
            return
        }
        switch self {
        case .null, .nullObject: hasher.combine(1)
        case .string(let v): hasher.combine(2); for scalar in v.unicodeScalars { hasher.combine(scalar) }
        case .date(let v): hasher.combine(3); hasher.combine(v)
        case .data(let v): hasher.combine(4); hasher.combine(v)
        case .uuid(let v): hasher.combine(5); hasher.combine(v)
        case .url(let v): hasher.combine(6); hasher.combine(v)
        case .array(let v): hasher.combine(7); hasher.combine(v)
        case .dictionary(let v): hasher.combine(8); hasher.combine(v)
        case .object(let v): hasher.combine(9); hasher.combine(v)
        case .bool, .integer, .double, .decimal: break
        }
    }
}
