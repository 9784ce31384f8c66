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
        // Exact metatype tests first: a conditional cast (`as? Bool`) would also accept bridged NSNumbers.
        let type = type(of: value)
        if type == Int.self { self = .integer(Int64(value as! Int)) }
        else if type == Double.self { self = .double(value as! Double) }
        else if type == Bool.self { self = .integer((value as! Bool) ? 1 : 0) }
        else if type == Int64.self { self = .integer(value as! Int64) }
        else if type == Int32.self { self = .integer(Int64(value as! Int32)) }
        else if type == Int16.self { self = .integer(Int64(value as! Int16)) }
        else if type == Int8.self { self = .integer(Int64(value as! Int8)) }
        else if type == UInt8.self { self = .integer(Int64(value as! UInt8)) }
        else if type == UInt16.self { self = .integer(Int64(value as! UInt16)) }
        else if type == UInt32.self { self = .integer(Int64(value as! UInt32)) }
        else if type == UInt.self { self = Self.unsigned(UInt64(value as! UInt)) }
        else if type == UInt64.self { self = Self.unsigned(value as! UInt64) }
        else if type == Float.self { self = .double(Double(value as! Float)) }
        else if type == Decimal.self { self = .decimal(value as! Decimal) }
        else if type is NSDecimalNumber.Type { self = .decimal((value as! NSDecimalNumber).decimalValue) }
        else if type is NSNumber.Type { self = Self.classify(value as! NSNumber) }
        else { return nil }
    }

    /// Whether `value` is a boolean, either a Swift `Bool` or an `NSNumber` made from one.
    public static func isBoolean(_ value: Any) -> Bool {
        let type = type(of: value)
        if type == Bool.self { return true }
        // corelibs-foundation makes NSNumber(value: true) an instance of a private boolean subclass.
        return type is NSNumber.Type && String(describing: type).contains("Boolean")
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
