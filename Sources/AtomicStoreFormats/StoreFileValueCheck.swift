import CoreDataModel
import Foundation

/// Whether a value fits an attribute: the one rule both formats' readers and writers apply.
enum StoreFileValueCheck {
    /// Why `value` cannot be the value of `attribute`, or nil when it can.
    static func problem(with value: AttributeValue, for attribute: NSAttributeDescription) -> String? {
        let type = attribute.attributeType
        let fits: Bool
        switch (type, value) {
        case (.integer16AttributeType, .integer(let number)): fits = Int16(exactly: number) != nil
        case (.integer32AttributeType, .integer(let number)): fits = Int32(exactly: number) != nil
        case (.integer64AttributeType, .integer): fits = true
        case (.booleanAttributeType, .boolean), (.decimalAttributeType, .decimal), (.doubleAttributeType, .double),
             (.floatAttributeType, .float), (.stringAttributeType, .string), (.dateAttributeType, .date),
             (.binaryDataAttributeType, .data), (.UUIDAttributeType, .uuid), (.URIAttributeType, .uri),
             (.transformableAttributeType, .data):
            fits = true
        default: fits = false
        }
        if fits { return nil }
        if case .integer(let number) = value, type.isInteger {
            return "\(number) does not fit attribute \(attribute.name) (\(type.xcodeName))"
        }
        return "attribute \(attribute.name) (\(type.xcodeName)) cannot hold \(describe(value))"
    }

    /// The value's kind and a short form of it, for messages.
    static func describe(_ value: AttributeValue) -> String {
        switch value {
        case .integer(let number): return "the integer \(number)"
        case .double(let number): return "the double \(number)"
        case .float(let number): return "the float \(number)"
        case .decimal(let number): return "the decimal \(number)"
        case .string(let text): return "the string \(String(text.prefix(40)).debugDescription)"
        case .boolean(let flag): return "the boolean \(flag)"
        case .date(let date): return "the date \(date.timeIntervalSinceReferenceDate)"
        case .data(let bytes): return "\(bytes.count) bytes of data"
        case .uuid(let uuid): return "the UUID \(uuid.uuidString)"
        case .uri(let url): return "the URI \(url.absoluteString)"
        }
    }
}
