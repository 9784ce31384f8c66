import Foundation
import KeyValueCoding

/// Evaluates predicates and expressions in memory against key-value-coding objects.
///
/// Semantics (Foundation's, where Apple documents them): nil equals only nil and orders with nothing;
/// numbers of any type compare by value; strings compare literally unless `[c]` or `[d]` ask for folding
/// (`[n]` compares literally); `ANY`/`ALL` range over the left collection; inside `SUBQUERY` the iteration
/// variable is the element and bare key paths read the outer object.
public struct PredicateEvaluator {
    /// The object `SELF` and bare key paths refer to.
    public var evaluatedObject: Any?
    /// Values of `$variables`.
    public var variables: [String: ConstantValue]

    /// Makes an evaluator for `object` with `variables` bound.
    public init(evaluatedObject: Any?, variables: [String: Any] = [:]) {
        self.evaluatedObject = evaluatedObject
        self.variables = variables.mapValues { ConstantValue(any: $0) }
    }

    /// Whether `predicate` holds for the evaluated object.
    public func evaluate(_ predicate: PredicateNode) throws(PredicateEvaluationError) -> Bool {
        switch predicate {
        case .constant(let value):
            return value
        case .comparison(let comparison):
            return try evaluate(comparison)
        case .and(let subpredicates):
            for subpredicate in subpredicates where try !evaluate(subpredicate) { return false }
            return true
        case .or(let subpredicates):
            for subpredicate in subpredicates where try evaluate(subpredicate) { return true }
            return false
        case .not(let subpredicate):
            return try !evaluate(subpredicate)
        case .block(let block):
            return block.condition(evaluatedObject, variables.mapValues { $0.anyValue ?? NSNull() })
        }
    }

    /// Applies one comparison operator to two values with the evaluator's semantics (string folding, LIKE,
    /// MATCHES, membership, nil handling), without modifiers.
    ///
    /// The SQLite store registers its custom SQL functions on top of this, so that a fetch and an in-memory
    /// evaluation agree (the predicate reference asks for one shared semantics).
    public static func compare(
        _ left: ConstantValue, _ operatorType: ComparisonOperator, _ right: ConstantValue, options: ComparisonOptions = []
    ) throws(PredicateEvaluationError) -> Bool {
        try ValueComparison.test(left, operatorType, right, options: options)
    }

    /// Whether a comparison holds, applying its `ANY`/`ALL` modifier to the left operand.
    public func evaluate(_ comparison: ComparisonNode) throws(PredicateEvaluationError) -> Bool {
        let left = try value(of: comparison.left)
        let right = try value(of: comparison.right)
        switch comparison.modifier {
        case .direct:
            return try ValueComparison.test(left, comparison.operatorType, right, options: comparison.options)
        case .any:
            for element in ValueComparison.elements(of: left)
            where try ValueComparison.test(element, comparison.operatorType, right, options: comparison.options) {
                return true
            }
            return false
        case .all:
            for element in ValueComparison.elements(of: left)
            where try !ValueComparison.test(element, comparison.operatorType, right, options: comparison.options) {
                return false
            }
            return true
        }
    }
}
