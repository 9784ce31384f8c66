import Foundation
import Predicates
import PropertyListCoding

/// Turns archived `NSPredicate` and `NSExpression` objects (in compiled models and model caches) into the
/// predicate AST, and from there into Apple's canonical format strings.
///
/// Derived attributes hash their expression's canonical format, so this decoding decides whether a store's
/// hashes reproduce. Anything not understood is an error naming the archived class, never a guess.
package enum ArchivedPredicateDecoding {
    /// Archives nest predicates inside expressions; a hostile archive could nest forever.
    static let maximumDepth = 200

    package static func predicateFormat(_ object: ArchivedObject) throws -> String {
        try predicate(object, depth: 0).predicateFormat
    }

    package static func expressionFormat(_ object: ArchivedObject) throws -> String {
        try expression(object, depth: 0).predicateFormat
    }

    // MARK: Predicates

    static func predicate(_ object: ArchivedObject, depth: Int) throws -> PredicateNode {
        try checkDepth(depth, object)
        switch object.className {
        case "NSTruePredicate": return .constant(true)
        case "NSFalsePredicate": return .constant(false)
        case "NSCompoundPredicate":
            let type = try object.integer(forKey: "NSCompoundPredicateType") ?? 1
            let subpredicates = try object.object(forKey: "NSSubpredicates")?.elementObjects()
                .map { try predicate($0, depth: depth + 1) } ?? []
            switch type {
            case 0:
                guard subpredicates.count == 1 else { throw unsupported(object, "a NOT with \(subpredicates.count) subpredicates") }
                return .not(subpredicates[0])
            case 1: return .and(subpredicates)
            case 2: return .or(subpredicates)
            default: throw unsupported(object, "compound type \(type)")
            }
        case "NSComparisonPredicate":
            guard let left = try object.object(forKey: "NSLeftExpression"),
                  let right = try object.object(forKey: "NSRightExpression"),
                  let comparison = try object.object(forKey: "NSPredicateOperator")
            else { throw unsupported(object, "a comparison without both expressions and an operator") }
            let rawType = try comparison.integer(forKey: "NSOperatorType") ?? 4
            guard var operatorType = ComparisonOperator(rawValue: UInt(clamping: rawType)) else {
                throw unsupported(comparison, "operator type \(rawType)")
            }
            if operatorType == .equalTo, try comparison.bool(forKey: "NSNegate") == true { operatorType = .notEqualTo }
            let modifierValue = try comparison.integer(forKey: "NSModifier") ?? 0
            guard let modifier = ComparisonModifier(rawValue: UInt(clamping: modifierValue)) else {
                throw unsupported(comparison, "modifier \(modifierValue)")
            }
            let options = try comparison.integer(forKey: "NSOptions") ?? comparison.integer(forKey: "NSFlags") ?? 0
            return .comparison(ComparisonNode(
                try expression(left, depth: depth + 1), operatorType, try expression(right, depth: depth + 1),
                modifier: modifier, options: ComparisonOptions(rawValue: UInt(clamping: options) & 0x7)))
        default:
            throw unsupported(object, "an unknown predicate class")
        }
    }

    // MARK: Expressions

    static func expression(_ object: ArchivedObject, depth: Int) throws -> ExpressionNode {
        try checkDepth(depth, object)
        switch object.className {
        case "NSSelfExpression":
            return .evaluatedObject
        case "NSAnyKeyExpression":
            return .anyKey
        case "NSFetchRequestExpression":
            guard let request = try object.object(forKey: "NSFRExpression"), let context = try object.object(forKey: "NSMOCExpression") else {
                throw unsupported(object, "a fetch request expression without its request or context")
            }
            return .fetch(request: try expression(request, depth: depth + 1), context: try expression(context, depth: depth + 1),
                          countOnly: try object.bool(forKey: "NSCountOnlyFlag") ?? false)
        case "NSVariableExpression":
            guard let name = try object.string(forKey: "NSVariable") else { throw unsupported(object, "a variable without a name") }
            return .variable(name)
        case "NSKeyPathSpecifierExpression":
            guard let path = try object.string(forKey: "NSKeyPath") else { throw unsupported(object, "a key path without a path") }
            return .keyPath(path)
        case "NSConstantValueExpression":
            return .constant(try constant(object.value(forKey: "NSConstantValue"), in: object, depth: depth))
        case "NSKeyPathExpression":
            let arguments = try arguments(of: object, depth: depth)
            guard arguments.count == 1, case .keyPath(let path) = arguments[0] else {
                throw unsupported(object, "a key path expression whose argument is not a key path")
            }
            let operand = try object.object(forKey: "NSOperand").map { try expression($0, depth: depth + 1) } ?? .evaluatedObject
            return operand == .evaluatedObject ? ExpressionNode.canonicalKeyPath(path) : .keyPathOnExpression(operand, path)
        case "NSFunctionExpression":
            guard let selector = try object.string(forKey: "NSSelectorName") else {
                throw unsupported(object, "a function without a selector")
            }
            let arguments = try arguments(of: object, depth: depth)
            let operand = try object.object(forKey: "NSOperand")
            // Built-in functions are sent to the `_NSPredicateUtilities` class; anything else is FUNCTION(…).
            if let operand, operand.className == "NSConstantValueExpression",
               try operand.string(forKey: "NSConstantValueClassName") == "_NSPredicateUtilities" || operand.contains(key: "NSConstantValueClassName") {
                return .function(selector, arguments)
            }
            let receiver = try operand.map { try expression($0, depth: depth + 1) } ?? .evaluatedObject
            return .customFunction(receiver: receiver, selector: selector, arguments: arguments)
        case "NSAggregateExpression":
            let collection = try object.object(forKey: "NSCollection")?.elementObjects() ?? []
            return .aggregate(try collection.map { try expression($0, depth: depth + 1) })
        case "NSSubqueryExpression":
            guard let collection = try object.object(forKey: "NSCollection"),
                  let predicateObject = try object.object(forKey: "NSPredicate") else {
                throw unsupported(object, "a subquery without its collection or predicate")
            }
            let variable = try object.string(forKey: "NSVariable")
                ?? object.object(forKey: "NSVariableExpression")?.string(forKey: "NSVariable") ?? "x"
            return .subquery(collection: try expression(collection, depth: depth + 1), variable: variable,
                             predicate: try predicate(predicateObject, depth: depth + 1))
        case "NSTernaryExpression":
            guard let condition = try object.object(forKey: "NSPredicate"),
                  let whenTrue = try object.object(forKey: "NSTrueExpression"),
                  let whenFalse = try object.object(forKey: "NSFalseExpression") else {
                throw unsupported(object, "a ternary without its three parts")
            }
            return .conditional(try predicate(condition, depth: depth + 1), try expression(whenTrue, depth: depth + 1),
                                try expression(whenFalse, depth: depth + 1))
        case "NSSetExpression":
            guard let left = try object.object(forKey: "NSLeftExpression"),
                  let right = try object.object(forKey: "NSRightExpression") else {
                throw unsupported(object, "a set expression without both sides")
            }
            let operation: SetOperation
            switch try object.integer(forKey: "NSExpressionType") ?? 5 {
            case 6: operation = .intersect
            case 7: operation = .minus
            default: operation = .union
            }
            return .setOperation(try expression(left, depth: depth + 1), operation, try expression(right, depth: depth + 1))
        default:
            throw unsupported(object, "an unknown expression class")
        }
    }

    private static func arguments(of object: ArchivedObject, depth: Int) throws -> [ExpressionNode] {
        try object.object(forKey: "NSArguments")?.elementObjects().map { try expression($0, depth: depth + 1) } ?? []
    }

    private static func constant(_ value: ArchivedValue?, in owner: ArchivedObject, depth: Int) throws -> ConstantValue {
        guard let value else { return .null }
        switch value {
        case .null: return .null
        case .string(let text): return .string(text)
        case .integer(let number): return .integer(number)
        case .unsignedInteger(let number): return .double(Double(number))
        case .real(let number): return .double(number)
        case .bool(let flag): return .bool(flag)
        case .date(let date): return .date(date)
        case .data(let data): return .data(data)
        case .object(let reference):
            let object = try owner.archive.object(reference)
            if object.isKind(of: "NSString") { return .string(try object.stringValue()) }
            if object.isKind(of: "NSDate") { return .date(try object.dateValue()) }
            if object.isKind(of: "NSUUID") { return .uuid(try object.uuidValue()) }
            if object.isKind(of: "NSURL") { return .url(try object.urlValue()) }
            if object.isKind(of: "NSData") { return .data(try object.dataValue()) }
            if object.isKind(of: "NSNull") { return .nullObject }
            if object.isCollection {
                return .array(try object.elements().map { try constant($0, in: owner, depth: depth + 1) })
            }
            throw unsupported(object, "a constant of an unknown class")
        default:
            throw unsupported(owner, "a constant of type \(value.typeName)")
        }
    }

    private static func checkDepth(_ depth: Int, _ object: ArchivedObject) throws {
        guard depth < maximumDepth else {
            throw ModelError(reason: "archived predicate nests deeper than \(maximumDepth) levels at \(object.className) \(object.reference)")
        }
    }

    private static func unsupported(_ object: ArchivedObject, _ what: String) -> ModelError {
        ModelError(reason: "cannot decode archived \(object.className) \(object.reference): \(what)")
    }
}
