/// An expression as a Sendable value: the data behind ``NSExpression``.
///
/// Canonical choices the parser makes (so that each expression has one form, and printing round-trips):
/// - `SELF.name` is `.keyPath("name")`; `SELF` alone is `.evaluatedObject`.
/// - `a.b.@count` is `.function("count:", [.keyPath("a.b")])`, as Apple canonicalises it (printed `count:(a.b)`).
/// - Arithmetic is a function with Apple's selector name: `a + b` is `.function("add:to:", [a, b])`;
///   unary minus on a non-constant `x` is `.function("from:subtract:", [0, x])`; `-5` is the constant -5.
/// - `CAST(x, "Type")` is `.function("castObject:toType:", [x, "Type"])`, except that a number cast to
///   `"NSDate"` is folded into a date constant.
/// - `{…}` is `.aggregate`, also for a collection passed as `%@`.
public indirect enum ExpressionNode: Sendable, Hashable {
    /// A literal, a `%@` argument or a substituted variable.
    case constant(ConstantValue)
    /// `SELF`: the object being evaluated.
    case evaluatedObject
    /// `$name`: a variable, bound by substitution, by evaluation or by a `SUBQUERY`.
    case variable(String)
    /// A dotted key path read from the evaluated object, such as `"author.name"` or `"books.@avg.price"`.
    case keyPath(String)
    /// A key path read from the value of another expression: `$x.name`, `SUBQUERY(…).@count`, `(a).b`.
    case keyPathOnExpression(ExpressionNode, String)
    /// A function by its selector name (`"sum:"`, `"add:to:"`, `"now"`, `"lowercase:"`, `"castObject:toType:"`).
    /// ``FunctionCatalog`` lists the names and their argument counts.
    case function(String, [ExpressionNode])
    /// `FUNCTION(receiver, "selector", arguments…)`: a method call on the receiver, evaluable only for the
    /// selectors the evaluator knows.
    case customFunction(receiver: ExpressionNode, selector: String, arguments: [ExpressionNode])
    /// `collection[index]`, `collection[FIRST]`, `[LAST]`, `[SIZE]`, or `dictionary[key]`.
    case index(ExpressionNode, IndexSelector)
    /// `{a, b, …}`.
    case aggregate([ExpressionNode])
    /// `a UNION b`, `a INTERSECT b`, `a MINUS b`.
    case setOperation(ExpressionNode, SetOperation, ExpressionNode)
    /// `SUBQUERY(collection, $variable, predicate)`: the elements for which the predicate holds.
    /// Inside the predicate `$variable` is the element and bare key paths read the outer object.
    case subquery(collection: ExpressionNode, variable: String, predicate: PredicateNode)
    /// `TERNARY(predicate, whenTrue, whenFalse)`.
    case conditional(PredicateNode, ExpressionNode, ExpressionNode)
    /// `ANYKEY`: any key of the evaluated object (Spotlight); parsed and printed, not evaluable.
    case anyKey
    /// `FETCH(request, context, countOnly)`: Core Data's fetch request expression, what a fetch request finds in a
    /// managed object context (or how many when `countOnly`); a mapping model's source expressions are written so.
    /// The context value must be an ``ExpressionFetchContext`` for the expression to evaluate.
    case fetch(request: ExpressionNode, context: ExpressionNode, countOnly: Bool)

    /// A key path from the evaluated object in canonical form: a trailing `@count` becomes `count:(…)`.
    public static func canonicalKeyPath(_ path: String) -> ExpressionNode {
        if path.hasSuffix(".@count") {
            let collection = String(path.dropLast(".@count".count))
            if !collection.isEmpty { return .function("count:", [.keyPath(collection)]) }
        }
        return .keyPath(path)
    }

    /// The kind Apple's `NSExpression.expressionType` reports for this expression.
    public var expressionType: ExpressionType {
        switch self {
        case .constant: .constantValue
        case .evaluatedObject: .evaluatedObject
        case .variable: .variable
        case .keyPath, .keyPathOnExpression: .keyPath
        case .function, .customFunction, .index: .function
        case .aggregate: .aggregate
        case .setOperation(_, .union, _): .unionSet
        case .setOperation(_, .intersect, _): .intersectSet
        case .setOperation(_, .minus, _): .minusSet
        case .subquery: .subquery
        case .conditional: .conditional
        case .anyKey: .anyKey
        case .fetch: .fetchRequest
        }
    }
}
