import Foundation

/// A number read from an untyped value, keeping integers, floating point and decimals apart.
///
/// Exists because untyped values on Linux mislead: `(NSNumber(value: 1) as Any) is Bool` is true and
/// `AnyHashable(1) == AnyHashable(1.0)`. Classification here checks exact dynamic types first.
public enum NumericValue: Sendable, Hashable {
    case integer(Int64)
    case double(Double)
    case decimal(Decimal)

    /// Classifies `value`; nil when it is not a number. Booleans are numbers (0 and 1), as `NSNumber` makes them.
    public init?(_ value: Any) {
        switch value {
        case let v as Bool where type(of: value) == Bool.self: self = .integer(v ? 1 : 0)
        case let v as Int where type(of: value) == Int.self: self = .integer(Int64(v))
        case let v as Int8 where type(of: value) == Int8.self: self = .integer(Int64(v))
        case let v as Int16 where type(of: value) == Int16.self: self = .integer(Int64(v))
        case let v as Int32 where type(of: value) == Int32.self: self = .integer(Int64(v))
        case let v as Int64 where type(of: value) == Int64.self: self = .integer(v)
        case let v as UInt8 where type(of: value) == UInt8.self: self = .integer(Int64(v))
        case let v as UInt16 where type(of: value) == UInt16.self: self = .integer(Int64(v))
        case let v as UInt32 where type(of: value) == UInt32.self: self = .integer(Int64(v))
        case let v as UInt where type(of: value) == UInt.self: self = Self.unsigned(UInt64(v))
        case let v as UInt64 where type(of: value) == UInt64.self: self = Self.unsigned(v)
        case let v as Double where type(of: value) == Double.self: self = .double(v)
        case let v as Float where type(of: value) == Float.self: self = .double(Double(v))
        case let v as Decimal where type(of: value) == Decimal.self: self = .decimal(v)
        case let v as NSDecimalNumber: self = .decimal(v.decimalValue)
        case let v as NSNumber where type(of: value) is NSNumber.Type: self = Self.classify(v)
        default: return nil
        }
    }

    /// Whether `value` is a boolean, either a Swift `Bool` or an `NSNumber` made from one.
    public static func isBoolean(_ value: Any) -> Bool {
        if type(of: value) == Bool.self { return true }
        if let number = value as? NSNumber, type(of: value) is NSNumber.Type {
            return String(describing: type(of: number)).contains("Boolean")
        }
        return false
    }

    /// The value as a `Double` (decimals through their exact description, see the architecture notes).
    public var doubleValue: Double {
        switch self {
        case .integer(let v): return Double(v)
        case .double(let v): return v
        case .decimal(let v): return Double(v.description) ?? Double(truncating: v as NSDecimalNumber)
        }
    }

    /// The value as a `Decimal`.
    public var decimalValue: Decimal {
        switch self {
        case .integer(let v): return Decimal(v)
        case .double(let v): return Decimal(v)
        case .decimal(let v): return v
        }
    }

    /// Orders two numbers, exactly for two integers or two decimals and through `Double` otherwise.
    public static func compare(_ lhs: NumericValue, _ rhs: NumericValue) -> ComparisonResult {
        switch (lhs, rhs) {
        case let (.integer(a), .integer(b)): return a < b ? .orderedAscending : (a > b ? .orderedDescending : .orderedSame)
        case let (.decimal(a), .decimal(b)): return a < b ? .orderedAscending : (a > b ? .orderedDescending : .orderedSame)
        default:
            let a = lhs.doubleValue, b = rhs.doubleValue
            return a < b ? .orderedAscending : (a > b ? .orderedDescending : .orderedSame)
        }
    }

    /// The value as `Int`, `Double` or `Decimal`.
    public var anyValue: Any {
        switch self {
        case .integer(let v): return Int(exactly: v) ?? v
        case .double(let v): return v
        case .decimal(let v): return v
        }
    }

    /// The sum: an integer while every term is one and it fits, a decimal when decimals and integers are mixed,
    /// a double as soon as a double takes part. The empty sum is the integer 0.
    public static func sum(_ numbers: [NumericValue]) -> NumericValue {
        var integerSum: Int64 = 0
        var exact = true
        for number in numbers {
            guard case .integer(let v) = number else { exact = false; break }
            let (result, overflow) = integerSum.addingReportingOverflow(v)
            if overflow { exact = false; break }
            integerSum = result
        }
        if exact { return .integer(integerSum) }
        if !numbers.contains(where: { if case .double = $0 { true } else { false } }) {
            return .decimal(numbers.reduce(Decimal(0)) { $0 + $1.decimalValue })
        }
        return .double(numbers.reduce(0.0) { $0 + $1.doubleValue })
    }

    private static func unsigned(_ v: UInt64) -> NumericValue {
        v <= UInt64(Int64.max) ? .integer(Int64(v)) : .double(Double(v))
    }

    private static func classify(_ number: NSNumber) -> NumericValue {
        switch String(cString: number.objCType) {
        case "f", "d": return .double(number.doubleValue)
        case "Q", "L": return unsigned(number.uint64Value)
        default: return .integer(number.int64Value)
        }
    }
}
