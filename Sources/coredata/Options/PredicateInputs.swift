import ArgumentParser
import Foundation
import Predicates
import StoreAccess

/// `--var NAME=VALUE` and `--args JSON`: values for a predicate's `$NAME` variables and its `%@`/`%K`
/// placeholders, taken by every command with a predicate, so values need no quoting inside the format.
struct PredicateInputs: ParsableArguments {
    @Option(name: .customLong("var"), help: ArgumentHelp(
        "A value for $NAME in the predicate (repeatable). VALUE is JSON when it parses as JSON (30, 2.5, true, null, \"text\", [1,2]), else text.",
        valueName: "name=value"))
    var variables: [String] = []

    @Option(name: .customLong("args"), help: ArgumentHelp("Values for %@ and %K in the predicate, in order, as a JSON array.", valueName: "json"))
    var arguments: String?

    func validate() throws {
        _ = try parsedVariables()
        _ = try parsedArguments()
    }

    /// Parses `format` with the placeholders and variables filled; nil for an absent or blank format.
    func predicate(_ format: String?) throws -> Predicates.NSPredicate? {
        try StoreSession.predicate(format, arguments: parsedArguments(), variables: parsedVariables())
    }

    func parsedVariables() throws -> [String: Any] {
        var values: [String: Any] = [:]
        for assignment in variables {
            guard let equals = assignment.firstIndex(of: "="), equals != assignment.startIndex else {
                throw ValidationError("--var takes NAME=VALUE, not \(assignment.debugDescription)")
            }
            let name = String(assignment[..<equals]).trimmingCharacters(in: .whitespaces)
            let bare = name.hasPrefix("$") ? String(name.dropFirst()) : name
            guard !bare.isEmpty, bare.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
                throw ValidationError("--var: \(name.debugDescription) is not a variable name (letters, digits and _)")
            }
            let text = String(assignment[assignment.index(after: equals)...])
            values[bare] = Self.jsonValue(text) ?? text
        }
        return values
    }

    func parsedArguments() throws -> [Any?] {
        guard let arguments else { return [] }
        guard let value = Self.jsonValue(arguments), let array = value as? [Any] else {
            throw ValidationError("--args takes a JSON array, such as '[\"name\", 30]', not \(arguments.debugDescription)")
        }
        return array.map { $0 is NSNull ? nil : $0 }
    }

    /// `text` as a Swift value when it is JSON: Bool, Int64, Double, String, NSNull, arrays and dictionaries of them.
    static func jsonValue(_ text: String) -> Any? {
        guard let json = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) else { return nil }
        return json.value
    }
}

/// A JSON value decoded with its kind kept: `true` stays a Bool and `30` an integer, which an `NSNumber` blurs.
private enum JSONValue: Decodable {
    case null, bool(Bool), integer(Int64), double(Double), string(String), array([JSONValue]), object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Int64.self) { self = .integer(value) }
        else if let value = try? container.decode(Double.self) { self = .double(value) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode([JSONValue].self) { self = .array(value) }
        else { self = .object(try container.decode([String: JSONValue].self)) }
    }

    var value: Any {
        switch self {
        case .null: return NSNull()
        case .bool(let value): return value
        case .integer(let value): return value
        case .double(let value): return value
        case .string(let value): return value
        case .array(let values): return values.map(\.value)
        case .object(let values): return values.mapValues(\.value)
        }
    }
}
