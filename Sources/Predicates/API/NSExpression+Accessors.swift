import Foundation

extension NSExpression {
    /// The kind of expression, with Apple's raw values (an index such as `a[FIRST]` is a function).
    public var expressionType: ExpressionType { expressionNode.expressionType }

    private func unavailable(_ accessor: String) -> Never {
        preconditionFailure("\(accessor) is not defined for expression type \(expressionType) (\(predicateFormat))")
    }

    /// A constant expression's value (an aggregate of constants gives the array of their values).
    public var constantValue: Any? {
        switch expressionNode {
        case .constant(let value): return value.anyValue
        case .aggregate(let elements):
            var values: [Any] = []
            for element in elements {
                guard case .constant(let value) = element else { unavailable("constantValue") }
                values.append(value.anyValue ?? NSNull())
            }
            return values
        default: unavailable("constantValue")
        }
    }

    /// A key-path expression's key path.
    public var keyPath: String {
        switch expressionNode {
        case .keyPath(let path), .keyPathOnExpression(_, let path): return path
        default: unavailable("keyPath")
        }
    }

    /// A variable expression's name (without `$`).
    public var variable: String {
        guard case .variable(let name) = expressionNode else { unavailable("variable") }
        return name
    }

    /// A function expression's selector name, such as `"count:"` or `"add:to:"`.
    public var function: String {
        switch expressionNode {
        case .function(let name, _): return name
        case .customFunction(_, let selector, _): return selector
        case .index: return "objectFrom:withIndex:"
        default: unavailable("function")
        }
    }

    /// A function expression's arguments.
    public var arguments: [NSExpression]? {
        switch expressionNode {
        case .function(_, let arguments), .customFunction(_, _, let arguments):
            return arguments.map { NSExpression(expressionNode: $0) }
        case .index(let collection, let selector):
            let index: ExpressionNode
            switch selector {
            case .first: index = .constant(.string("FIRST"))
            case .last: index = .constant(.string("LAST"))
            case .size: index = .constant(.string("SIZE"))
            case .at(let position): index = position
            }
            return [NSExpression(expressionNode: collection), NSExpression(expressionNode: index)]
        default: unavailable("arguments")
        }
    }

    /// What a key path or custom function applies to (`SELF` for a plain key path).
    public var operand: NSExpression {
        switch expressionNode {
        case .keyPath: return NSExpression(expressionNode: .evaluatedObject)
        case .keyPathOnExpression(let base, _): return NSExpression(expressionNode: base)
        case .customFunction(let receiver, _, _): return NSExpression(expressionNode: receiver)
        default: unavailable("operand")
        }
    }

    /// An aggregate's elements (`[NSExpression]`) or a subquery's collection expression.
    public var collection: Any {
        switch expressionNode {
        case .aggregate(let elements): return elements.map { NSExpression(expressionNode: $0) }
        case .subquery(let collection, _, _): return NSExpression(expressionNode: collection)
        default: unavailable("collection")
        }
    }

    /// A subquery's or conditional's predicate.
    public var predicate: NSPredicate {
        switch expressionNode {
        case .subquery(_, _, let predicate), .conditional(let predicate, _, _): return NSPredicate.predicate(for: predicate)
        default: unavailable("predicate")
        }
    }

    /// A set expression's left operand.
    public var left: NSExpression {
        guard case .setOperation(let left, _, _) = expressionNode else { unavailable("left") }
        return NSExpression(expressionNode: left)
    }

    /// A set expression's right operand.
    public var right: NSExpression {
        guard case .setOperation(_, _, let right) = expressionNode else { unavailable("right") }
        return NSExpression(expressionNode: right)
    }

    /// A conditional's value when its predicate holds.
    public var `true`: NSExpression {
        guard case .conditional(_, let whenTrue, _) = expressionNode else { unavailable("true") }
        return NSExpression(expressionNode: whenTrue)
    }

    /// A conditional's value when its predicate does not hold.
    public var `false`: NSExpression {
        guard case .conditional(_, _, let whenFalse) = expressionNode else { unavailable("false") }
        return NSExpression(expressionNode: whenFalse)
    }
}
