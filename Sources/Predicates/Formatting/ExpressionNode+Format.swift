import Foundation
import KeyValueCoding

extension ExpressionNode {
    /// Apple's canonical format: key paths with `#` before reserved words, arithmetic infix with the
    /// parentheses its precedence needs, other functions as `name:(arguments)` (so `pages.@count` prints
    /// `count:(pages)`), casts as `CAST(x, "Type")`, constants as ``ConstantValue/predicateFormat``.
    public var predicateFormat: String {
        switch self {
        case .constant(let value):
            return value.predicateFormat
        case .evaluatedObject:
            return "SELF"
        case .variable(let name):
            return "$" + name
        case .keyPath(let path):
            return Self.formatKeyPath(path)
        case .keyPathOnExpression(let base, let path):
            return base.formatted(atLeast: Precedence.postfix) + "." + Self.formatKeyPath(path)
        case .function(let name, let arguments):
            return Self.formatFunction(name, arguments)
        case .customFunction(let receiver, let selector, let arguments):
            let all = [receiver.predicateFormat, ConstantValue.string(selector).predicateFormat] + arguments.map(\.predicateFormat)
            return "FUNCTION(" + all.joined(separator: ", ") + ")"
        case .index(let collection, let selector):
            let index: String
            switch selector {
            case .first: index = "FIRST"
            case .last: index = "LAST"
            case .size: index = "SIZE"
            case .at(let expression): index = expression.predicateFormat
            }
            return collection.formatted(atLeast: Precedence.postfix) + "[" + index + "]"
        case .aggregate(let elements):
            return "{" + elements.map(\.predicateFormat).joined(separator: ", ") + "}"
        case .setOperation(let left, let operation, let right):
            return left.formatted(atLeast: Precedence.setOperation) + " " + operation.rawValue + " "
                + right.formatted(atLeast: Precedence.setOperation + 1)
        case .subquery(let collection, let variable, let predicate):
            return "SUBQUERY(" + collection.predicateFormat + ", $" + variable + ", " + predicate.predicateFormat + ")"
        case .conditional(let condition, let whenTrue, let whenFalse):
            return "TERNARY(" + condition.predicateFormat + ", " + whenTrue.predicateFormat + ", "
                + whenFalse.predicateFormat + ")"
        case .anyKey:
            return "ANYKEY"
        case .fetch(let request, let context, let countOnly):
            return "FETCH(" + request.predicateFormat + ", " + context.predicateFormat + ", " + (countOnly ? "YES" : "NO") + ")"
        }
    }

    /// Binding strengths, loosest first; they mirror the parser's grammar levels.
    enum Precedence {
        static let setOperation = 1
        static let unary = 5
        static let postfix = 6
    }

    /// How tightly this expression binds when printed.
    var precedence: Int {
        switch self {
        case .setOperation: return Precedence.setOperation
        case .function(let name, let arguments):
            if isUnaryMinus(name, arguments) { return Precedence.unary }
            return FunctionCatalog.infixOperators[name]?.precedence ?? Precedence.postfix
        case .constant(let value):
            if let number = value.numericValue, number.doubleValue < 0 || (number.doubleValue == 0 && number.doubleValue.sign == .minus) {
                return Precedence.unary
            }
            return Precedence.postfix
        default: return Precedence.postfix
        }
    }

    func formatted(atLeast required: Int) -> String {
        precedence >= required ? predicateFormat : "(" + predicateFormat + ")"
    }

    /// `from:subtract:(0, x)` for a non-constant `x` is what `-x` parses to.
    private func isUnaryMinus(_ name: String, _ arguments: [ExpressionNode]) -> Bool {
        guard name == "from:subtract:", arguments.count == 2, case .constant(.integer(0)) = arguments[0] else { return false }
        if case .constant(let value) = arguments[1], value.numericValue != nil { return false }
        return true
    }

    private static func formatFunction(_ name: String, _ arguments: [ExpressionNode]) -> String {
        let node = ExpressionNode.function(name, arguments)
        if node.isUnaryMinus(name, arguments) {
            return "-" + arguments[1].formatted(atLeast: Precedence.unary)
        }
        if arguments.count == 2, let infix = FunctionCatalog.infixOperators[name] {
            let rightAssociative = name == "raise:toPower:"
            let left = arguments[0].formatted(atLeast: rightAssociative ? Precedence.unary : infix.precedence)
            let right = arguments[1].formatted(atLeast: rightAssociative ? infix.precedence : infix.precedence + 1)
            return left + " " + infix.symbol + " " + right
        }
        if name == "castObject:toType:", arguments.count == 2 {
            return "CAST(" + arguments[0].predicateFormat + ", " + arguments[1].predicateFormat + ")"
        }
        return name + "(" + arguments.map(\.predicateFormat).joined(separator: ", ") + ")"
    }

    /// A key path with `#` before each component that is a reserved word.
    static func formatKeyPath(_ path: String) -> String {
        path.split(separator: ".", omittingEmptySubsequences: false)
            .map { Keyword.isReserved(String($0)) ? "#" + $0 : String($0) }
            .joined(separator: ".")
    }
}

extension ConstantValue {
    /// The constant as Apple prints it: strings double-quoted with `\"` and `\\` escaped, booleans as `1`
    /// and `0`, integral doubles without a fraction (`10`), `nil`, collections as `{1, 2}`, dates as
    /// `CAST(<seconds since 2001-01-01>, "NSDate")`.
    public var predicateFormat: String {
        switch self {
        case .null: return "nil"
        case .nullObject: return "<null>"
        case .bool(let value): return value ? "1" : "0"
        case .integer(let value): return String(value)
        case .double(let value): return Self.formatNumber(value)
        case .decimal(let value): return value.description
        case .string(let value): return Self.quoted(value)
        case .date(let value): return "CAST(" + Self.formatNumber(value.timeIntervalSinceReferenceDate) + ", \"NSDate\")"
        case .data(let value): return "<" + value.map { String(format: "%02x", $0) }.joined() + ">"
        case .uuid(let value): return Self.quoted(value.uuidString)
        case .url(let value): return Self.quoted(value.absoluteString)
        case .array(let elements): return "{" + elements.map(\.predicateFormat).joined(separator: ", ") + "}"
        case .dictionary(let entries):
            let body = entries.keys.sorted().map { Self.quoted($0) + " = " + entries[$0]!.predicateFormat + ";" }
            return "{" + body.joined(separator: " ") + "}"
        case .object(let object): return object.description
        }
    }

    /// A double without a trailing `.0` when integral; otherwise the shortest text that reads back exactly.
    static func formatNumber(_ value: Double) -> String {
        if value.isFinite, value == value.rounded(), abs(value) < 1e15 {
            return value == 0 ? (value.sign == .minus ? "-0" : "0") : String(Int64(value))
        }
        return "\(value)"
    }

    /// `"text"` with `"`, `\` and control characters escaped so that the lexer reads it back unchanged.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    result += "\\u" + String(format: "%04x", scalar.value)
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}
