import Foundation

extension AttributeValue {
    /// The value as a `Wanted`, or nil when it is of another type: no boxing into `Any` and no runtime cast once the
    /// call is specialised for `Wanted` (each branch casts a value of one exact type, which the compiler resolves).
    /// Integers also convert to `Int`, `Int32` and `Int16` when they fit exactly, and floats to `Double`, as an
    /// `NSNumber` in Apple's results does; a `Wanted` that is an `Optional` of the stored type gets the value wrapped.
    @inlinable
    public func value<Wanted>(as _: Wanted.Type) -> Wanted? {
        switch self {
        case .integer(let value): return Self.integer(value, as: Wanted.self)
        case .double(let value): return value as? Wanted
        case .float(let value): return value as? Wanted ?? Double(value) as? Wanted
        case .decimal(let value): return value as? Wanted
        case .string(let value): return value as? Wanted
        case .boolean(let value): return value as? Wanted
        case .date(let value): return value as? Wanted
        case .data(let value): return value as? Wanted
        case .uuid(let value): return value as? Wanted
        case .uri(let value): return value as? Wanted
        }
    }

    /// An integer as a `Wanted`: itself as `Int64`, and as `Int`, `Int32` or `Int16` when it fits exactly (also
    /// wrapped, for an `Optional` of those); nil for any other type or when it does not fit.
    @inlinable
    public static func integer<Wanted>(_ value: Int64, as _: Wanted.Type) -> Wanted? {
        if Wanted.self == Int64.self || Wanted.self == Int64?.self { return value as? Wanted }
        if Wanted.self == Int.self || Wanted.self == Int?.self { return Int(exactly: value).flatMap { $0 as? Wanted } }
        if Wanted.self == Int32.self || Wanted.self == Int32?.self { return Int32(exactly: value).flatMap { $0 as? Wanted } }
        if Wanted.self == Int16.self || Wanted.self == Int16?.self { return Int16(exactly: value).flatMap { $0 as? Wanted } }
        return value as? Wanted
    }
}
