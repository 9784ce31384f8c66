import Foundation
import Predicates
import SQLiteDatabase

/// The SQL functions and collations that compiled predicates and sorts call, registered on a connection.
///
/// Each one delegates to the Predicates module's public evaluator or sort descriptor, so SQL and in-memory
/// evaluation share one implementation of folding (`[c]`, `[d]`, `[n]`), `LIKE` and `MATCHES`, and cannot
/// disagree.
public enum PredicateSQLFunctions {
    /// `ocd_compare(operator, options, left, right)`: 1 when the comparison holds, else 0 (never NULL).
    ///
    /// `operator` is the canonical symbol (`'=='`, `'<'`, `'BEGINSWITH'`, `'CONTAINS'`, `'LIKE'`, `'MATCHES'`,
    /// `'IN'`, …); `options` the raw value of ``ComparisonOptions``. NULL operands follow the evaluator: NULL
    /// equals only NULL, and a string operator with a NULL operand is false.
    public static let compareFunctionName = "ocd_compare"

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

    /// Registers ``compareFunctionName`` and one collation per ``SortComparison`` on `connection`.
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
        for comparison in SortComparison.allCases {
            let descriptor = NSSortDescriptor(key: nil, ascending: true, comparison: comparison)
            try connection.createCollation(name: collationName(for: comparison)) { left, right in
                descriptor.compare(left, to: right)
            }
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
