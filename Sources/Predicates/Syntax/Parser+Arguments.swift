import Foundation
import KeyValueCoding

extension Parser {
    /// The expression a `%` conversion stands for, consuming the next argument (except for `%%`).
    mutating func formatArgumentExpression(_ conversion: FormatConversion) throws(PredicateSyntaxError) -> ExpressionNode {
        switch conversion {
        case .percent:
            advance()
            return .constant(.string("%"))
        case .keyPath:
            return .canonicalKeyPath(try keyPathArgument())
        case .object:
            let value = try nextArgument(for: "%@")
            return Self.expression(forObjectArgument: value)
        case .integer(let spec):
            let value = try nextArgument(for: spec)
            guard let value, let number = NumericValue(value), case .integer(let integer) = number else {
                throw argumentError(spec: spec, wanted: "an integer", got: value)
            }
            return .constant(.integer(integer))
        case .floatingPoint(let spec):
            let value = try nextArgument(for: spec)
            guard let value, let number = NumericValue(value) else {
                throw argumentError(spec: spec, wanted: "a number", got: value)
            }
            return .constant(.double(number.doubleValue))
        case .string:
            let value = try nextArgument(for: "%s")
            guard let text = value.flatMap(Self.string) else { throw argumentError(spec: "%s", wanted: "a string", got: value) }
            return .constant(.string(text))
        }
    }

    /// The key path a `%K` stands for; the token is consumed.
    mutating func keyPathArgument() throws(PredicateSyntaxError) -> String {
        let value = try nextArgument(for: "%K")
        guard let path = value.flatMap(Self.string), !path.isEmpty else {
            throw argumentError(spec: "%K", wanted: "a non-empty key path string", got: value)
        }
        return path
    }

    /// Takes the argument for the current conversion token and advances past the token.
    private mutating func nextArgument(for spec: String) throws(PredicateSyntaxError) -> Any? {
        guard argumentIndex < arguments.count else {
            throw PredicateSyntaxError(
                format: format, offset: current.offset, expected: "an argument for \(spec)",
                found: "only \(arguments.count) argument\(arguments.count == 1 ? "" : "s")")
        }
        let value = arguments[argumentIndex]
        argumentIndex += 1
        advance()
        return value
    }

    /// The error for an argument of the wrong type; it points at the conversion just consumed.
    private func argumentError(spec: String, wanted: String, got value: Any?) -> PredicateSyntaxError {
        let token = tokens[max(index - 1, 0)]
        let found = value.map { "\(type(of: $0)) \(String(describing: $0).prefix(40))" } ?? "nil"
        return PredicateSyntaxError(format: format, offset: token.offset,
                                    expected: "\(wanted) for \(spec) (argument \(argumentIndex))", found: found)
    }

    private static func string(_ value: Any) -> String? {
        switch value {
        case let text as String: text
        case let text as NSString: text as String
        case let text as Substring: String(text)
        default: nil
        }
    }

    /// `%@`: a collection becomes an aggregate of constants (printed `{1, 2}`, parsed back the same);
    /// anything else a constant.
    static func expression(forObjectArgument value: Any?) -> ExpressionNode {
        // `NSNull()` stays apart from nil only to print as Apple does (`<null>`, where nil prints `nil`).
        // (A metatype comparison: `is NSNull` is a general cast, slow on Linux.)
        if let value, type(of: value) == NSNull.self { return .constant(.nullObject) }
        // An expression given for `%@` stands in the predicate as itself, as Apple's does (a having predicate names an
        // expression description as `NSExpression(forVariable: "count")`).
        if let expression = value as? NSExpression { return expression.expressionNode }
        switch ConstantValue(any: value) {
        case .array(let elements): return .aggregate(elements.map { expression(forObjectArgument: $0) })
        case let constant: return .constant(constant)
        }
    }
}
