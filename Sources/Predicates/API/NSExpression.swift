import Foundation

/// An expression in a predicate, Apple's `NSExpression` (unavailable in Foundation on Linux).
///
/// The expression is held as an ``ExpressionNode`` value in ``expressionNode``; the accessors present it with
/// Apple's names. As in Apple's API, reading an accessor that does not apply to the expression's type
/// (``keyPath`` of a constant, say) is a programmer error and stops the program.
open class NSExpression: NSObject, @unchecked Sendable {
    // Unchecked: the only stored state is an immutable Sendable value.
    /// Apple's expression kinds, with their raw values.
    public typealias ExpressionType = Predicates.ExpressionType

    /// The expression's syntax tree.
    public let expressionNode: ExpressionNode

    /// Wraps a syntax tree.
    public init(expressionNode: ExpressionNode) {
        self.expressionNode = expressionNode
        super.init()
    }

    /// Parses an expression format string such as `"pages.@count"`; a malformed format stops the program,
    /// as Apple raises. Use ``init(parsing:argumentArray:)`` for untrusted text.
    public convenience init(format expressionFormat: String, argumentArray arguments: [Any]) {
        do {
            try self.init(parsing: expressionFormat, argumentArray: arguments.map { $0 as Any? })
        } catch {
            preconditionFailure("Unable to parse the format string: \(error.caretDiagnostic)")
        }
    }

    /// Parses an expression format string with variadic arguments.
    public convenience init(format expressionFormat: String, _ arguments: Any?...) {
        do {
            try self.init(parsing: expressionFormat, argumentArray: arguments)
        } catch {
            preconditionFailure("Unable to parse the format string: \(error.caretDiagnostic)")
        }
    }

    /// Parses an expression format string, throwing a ``PredicateSyntaxError`` when it is malformed.
    public convenience init(parsing expressionFormat: String, argumentArray arguments: [Any?] = []) throws(PredicateSyntaxError) {
        self.init(expressionNode: try PredicateParser.parseExpression(expressionFormat, arguments: arguments))
    }

    /// A constant; collections become aggregates of constants, as `%@` arguments do.
    public convenience init(forConstantValue value: Any?) {
        self.init(expressionNode: Parser.expression(forObjectArgument: value))
    }

    /// `SELF`.
    public class func expressionForEvaluatedObject() -> NSExpression { NSExpression(expressionNode: .evaluatedObject) }

    /// `ANYKEY`.
    public class func expressionForAnyKey() -> NSExpression { NSExpression(expressionNode: .anyKey) }

    /// A key path from the evaluated object (`@count` at its end becomes `count:(…)`).
    public convenience init(forKeyPath keyPath: String) {
        self.init(expressionNode: .canonicalKeyPath(keyPath))
    }

    /// `$name`.
    public convenience init(forVariable name: String) {
        self.init(expressionNode: .variable(name))
    }

    /// A function such as `"sum:"` applied to `parameters`, which are `NSExpression`s.
    public convenience init(forFunction name: String, arguments parameters: [Any]) {
        self.init(expressionNode: .function(name, parameters.map(Self.node)))
    }

    /// `{…}` of `subexpressions`, which are `NSExpression`s.
    public convenience init(forAggregate subexpressions: [Any]) {
        self.init(expressionNode: .aggregate(subexpressions.map(Self.node)))
    }

    /// `SUBQUERY(expression, $variable, predicate)`.
    public convenience init(forSubquery expression: NSExpression, usingIteratorVariable variable: String, predicate: NSPredicate) {
        self.init(expressionNode: .subquery(collection: expression.expressionNode, variable: variable, predicate: predicate.predicateNode))
    }

    /// `TERNARY(predicate, trueExpression, falseExpression)`.
    public convenience init(forConditional predicate: NSPredicate, trueExpression: NSExpression, falseExpression: NSExpression) {
        self.init(expressionNode: .conditional(predicate.predicateNode, trueExpression.expressionNode, falseExpression.expressionNode))
    }

    /// `left UNION right`.
    public convenience init(forUnionSet left: NSExpression, with right: NSExpression) {
        self.init(expressionNode: .setOperation(left.expressionNode, .union, right.expressionNode))
    }

    /// `left INTERSECT right`.
    public convenience init(forIntersectSet left: NSExpression, with right: NSExpression) {
        self.init(expressionNode: .setOperation(left.expressionNode, .intersect, right.expressionNode))
    }

    /// `left MINUS right`.
    public convenience init(forMinusSet left: NSExpression, with right: NSExpression) {
        self.init(expressionNode: .setOperation(left.expressionNode, .minus, right.expressionNode))
    }

    /// `FUNCTION(target, "selectorName", arguments…)`: a method call, evaluable only for a few selectors.
    public convenience init(forFunction target: NSExpression, selectorName name: String, arguments parameters: [Any]?) {
        self.init(expressionNode: .customFunction(
            receiver: target.expressionNode, selector: name, arguments: (parameters ?? []).map(Self.node)))
    }

    /// An `NSExpression`'s node; anything else is taken as a constant.
    private static func node(_ value: Any) -> ExpressionNode {
        (value as? NSExpression)?.expressionNode ?? Parser.expression(forObjectArgument: value)
    }

    /// The canonical format string (for example `count:(pages)` for `pages.@count`).
    public var predicateFormat: String { expressionNode.predicateFormat }

    /// The canonical format string.
    open override var description: String { predicateFormat }

    /// Equal when the syntax trees are equal.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? NSExpression else { return false }
        return expressionNode == other.expressionNode
    }

    /// Consistent with ``isEqual(_:)``.
    open override var hash: Int { expressionNode.hashValue }

    /// The value of the expression for `object`; `$variables` are read from `context`. Numbers come back as
    /// `NSNumber`, as Apple's do, so they cast to any numeric type that holds them exactly (`"4 + 5 - 2**3"` gives a
    /// number that is `as? Int` 1).
    ///
    /// An evaluation failure (unbound variable, unsupported function) stops the program, as Apple raises;
    /// use ``PredicateEvaluator`` to handle such failures.
    open func expressionValue(with object: Any?, context: NSMutableDictionary?) -> Any? {
        var variables: [String: Any] = [:]
        for (key, value) in context ?? [:] { variables[String(describing: key)] = value }
        do {
            return try PredicateEvaluator(evaluatedObject: object, variables: variables).value(of: expressionNode).objectValue
        } catch {
            preconditionFailure("Cannot evaluate expression \(predicateFormat): \(error.reason)")
        }
    }
}
