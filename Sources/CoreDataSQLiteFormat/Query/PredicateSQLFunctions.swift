import Foundation
import Predicates
import SQLiteDatabase

/// The SQL functions and collations that compiled predicates and sorts call, registered on a connection.
///
/// Each one delegates to the Predicates module's public evaluator, ``PreparedStringComparison`` or sort
/// descriptor, so SQL and in-memory evaluation share one implementation of folding (`[c]`, `[d]`, `[n]`), `LIKE`
/// and `MATCHES`, and cannot disagree.
public enum PredicateSQLFunctions {
    /// `ocd_compare(operator, options, left, right)`: 1 when the comparison holds, else 0 (never NULL).
    ///
    /// `operator` is the canonical symbol (`'=='`, `'<'`, `'BEGINSWITH'`, `'CONTAINS'`, `'LIKE'`, `'MATCHES'`,
    /// `'IN'`, …); `options` the raw value of ``ComparisonOptions``. NULL operands follow the evaluator: NULL
    /// equals only NULL, and a string operator with a NULL operand is false. The compiler calls it where neither
    /// operand is a constant (two key paths) or the constant is on the left.
    public static let compareFunctionName = "ocd_compare"

    /// The function for `column OP constant` with string options: `ocd_contains(text, constant, options)` and
    /// likewise per operator (`ocd_equal`, `ocd_less_or_equal`, `ocd_beginswith`, `ocd_like`, `ocd_matches`,
    /// `ocd_in`, …); nil for BETWEEN and FUNCTION.
    ///
    /// Each returns what ``compareFunctionName`` returns for the same operands; it prepares the constant once per
    /// statement (kept as SQLite auxiliary data on the constant argument) and decides ASCII rows on their bytes.
    public static func functionName(for operatorType: ComparisonOperator) -> String? {
        switch operatorType {
        case .equalTo: "ocd_equal"
        case .notEqualTo: "ocd_not_equal"
        case .lessThan: "ocd_less"
        case .lessThanOrEqualTo: "ocd_less_or_equal"
        case .greaterThan: "ocd_greater"
        case .greaterThanOrEqualTo: "ocd_greater_or_equal"
        case .beginsWith: "ocd_beginswith"
        case .endsWith: "ocd_endswith"
        case .contains: "ocd_contains"
        case .like: "ocd_like"
        case .matches: "ocd_matches"
        case .in: "ocd_in"
        case .between, .customSelector: nil
        }
    }

    /// The collation that orders text as a sort descriptor with `comparison` does.
    public static func collationName(for comparison: SortComparison) -> String {
        switch comparison {
        case .compare: "ocd_compare"
        case .caseInsensitiveCompare: "ocd_case_insensitive_compare"
        case .localizedCompare: "ocd_localized_compare"
        case .localizedCaseInsensitiveCompare: "ocd_localized_case_insensitive_compare"
        case .localizedStandardCompare: "ocd_localized_standard_compare"
        }
    }

    /// Registers ``compareFunctionName``, the per-operator functions, `ocd_sorts_by_bytes` and one collation per
    /// ``SortComparison`` on `connection`.
    /// A SQLite store calls this when it opens a connection.
    public static func register(on connection: Connection) throws(SQLiteError) {
        let operators = Dictionary(uniqueKeysWithValues: ComparisonOperator.allCases.map { ($0.formatSymbol, $0) })
        try connection.createFunction(name: compareFunctionName, argumentCount: 4, deterministic: true) { arguments in
            guard case .text(let symbol) = arguments[0], let operatorType = operators[symbol],
                  case .integer(let rawOptions) = arguments[1]
            else {
                throw PredicateSQLFunctionError("\(compareFunctionName) needs an operator symbol and integer options")
            }
            let comparison = ComparisonNode(
                .constant(constant(arguments[2])), operatorType, .constant(constant(arguments[3])),
                options: ComparisonOptions(rawValue: UInt(truncatingIfNeeded: rawOptions)))
            do {
                return .integer(try PredicateEvaluator(evaluatedObject: nil).evaluate(comparison) ? 1 : 0)
            } catch {
                throw PredicateSQLFunctionError(String(describing: error))
            }
        }
        for operatorType in ComparisonOperator.allCases {
            guard let name = functionName(for: operatorType) else { continue }
            try connection.createRawFunction(name: name, argumentCount: 3, deterministic: true) { call in
                .integer(try prepared(operatorType, call) ? 1 : 0)
            }
        }
        try connection.createPlainASCIIFunction(name: BinaryTextOrder.functionName)
        for comparison in SortComparison.allCases {
            let descriptor = NSSortDescriptor(key: nil, ascending: true, comparison: comparison)
            if comparison == .compare {
                // The common sort: decided in C on the bytes where they are ASCII (`csqlite_text_order_compare`),
                // by the descriptor elsewhere.
                try connection.createTextOrderCollation(name: collationName(for: comparison)) { left, right in
                    descriptor.compare(String(decoding: left, as: UTF8.self), to: String(decoding: right, as: UTF8.self))
                }
                continue
            }
            try connection.createCollation(name: collationName(for: comparison)) { left, right in
                descriptor.compare(left, to: right)
            }
        }
    }

    /// One row of `ocd_<operator>(text, constant, options)`.
    private static func prepared(_ operatorType: ComparisonOperator, _ call: FunctionCall) throws -> Bool {
        let options = ComparisonOptions(rawValue: UInt(truncatingIfNeeded: call.int64(at: 2)))
        guard call.type(at: 0) == .text, call.type(at: 1) == .text else {
            // NULL, numbers or blobs (SQLite's columns take any type): the evaluator decides, as ocd_compare does.
            do {
                return try PredicateEvaluator.compare(
                    constant(call.value(at: 0)), operatorType, constant(call.value(at: 1)), options: options)
            } catch {
                throw PredicateSQLFunctionError(String(describing: error))
            }
        }
        do {
            let comparison: PreparedStringComparison
            if let kept = call.auxiliaryData(at: 1, as: PreparedStringComparison.self), kept.options == options {
                comparison = kept
            } else {
                let constant = call.withUTF8(at: 1) { String(decoding: $0, as: UTF8.self) }
                comparison = try PreparedStringComparison(operatorType, constant, options: options)
                call.setAuxiliaryData(comparison, at: 1)
            }
            return try call.withUTF8(at: 0) { text throws(PredicateEvaluationError) in try comparison.evaluate(utf8: text) }
        } catch {
            throw PredicateSQLFunctionError(String(describing: error))
        }
    }

    /// A SQLite value as the evaluator's constant: text as a string, numbers as numbers, blobs as data.
    static func constant(_ value: SQLiteValue) -> ConstantValue {
        switch value {
        case .null: .null
        case .integer(let integer): .integer(integer)
        case .real(let real): .double(real)
        case .text(let text): .string(text)
        case .blob(let bytes): .data(Data(bytes))
        }
    }
}

/// A failure inside a predicate function (an invalid regular expression met at run time), reported by SQLite
/// as the failure of the statement.
struct PredicateSQLFunctionError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
