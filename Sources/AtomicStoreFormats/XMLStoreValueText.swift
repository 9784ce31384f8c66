import CoreDataModel
import Foundation

/// How the XML store spells attribute types and values.
///
/// Seen in files Apple wrote: `string`, `int16`, `bool` (`1`/`0`), `binary` (base64). The other names follow the
/// same pattern (`int32` and `float` are also seen in third-party copies); which ones Apple uses for decimal,
/// double, date, UUID, URI and transformable values is not established (docs/DEVIATIONS.md). Dates are seconds
/// since 2001 with 20 decimals, as a third-party test claims Apple writes them.
enum XMLStoreValueText {
    /// The `type` written for an attribute type; nil for types with no stored value.
    static func typeName(for type: NSAttributeType) -> String? {
        switch type {
        case .integer16AttributeType: return "int16"
        case .integer32AttributeType: return "int32"
        case .integer64AttributeType: return "int64"
        case .decimalAttributeType: return "decimal"
        case .doubleAttributeType: return "double"
        case .floatAttributeType: return "float"
        case .stringAttributeType: return "string"
        case .booleanAttributeType: return "bool"
        case .dateAttributeType: return "date"
        case .binaryDataAttributeType: return "binary"
        case .UUIDAttributeType: return "uuid"
        case .URIAttributeType: return "uri"
        case .transformableAttributeType: return "transformable"
        case .undefinedAttributeType, .objectIDAttributeType, .compositeAttributeType: return nil
        }
    }

    /// The attribute type a `type` name stands for (inferring a model from a file).
    static func attributeType(forTypeName name: String) -> NSAttributeType? {
        NSAttributeType.allCases.first { typeName(for: $0) == name.lowercased() }
    }

    /// Whether a file's `type` may hold a value of `type`: the integer sizes read into each other (the value must
    /// still fit), and so do double and float; the rest must match.
    static func typeName(_ name: String, fits type: NSAttributeType) -> Bool {
        let name = name.lowercased()
        switch type {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType:
            return ["int16", "int32", "int64"].contains(name)
        case .doubleAttributeType, .floatAttributeType: return name == "double" || name == "float"
        case .transformableAttributeType: return name == "transformable" || name == "binary"
        default: return typeName(for: type) == name
        }
    }

    /// The element text of a value (not yet escaped).
    static func text(for value: AttributeValue) -> String {
        switch value {
        case .integer(let number): return String(number)
        case .boolean(let flag): return flag ? "1" : "0"
        case .double(let number): return number.description
        case .float(let number): return number.description
        case .decimal(let number): return number.description
        case .string(let text): return text
        case .date(let date): return dateText(date.timeIntervalSinceReferenceDate)
        case .data(let bytes): return bytes.base64EncodedString()
        case .uuid(let uuid): return uuid.uuidString
        case .uri(let url): return url.absoluteString
        }
    }

    /// Seconds with 20 decimals, Apple's spelling, unless that loses precision (values below a thousandth): then
    /// the shortest text that reads back exactly.
    static func dateText(_ seconds: Double) -> String {
        let fixed = String(format: "%.20f", seconds)
        return Double(fixed) == seconds ? fixed : seconds.description
    }

    /// The value of `attribute` written as `text`; throws the reason when the text is not a value of its type.
    static func value(from text: String, for attribute: NSAttributeDescription) throws(XMLValueProblem) -> AttributeValue {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let type = attribute.attributeType
        func bad() -> XMLValueProblem {
            XMLValueProblem(reason: "\(String(trimmed.prefix(40)).debugDescription) is not a valid value of attribute "
                            + "\(attribute.name) (\(type.xcodeName))")
        }
        switch type {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType:
            guard let number = Int64(trimmed) else { throw bad() }
            return .integer(number)
        case .booleanAttributeType:
            switch trimmed.lowercased() {
            case "1", "yes", "true": return .boolean(true)
            case "0", "no", "false": return .boolean(false)
            default: throw bad()
            }
        case .doubleAttributeType:
            guard let number = Double(trimmed) else { throw bad() }
            return .double(number)
        case .floatAttributeType:
            guard let number = Float(trimmed) else { throw bad() }
            return .float(number)
        case .decimalAttributeType:
            guard let number = Decimal(string: trimmed, locale: Locale(identifier: "en_US_POSIX")),
                  !trimmed.isEmpty else { throw bad() }
            return .decimal(number)
        case .stringAttributeType:
            return .string(text)
        case .dateAttributeType:
            guard let seconds = Double(trimmed), seconds.isFinite else { throw bad() }
            return .date(Date(timeIntervalSinceReferenceDate: seconds))
        case .binaryDataAttributeType, .transformableAttributeType:
            guard let bytes = Data(base64Encoded: trimmed.filter { !$0.isWhitespace }) else { throw bad() }
            return .data(bytes)
        case .UUIDAttributeType:
            guard let uuid = UUID(uuidString: trimmed) else { throw bad() }
            return .uuid(uuid)
        case .URIAttributeType:
            guard !trimmed.isEmpty, let url = URL(string: trimmed) else { throw bad() }
            return .uri(url)
        case .undefinedAttributeType, .objectIDAttributeType, .compositeAttributeType:
            throw XMLValueProblem(reason: "attribute \(attribute.name) is of type \(type.xcodeName), which a store file "
                                  + "cannot hold")
        }
    }
}

/// Why an XML value does not read as its attribute's type.
struct XMLValueProblem: Error {
    var reason: String
}
