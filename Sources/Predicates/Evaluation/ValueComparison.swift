import Foundation
import KeyValueCoding

/// The comparison operators applied to two evaluated values.
enum ValueComparison {
    /// The elements an `ANY`/`ALL` ranges over: an array's elements, a dictionary's values, nothing for nil,
    /// and a single value as itself.
    static func elements(of value: ConstantValue) -> [ConstantValue] {
        switch value {
        case .null: []
        case .array(let elements): elements
        case .dictionary(let entries): Array(entries.values)
        default: [value]
        }
    }

    static func test(
        _ left: ConstantValue, _ operatorType: ComparisonOperator, _ right: ConstantValue, options: ComparisonOptions
    ) throws(PredicateEvaluationError) -> Bool {
        switch operatorType {
        case .equalTo: return equal(left, right, options: options)
        case .notEqualTo: return !equal(left, right, options: options)
        case .lessThan: return order(left, right, options: options) == .orderedAscending
        case .lessThanOrEqualTo: return [.orderedAscending, .orderedSame].contains(order(left, right, options: options))
        case .greaterThan: return order(left, right, options: options) == .orderedDescending
        case .greaterThanOrEqualTo: return [.orderedDescending, .orderedSame].contains(order(left, right, options: options))
        case .beginsWith, .endsWith, .like, .matches:
            guard case .string(let text) = left, case .string(let pattern) = right else { return false }
            switch operatorType {
            case .beginsWith: return StringComparison.hasPrefix(text, pattern, options: options)
            case .endsWith: return StringComparison.hasSuffix(text, pattern, options: options)
            case .like: return StringComparison.like(text, pattern, options: options)
            default: return try StringComparison.matches(text, pattern, options: options)
            }
        case .contains:
            if case .string(let text) = left, case .string(let part) = right {
                return StringComparison.contains(text, part, options: options)
            }
            if case .null = left { return false }
            return elements(of: left).contains { equal($0, right, options: options) }
        case .in:
            if case .string(let text) = right, case .string(let part) = left {
                return StringComparison.contains(text, part, options: options)
            }
            if case .null = right { return false }
            return elements(of: right).contains { equal(left, $0, options: options) }
        case .between:
            guard case .array(let bounds) = right, bounds.count == 2 else {
                throw PredicateEvaluationError("BETWEEN needs a collection of two bounds, got \(right.predicateFormat)")
            }
            let low = order(left, bounds[0], options: options), high = order(left, bounds[1], options: options)
            return (low == .orderedDescending || low == .orderedSame) && (high == .orderedAscending || high == .orderedSame)
        case .customSelector:
            throw PredicateEvaluationError("custom selector comparisons cannot be evaluated on Linux")
        }
    }

    /// Equality: nil only equals nil; numbers by value; strings per the options; collections element-wise.
    static func equal(_ left: ConstantValue, _ right: ConstantValue, options: ComparisonOptions) -> Bool {
        switch (left, right) {
        case let (.string(a), .string(b)): return StringComparison.equal(a, b, options: options)
        case let (.array(a), .array(b)):
            return a.count == b.count && zip(a, b).allSatisfy { equal($0, $1, options: options) }
        default: return left == right
        }
    }

    /// Ordering of two numbers, two strings or two dates; nil for any other pair (including nil operands).
    static func order(_ left: ConstantValue, _ right: ConstantValue, options: ComparisonOptions) -> ComparisonResult? {
        if let a = left.numericValue, let b = right.numericValue { return NumericValue.compare(a, b) }
        switch (left, right) {
        case let (.string(a), .string(b)): return StringComparison.compare(a, b, options: options)
        case let (.date(a), .date(b)): return a.compare(b)
        default: return nil
        }
    }
}
