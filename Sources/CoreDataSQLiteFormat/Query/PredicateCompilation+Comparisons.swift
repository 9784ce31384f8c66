import CoreDataModel
import Foundation
import Predicates
import SQLiteDatabase

/// Comparisons: `ANY`/`ALL` over to-many relationships, then the operator applied to a column and a constant, two
/// columns, or two constants, with the evaluator's NULL semantics.
extension PredicateCompilation {
    func compile(_ comparison: ComparisonNode) throws(PredicateSQLError) -> SQLFragment {
        let format = comparison.predicateFormat
        if comparison.operatorType == .customSelector {
            throw refusal("FUNCTION comparison", format, "a custom selector comparison calls a method, which SQL cannot run")
        }
        let left = try operand(comparison.left, format: format)
        let right = try operand(comparison.right, format: format)
        if case .toMany = right, comparison.operatorType != .in {
            throw refusal(
                "to-many key path", comparison.right.predicateFormat,
                "a to-many key path on the right is compiled only with IN")
        }
        switch (comparison.modifier, left, right) {
        case (.any, .toMany(let step, let rest), _), (.all, .toMany(let step, let rest), _):
            return try quantified(comparison, step: step, rest: rest, right: right, format: format)
        case (.any, .value, _), (.all, .value, _):
            return try singleValueQuantified(comparison, left: left, right: right, isAll: comparison.modifier == .all)
        case (.any, .constant, .constant), (.all, .constant, .constant):
            do {
                return try PredicateEvaluator(evaluatedObject: nil).evaluate(comparison) ? .alwaysTrue : .alwaysFalse
            } catch {
                throw refusal("comparison", format, error.reason)
            }
        case (.any, .constant, _), (.all, .constant, _):
            throw refusal(
                "\(comparison.modifier == .all ? "ALL" : "ANY") comparison", format,
                "ANY and ALL need a key path on the left")
        case (.direct, .toMany(let step, let rest), _) where comparison.operatorType == .contains && !(rest.first?.hasPrefix("@") ?? false):
            // `items.name CONTAINS x`: the collection contains an element equal to x.
            var equality = comparison
            equality.operatorType = .equalTo
            return try quantified(equality, step: step, rest: rest, right: right, format: format)
        case (.direct, _, .toMany(let step, let rest)):
            // `x IN items.name`: some element equals x.
            return try membership(comparison, left: left, step: step, rest: rest, format: format)
        case (_, .toMany, _):
            throw refusal(
                "to-many key path", comparison.left.predicateFormat,
                "a to-many key path needs ANY, ALL, NONE or an aggregate such as @count")
        default:
            return try direct(comparison.operatorType, comparison.options, left, right, format: format)
        }
    }

    /// `ANY`/`ALL` on a value that is not a collection: the evaluator treats it as a one-element collection, and
    /// nil as an empty one.
    private func singleValueQuantified(
        _ comparison: ComparisonNode, left: Operand, right: Operand, isAll: Bool
    ) throws(PredicateSQLError) -> SQLFragment {
        guard case .value(let column, _) = left else { return .alwaysFalse }
        let test = try direct(comparison.operatorType, comparison.options, left, right, format: comparison.predicateFormat)
        return isAll
            ? "(" + column + " IS NULL OR " + test.parenthesized + ")"
            : "(" + column + " IS NOT NULL AND " + test.parenthesized + ")"
    }

    /// `ANY items.price > 5` as `EXISTS (…)`, `ALL items.price > 5` as `NOT EXISTS (… WHERE (test) IS NOT 1)`.
    private func quantified(
        _ comparison: ComparisonNode, step: ToManyStep, rest: [String], right: Operand, format: String
    ) throws(PredicateSQLError) -> SQLFragment {
        if rest.first?.hasPrefix("@") ?? false {
            throw refusal("\(rest[0]) aggregate", format, "ANY and ALL range over objects, not over an aggregate")
        }
        let source = try correlatedSource(step, format: format)
        // With no key after the relationship, the elements are the related objects: their primary keys.
        let element = rest.isEmpty
            ? objectOperand(of: source.scope)
            : try resolve(keyPath: rest.joined(separator: "."), in: source.scope, format: format, construct: "to-many key path")
        guard case .value = element else {
            throw refusal("to-many key path", comparison.left.predicateFormat, "the key path crosses more than one to-many relationship")
        }
        let test = try direct(comparison.operatorType, comparison.options, element, right, format: format)
        let head = "SELECT 1 FROM \(source.from)\(source.scope.joinClause) WHERE \(source.correlation) AND "
        if comparison.modifier == .all {
            return "NOT EXISTS (" + SQLFragment(head) + test.parenthesized + " IS NOT 1)"
        }
        return "EXISTS (" + SQLFragment(head) + test.parenthesized + ")"
    }

    /// `x IN items.name`: an element of the to-many key path equals x.
    private func membership(
        _ comparison: ComparisonNode, left: Operand, step: ToManyStep, rest: [String], format: String
    ) throws(PredicateSQLError) -> SQLFragment {
        let source = try correlatedSource(step, format: format)
        let element = rest.isEmpty
            ? objectOperand(of: source.scope)
            : try resolve(keyPath: rest.joined(separator: "."), in: source.scope, format: format, construct: "to-many key path")
        guard case .value = element else {
            throw refusal("to-many key path", comparison.right.predicateFormat, "the key path crosses more than one to-many relationship")
        }
        let test = try direct(.equalTo, comparison.options, element, left, format: format)
        return "EXISTS (SELECT 1 FROM \(source.from)\(source.scope.joinClause) WHERE \(source.correlation) AND "
            + test.parenthesized + ")"
    }

    // MARK: Direct comparisons

    /// `left op right` on scalar operands.
    func direct(
        _ operatorType: ComparisonOperator, _ options: ComparisonOptions, _ left: Operand, _ right: Operand,
        format: String
    ) throws(PredicateSQLError) -> SQLFragment {
        switch (left, right) {
        case (.constant(let a), .constant(let b)):
            // Nothing depends on the row: the evaluator decides once.
            do {
                let node = ComparisonNode(.constant(a), operatorType, .constant(b), options: options)
                return try PredicateEvaluator(evaluatedObject: nil).evaluate(node) ? .alwaysTrue : .alwaysFalse
            } catch {
                throw refusal("comparison", format, error.reason)
            }
        case (.value(let column, let kind), .constant(let constant)):
            return try columnVersusConstant(column, kind, operatorType, constant, options, format: format)
        case (.constant(let constant), .value(let column, let kind)):
            if let mirrored = Self.mirrored[operatorType] {
                return try columnVersusConstant(column, kind, mirrored, constant, options, format: format)
            }
            return try constantVersusColumn(constant, column, kind, operatorType, options, format: format)
        case (.value(let a, let kindA), .value(let b, let kindB)):
            return try columnVersusColumn(a, kindA, b, kindB, operatorType, options, format: format)
        default:
            throw refusal("to-many key path", format, "a to-many key path needs ANY, ALL, NONE or an aggregate")
        }
    }

    /// Operators that read the same with their operands swapped, and their swapped form.
    private static let mirrored: [ComparisonOperator: ComparisonOperator] = [
        .equalTo: .equalTo, .notEqualTo: .notEqualTo, .lessThan: .greaterThan, .greaterThan: .lessThan,
        .lessThanOrEqualTo: .greaterThanOrEqualTo, .greaterThanOrEqualTo: .lessThanOrEqualTo,
    ]

    /// A call of the evaluator's comparison for strings: `ocd_compare('OP', options, left, right)`.
    func stringFunction(
        _ operatorType: ComparisonOperator, _ options: ComparisonOptions, _ left: SQLFragment, _ right: SQLFragment
    ) -> SQLFragment {
        cost += Self.functionCost(operatorType, options)
        return "\(PredicateSQLFunctions.compareFunctionName)('\(operatorType.formatSymbol)', \(options.rawValue), "
            + left + ", " + right + ")"
    }

    /// A call of the prepared comparison for `column OP constant`: `ocd_contains(column, ?, options)`, which
    /// prepares the bound constant once per statement.
    func preparedStringFunction(
        _ operatorType: ComparisonOperator, _ options: ComparisonOptions, _ column: SQLFragment, _ constant: SQLiteValue
    ) -> SQLFragment {
        guard let name = PredicateSQLFunctions.functionName(for: operatorType) else {
            return stringFunction(operatorType, options, column, .binding(constant))
        }
        cost += Self.functionCost(operatorType, options)
        return "\(name)(" + column + ", " + .binding(constant) + ", \(options.rawValue))"
    }

    /// Relative costs from the seeds' rules: BEGINSWITH < CONTAINS < LIKE < MATCHES, and folding costs more.
    private static func functionCost(_ operatorType: ComparisonOperator, _ options: ComparisonOptions) -> Int {
        let base: Int
        switch operatorType {
        case .beginsWith: base = 10
        case .endsWith, .contains, .in: base = 15
        case .like: base = 20
        case .matches: base = 30
        default: base = 8
        }
        if options.contains(.normalized) { return base }
        return base + (options.contains(.caseInsensitive) ? 4 : 0) + (options.contains(.diacriticInsensitive) ? 4 : 0)
    }

    private func columnVersusConstant(
        _ column: SQLFragment, _ kind: ValueKind, _ operatorType: ComparisonOperator, _ constant: ConstantValue,
        _ options: ComparisonOptions, format: String
    ) throws(PredicateSQLError) -> SQLFragment {
        // [n] declares the text already normalised: compared literally, like no options.
        let literal = kind != .string || options.isEmpty || options == .normalized
        let stringOptions = kind == .string ? options : []
        switch operatorType {
        case .equalTo, .notEqualTo:
            let isEqual = operatorType == .equalTo
            if constant.isNull { return column + (isEqual ? " IS NULL" : " IS NOT NULL") }
            let value = try encode(constant, as: kind, format: format)
            if !literal { return preparedStringFunction(operatorType, stringOptions, column, value) }
            // IS NOT: a NULL column differs from any constant, as in the evaluator.
            return column + (isEqual ? " = ?" : " IS NOT ?") + SQLFragment("", [value])
        case .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo:
            if constant.isNull { return .alwaysFalse }
            guard kind.isOrdered else { throw unordered(kind, format) }
            let value = try encode(constant, as: kind, format: format)
            // Foundation orders strings with canonical equivalence, which BINARY collation does not.
            if kind == .string { return preparedStringFunction(operatorType, stringOptions, column, value) }
            return column + " \(operatorType.formatSymbol) ?" + SQLFragment("", [value])
        case .between:
            guard case .array(let bounds) = constant, bounds.count == 2 else {
                throw refusal("BETWEEN", format, "BETWEEN needs a collection of two bounds, such as {1, 5}")
            }
            if bounds[0].isNull || bounds[1].isNull { return .alwaysFalse }
            guard kind.isOrdered else { throw unordered(kind, format) }
            let low = try encode(bounds[0], as: kind, format: format)
            let high = try encode(bounds[1], as: kind, format: format)
            if kind == .string {
                return preparedStringFunction(.greaterThanOrEqualTo, stringOptions, column, low) + " AND "
                    + preparedStringFunction(.lessThanOrEqualTo, stringOptions, column, high)
            }
            // Bindings in placeholder order: the column (a subquery may have its own) comes twice.
            return column + " >= " + .binding(low) + " AND " + column + " <= " + .binding(high)
        case .in:
            return try columnIn(column, kind, constant, stringOptions, literal: literal, format: format)
        case .contains:
            if constant.isNull { return .alwaysFalse }
            guard kind == .string else {
                // CONTAINS on a single value: the value itself is the one element.
                return try columnVersusConstant(column, kind, .equalTo, constant, options, format: format)
            }
            let part = try encodeString(constant, operatorType, format: format)
            if part.isEmpty { return .alwaysFalse }
            if literal {
                cost += 3
                return "instr(" + column + ", ?) > 0" + SQLFragment("", [.text(part)])
            }
            return preparedStringFunction(.contains, stringOptions, column, .text(part))
        case .beginsWith, .endsWith, .like, .matches:
            guard kind == .string else {
                throw refusal(
                    "\(operatorType.formatSymbol) comparison", format,
                    "\(operatorType.formatSymbol) applies to strings, and this key path holds \(kind) values")
            }
            if constant.isNull { return .alwaysFalse }
            let text = try encodeString(constant, operatorType, format: format)
            return try stringOperator(column, operatorType, text, options: stringOptions, literal: literal, format: format)
        case .customSelector:
            throw refusal("FUNCTION comparison", format, "a custom selector comparison calls a method, which SQL cannot run")
        }
    }

    private func stringOperator(
        _ column: SQLFragment, _ operatorType: ComparisonOperator, _ text: String, options: ComparisonOptions,
        literal: Bool, format: String
    ) throws(PredicateSQLError) -> SQLFragment {
        switch operatorType {
        case .beginsWith where literal:
            if text.isEmpty { return .alwaysFalse }
            // A range on the BINARY order of UTF-8, which is code point order: the strings that start with the
            // prefix are those from the prefix up to its successor, so an index on the column serves it.
            let upper: SQLiteValue = PredicateSQLCompiler.prefixSuccessor(text).map { .text($0) } ?? .blob([])
            return column + " >= " + .binding(.text(text)) + " AND " + column + " < " + .binding(upper)
        case .endsWith where literal:
            if text.isEmpty { return .alwaysFalse }
            cost += 3
            // substr counts code points, as the literal suffix test does.
            return "substr(" + column + ", ?) = ?" + SQLFragment("", [.integer(-Int64(text.unicodeScalars.count)), .text(text)])
        case .matches:
            // An invalid expression fails here, at compile time, rather than midway through the rows.
            do {
                let probe = ComparisonNode(.constant(.string("")), .matches, .constant(.string(text)), options: options)
                _ = try PredicateEvaluator(evaluatedObject: nil).evaluate(probe)
            } catch {
                throw refusal("MATCHES comparison", format, error.reason)
            }
            return preparedStringFunction(.matches, options, column, .text(text))
        default:
            if text.isEmpty && operatorType != .like { return .alwaysFalse }
            return preparedStringFunction(operatorType, options, column, .text(text))
        }
    }

    private func columnIn(
        _ column: SQLFragment, _ kind: ValueKind, _ constant: ConstantValue, _ options: ComparisonOptions,
        literal: Bool, format: String
    ) throws(PredicateSQLError) -> SQLFragment {
        switch constant {
        case .null:
            return .alwaysFalse
        case .string(let text) where kind == .string:
            // `name IN "some text"`: the name is a substring of the text.
            return preparedStringFunction(.in, options, column, .text(text))
        default:
            let elements: [ConstantValue]
            switch constant {
            case .array(let values): elements = values
            case .dictionary(let entries): elements = Array(entries.values)
            default: elements = [constant]
            }
            if elements.isEmpty { return .alwaysFalse }
            let includesNull = elements.contains { $0.isNull }
            var values: [SQLiteValue] = []
            for element in elements where !element.isNull {
                // An object of another entity tree is none of the column's objects: it drops out of the list, as an
                // object ID comparison drops it (CoreDataPlus batch-faults a mixed list one entity at a time).
                if case .object(let rootName) = kind, isObject(element, outsideTreeOf: rootName) { continue }
                values.append(try encode(element, as: kind, format: format))
            }
            if values.isEmpty && !includesNull { return .alwaysFalse }
            if !literal {
                let tests = values.map { preparedStringFunction(.equalTo, options, column, $0) }
                return SQLFragment.joined(tests, separator: " OR ")
            }
            var terms: [SQLFragment] = []
            if values.count > Self.inlineListLimit, let array = Self.jsonArray(values) {
                // One binding for a long list: SQLite limits the number of parameters of a statement.
                terms.append(column + " IN (SELECT value FROM json_each(?))" + SQLFragment("", [.text(array)]))
            } else if !values.isEmpty {
                let placeholders = Array(repeating: "?", count: values.count).joined(separator: ", ")
                terms.append(column + " IN (\(placeholders))" + SQLFragment("", values))
            }
            if includesNull { terms.append(column + " IS NULL") }
            return SQLFragment.joined(terms, separator: " OR ")
        }
    }

    /// The longest `IN` list written as one placeholder per element.
    static let inlineListLimit = 500

    /// Text, integers and finite reals as a JSON array, for `json_each`; nil when a value has no JSON form.
    static func jsonArray(_ values: [SQLiteValue]) -> String? {
        var elements: [String] = []
        elements.reserveCapacity(values.count)
        for value in values {
            switch value {
            case .integer(let integer): elements.append(String(integer))
            case .real(let real) where real.isFinite: elements.append("\(real)")
            case .text(let text):
                guard let encoded = try? JSONEncoder().encode(text) else { return nil }
                elements.append(String(decoding: encoded, as: UTF8.self))
            default: return nil
            }
        }
        return "[" + elements.joined(separator: ",") + "]"
    }

    private func constantVersusColumn(
        _ constant: ConstantValue, _ column: SQLFragment, _ kind: ValueKind, _ operatorType: ComparisonOperator,
        _ options: ComparisonOptions, format: String
    ) throws(PredicateSQLError) -> SQLFragment {
        let stringOptions = kind == .string ? options : []
        switch operatorType {
        case .in:
            // `x IN name`: a substring test for strings; for any other single value, equality.
            if constant.isNull { return .alwaysFalse }
            guard kind == .string else {
                return try columnVersusConstant(column, kind, .equalTo, constant, options, format: format)
            }
            let part = try encodeString(constant, operatorType, format: format)
            // `x IN name` is `name CONTAINS x`, with the constant on the right where it is prepared once.
            return preparedStringFunction(.contains, stringOptions, column, .text(part))
        case .beginsWith, .endsWith, .contains, .like, .matches:
            guard kind == .string else {
                throw refusal(
                    "\(operatorType.formatSymbol) comparison", format,
                    "\(operatorType.formatSymbol) applies to strings, and this key path holds \(kind) values")
            }
            if constant.isNull { return .alwaysFalse }
            let text = try encodeString(constant, operatorType, format: format)
            // `"text" CONTAINS name` is `name IN "text"`; the other operators have no mirrored form.
            if operatorType == .contains { return preparedStringFunction(.in, stringOptions, column, .text(text)) }
            return stringFunction(operatorType, stringOptions, .binding(.text(text)), column)
        default:
            throw refusal(
                "\(operatorType.formatSymbol) comparison", format,
                "a constant on the left of \(operatorType.formatSymbol) is not compiled to SQL; put the key path on the left")
        }
    }

    private func columnVersusColumn(
        _ left: SQLFragment, _ leftKind: ValueKind, _ right: SQLFragment, _ rightKind: ValueKind,
        _ operatorType: ComparisonOperator, _ options: ComparisonOptions, format: String
    ) throws(PredicateSQLError) -> SQLFragment {
        guard leftKind == rightKind else {
            throw refusal(
                "comparison", format, "it compares \(leftKind) values with \(rightKind) values, which never match")
        }
        let literal = leftKind != .string || options.isEmpty || options == .normalized
        let stringOptions = leftKind == .string ? options : []
        switch operatorType {
        case .equalTo where literal:
            // IS: two NULLs are equal, as nil equals nil in the evaluator.
            return left + " IS " + right
        case .notEqualTo where literal:
            return left + " IS NOT " + right
        case .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo:
            guard leftKind.isOrdered else { throw unordered(leftKind, format) }
            if leftKind == .string { return stringFunction(operatorType, stringOptions, left, right) }
            return left + " \(operatorType.formatSymbol) " + right
        case .equalTo, .notEqualTo, .beginsWith, .endsWith, .contains, .like, .matches, .in:
            guard leftKind == .string else {
                throw refusal(
                    "\(operatorType.formatSymbol) comparison", format,
                    "\(operatorType.formatSymbol) between two \(leftKind) key paths is not compiled to SQL")
            }
            return stringFunction(operatorType, stringOptions, left, right)
        case .between, .customSelector:
            throw refusal(
                "\(operatorType.formatSymbol) comparison", format, "the bounds of BETWEEN must be constants")
        }
    }

    private func unordered(_ kind: ValueKind, _ format: String) -> PredicateSQLError {
        refusal("comparison", format, "\(kind) values have no order; only ==, != and IN apply to them")
    }
}
