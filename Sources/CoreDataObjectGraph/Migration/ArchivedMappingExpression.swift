import Foundation
import Predicates
import PropertyListCoding

/// An `NSExpression` that Xcode archived with `NSKeyedArchiver` (a mapping model's `valueexpressiondata`, a compiled
/// mapping model's expressions), rebuilt as the expression it is: variables, key paths, constants, function calls on
/// a receiver (`$source.continent.numericISO3166Code` is archived as `valueForKeyPath:` on `$source`), and the
/// `FETCH(…)` of a source expression. Any other class is refused by name.
enum ArchivedMappingExpression {
    struct Failure: Error, CustomStringConvertible {
        var reason: String
        var description: String { reason }
    }

    static func expression(ofArchive data: Data) throws -> Predicates.NSExpression {
        let archive: KeyedArchive
        do {
            archive = try KeyedArchive(data: data)
        } catch {
            throw Failure(reason: "the archived expression is not a keyed archive: \(error)")
        }
        let root = try archive.topObject(forKey: "root")
        return Predicates.NSExpression(expressionNode: try node(of: root, depth: 0))
    }

    /// An expression object inside a larger archive (a compiled mapping model's).
    static func expression(of object: ArchivedObject) throws -> Predicates.NSExpression {
        Predicates.NSExpression(expressionNode: try node(of: object, depth: 0))
    }

    private static func node(of object: ArchivedObject, depth: Int) throws -> ExpressionNode {
        guard depth < 64 else { throw Failure(reason: "the archived expression nests more than 64 levels") }
        if object.isKind(of: "NSVariableExpression") {
            guard let name = try object.string(forKey: "NSVariable") else { throw Failure(reason: "a variable expression without a name") }
            return .variable(name)
        }
        if object.isKind(of: "NSKeyPathSpecifierExpression") {
            guard let path = try object.string(forKey: "NSKeyPath") else { throw Failure(reason: "a key path specifier without a key path") }
            return .keyPath(path)
        }
        if object.isKind(of: "NSSelfExpression") { return .evaluatedObject }
        if object.isKind(of: "NSConstantValueExpression") {
            return .constant(try constant(object.value(forKey: "NSConstantValue"), in: object))
        }
        if object.isKind(of: "NSFunctionExpression") {
            guard let selector = try object.string(forKey: "NSSelectorName") else { throw Failure(reason: "a function expression without a selector") }
            let arguments = try elements(of: object, key: "NSArguments").map { try node(of: $0, depth: depth + 1) }
            guard let operandObject = try object.object(forKey: "NSOperand") else { throw Failure(reason: "function \(selector) has no receiver") }
            // A built-in function (`add:to:`) is archived as a call on the class `_NSPredicateUtilities`.
            if try operandObject.string(forKey: "NSConstantValueClassName") == "_NSPredicateUtilities" {
                return .function(selector, arguments)
            }
            let operand = try node(of: operandObject, depth: depth + 1)
            // Key paths: `valueForKeyPath:` (or `valueForKey:`) on a receiver with a key path specifier argument, written
            // as the parser reads `$source.a.b`: one key path on the receiver.
            if selector == "valueForKeyPath:" || selector == "valueForKey:", arguments.count == 1, case .keyPath(let path) = arguments[0] {
                switch operand {
                case .evaluatedObject: return .canonicalKeyPath(path)
                case .keyPath(let base): return .canonicalKeyPath(base + "." + path)
                case .keyPathOnExpression(let base, let prefix): return .keyPathOnExpression(base, prefix + "." + path)
                default: return .keyPathOnExpression(operand, path)
                }
            }
            return .customFunction(receiver: operand, selector: selector, arguments: arguments)
        }
        // A compiled mapping model's source expression: `FETCH(request, context, countOnly)`.
        if object.isKind(of: "NSFetchRequestExpression") {
            guard let request = try object.object(forKey: "NSFRExpression"), let context = try object.object(forKey: "NSMOCExpression") else {
                throw Failure(reason: "a fetch request expression without its request or context")
            }
            return .fetch(request: try node(of: request, depth: depth + 1), context: try node(of: context, depth: depth + 1),
                          countOnly: try object.bool(forKey: "NSCountOnlyFlag") ?? false)
        }
        throw Failure(reason: "archived expressions of class \(object.className) are not supported")
    }

    private static func elements(of object: ArchivedObject, key: String) throws -> [ArchivedObject] {
        guard let array = try object.object(forKey: key) else { return [] }
        guard case .array(let items)? = try array.value(forKey: "NS.objects") else { return [] }
        return try items.map { item in
            guard case .object(let reference) = item else { throw Failure(reason: "\(key) holds a plain value, not an expression") }
            return try object.archive.object(reference)
        }
    }

    private static func constant(_ value: ArchivedValue?, in object: ArchivedObject) throws -> ConstantValue {
        switch value {
        case nil, .null?: return .null
        case .string(let text)?: return .string(text)
        case .integer(let number)?: return .integer(Int64(number))
        case .unsignedInteger(let number)?: return Int64(exactly: number).map(ConstantValue.integer) ?? .double(Double(number))
        case .real(let number)?: return .double(number)
        case .bool(let flag)?: return .bool(flag)
        case .object(let reference)?:
            let inner = try object.archive.object(reference)
            if let text = try? inner.string(forKey: "NS.string") { return .string(text) }
            throw Failure(reason: "constant of class \(inner.className) in an archived expression is not supported")
        default:
            throw Failure(reason: "constant \(String(describing: value)) in an archived expression is not supported")
        }
    }
}
