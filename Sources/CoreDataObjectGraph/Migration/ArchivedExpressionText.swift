import Foundation
import PropertyListCoding

/// The format string of an `NSExpression` that Xcode archived with `NSKeyedArchiver` (a mapping model's
/// `valueexpressiondata`): variables, key paths, constants, and function calls on a receiver, which is the shape
/// Xcode writes (`$source.continent.numericISO3166Code` is archived as `valueForKeyPath:` on `$source`).
/// Any other class is refused by name.
enum ArchivedExpressionText {
    struct Failure: Error, CustomStringConvertible {
        var reason: String
        var description: String { reason }
    }

    static func format(ofArchive data: Data) throws -> String {
        let archive: KeyedArchive
        do {
            archive = try KeyedArchive(data: data)
        } catch {
            throw Failure(reason: "the archived expression is not a keyed archive: \(error)")
        }
        let root = try archive.topObject(forKey: "root")
        return try format(of: root, depth: 0)
    }

    /// The format string of an expression object inside a larger archive (a compiled mapping model's).
    static func format(of object: ArchivedObject) throws -> String {
        try format(of: object, depth: 0)
    }

    private static func format(of object: ArchivedObject, depth: Int) throws -> String {
        guard depth < 64 else { throw Failure(reason: "the archived expression nests more than 64 levels") }
        if object.isKind(of: "NSVariableExpression") {
            guard let name = try object.string(forKey: "NSVariable") else { throw Failure(reason: "a variable expression without a name") }
            return "$" + name
        }
        if object.isKind(of: "NSKeyPathSpecifierExpression") {
            guard let path = try object.string(forKey: "NSKeyPath") else { throw Failure(reason: "a key path specifier without a key path") }
            return path
        }
        if object.isKind(of: "NSSelfExpression") { return "SELF" }
        if object.isKind(of: "NSConstantValueExpression") {
            return try constant(object.value(forKey: "NSConstantValue"), in: object)
        }
        if object.isKind(of: "NSFunctionExpression") {
            guard let selector = try object.string(forKey: "NSSelectorName") else { throw Failure(reason: "a function expression without a selector") }
            let arguments = try elements(of: object, key: "NSArguments").map { try format(of: $0, depth: depth + 1) }
            let operand = try object.object(forKey: "NSOperand").map { try format(of: $0, depth: depth + 1) }
            // Key paths: `valueForKeyPath:` (or `valueForKey:`) on a receiver with a key path specifier argument.
            if selector == "valueForKeyPath:" || selector == "valueForKey:", let operand, arguments.count == 1 {
                return operand == "SELF" ? arguments[0] : "\(operand).\(arguments[0])"
            }
            guard let operand else { throw Failure(reason: "function \(selector) has no receiver") }
            return "FUNCTION(" + ([operand, "\"\(selector)\""] + arguments).joined(separator: ", ") + ")"
        }
        // A compiled mapping model's source expression: `FETCH(request, context, countOnly)`.
        if object.isKind(of: "NSFetchRequestExpression") {
            guard let request = try object.object(forKey: "NSFRExpression"), let context = try object.object(forKey: "NSMOCExpression") else {
                throw Failure(reason: "a fetch request expression without its request or context")
            }
            let countOnly = try object.bool(forKey: "NSCountOnlyFlag") ?? false
            return "FETCH(\(try format(of: request, depth: depth + 1)), \(try format(of: context, depth: depth + 1)), \(countOnly ? "YES" : "NO"))"
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

    private static func constant(_ value: ArchivedValue?, in object: ArchivedObject) throws -> String {
        switch value {
        case nil, .null?: return "nil"
        case .string(let text)?: return "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        case .integer(let number)?: return String(number)
        case .unsignedInteger(let number)?: return String(number)
        case .real(let number)?: return String(number)
        case .bool(let flag)?: return flag ? "YES" : "NO"
        case .object(let reference)?:
            let inner = try object.archive.object(reference)
            if let text = try? inner.string(forKey: "NS.string") { return "\"" + text + "\"" }
            throw Failure(reason: "constant of class \(inner.className) in an archived expression is not supported")
        default:
            throw Failure(reason: "constant \(String(describing: value)) in an archived expression is not supported")
        }
    }
}
