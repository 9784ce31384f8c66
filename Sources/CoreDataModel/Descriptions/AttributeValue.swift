import Foundation

/// A typed attribute value: what a default value parses to, and what stores decode columns into.
///
/// Core Data's API speaks `Any?`; inside the library values stay typed so that numbers, booleans and dates never
/// get confused (on Linux `NSNumber(value: 1) as Any is Bool` is true).
public enum AttributeValue: Sendable, Hashable {
    case integer(Int64)
    case double(Double)
    case float(Float)
    case decimal(Decimal)
    case string(String)
    case boolean(Bool)
    case date(Date)
    case data(Data)
    case uuid(UUID)
    case uri(URL)

    /// The value as `Any`, in the Swift type Core Data clients expect (`Int64`, `Double`, `Decimal`, `Date`, …).
    @inlinable @inline(__always)
    public var anyValue: Any {
        switch self {
        case .integer(let value): return value
        case .double(let value): return value
        case .float(let value): return value
        case .decimal(let value): return value
        case .string(let value): return value
        case .boolean(let value): return value
        case .date(let value): return value
        case .data(let value): return value
        case .uuid(let value): return value
        case .uri(let value): return value
        }
    }

    /// The value as Apple's `value(forKey:)` returns it: numbers and booleans as `NSNumber`, decimals as
    /// `NSDecimalNumber`, so that `as? Int16`, `as? Int`, `as? Double` and `as? Bool` succeed exactly where they do on
    /// Apple's platforms; everything else as ``anyValue``. Typed reads (`value(forKey:as:)`) never come here.
    public var objectValue: Any {
        switch self {
        case .integer(let value): return NSNumber(value: value)
        case .double(let value): return NSNumber(value: value)
        case .float(let value): return NSNumber(value: value)
        case .boolean(let value): return NSNumber(value: value)
        case .decimal(let value): return NSDecimalNumber(decimal: value)
        case .string(let value): return value
        case .date(let value): return value
        case .data(let value): return value
        case .uuid(let value): return value
        case .uri(let value): return value
        }
    }

    /// A short, human-readable rendering (dates in ISO 8601 UTC, data as its size) for schema listings.
    public var displayString: String {
        switch self {
        case .integer(let value): return String(value)
        case .double(let value): return String(value)
        case .float(let value): return String(value)
        case .decimal(let value): return value.description
        case .string(let value): return value
        case .boolean(let value): return value ? "YES" : "NO"
        case .date(let value): return value.ISO8601Format()
        case .data(let value): return "<\(value.count) bytes>"
        case .uuid(let value): return value.uuidString
        case .uri(let value): return value.absoluteString
        }
    }
}

extension AttributeValue {
    /// Parses a default value the way Xcode models spell it (`defaultValueString`): numbers in decimal, booleans as
    /// `YES`/`NO`, dates as seconds since 2001 (`defaultDateTimeInterval`), UUIDs and URIs as strings.
    /// Throws a message naming the type when the text does not fit it.
    public init(parsing text: String, as type: NSAttributeType) throws(AttributeValueParseError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        switch type {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType:
            if let value = Int64(trimmed) {
                self = .integer(value)
            } else if let value = Double(trimmed), value.rounded() == value, abs(value) < 9.2e18 {
                self = .integer(Int64(value))
            } else {
                throw AttributeValueParseError(text: text, type: type)
            }
        case .decimalAttributeType:
            guard let value = Decimal(string: trimmed, locale: Locale(identifier: "en_US_POSIX")) else {
                throw AttributeValueParseError(text: text, type: type)
            }
            self = .decimal(value)
        case .doubleAttributeType:
            guard let value = Double(trimmed) else { throw AttributeValueParseError(text: text, type: type) }
            self = .double(value)
        case .floatAttributeType:
            guard let value = Float(trimmed) else { throw AttributeValueParseError(text: text, type: type) }
            self = .float(value)
        case .booleanAttributeType:
            switch trimmed.uppercased() {
            case "YES", "TRUE", "1": self = .boolean(true)
            case "NO", "FALSE", "0": self = .boolean(false)
            default: throw AttributeValueParseError(text: text, type: type)
            }
        case .dateAttributeType:
            guard let interval = Double(trimmed) else { throw AttributeValueParseError(text: text, type: type) }
            self = .date(Date(timeIntervalSinceReferenceDate: interval))
        case .UUIDAttributeType:
            guard let value = UUID(uuidString: trimmed) else { throw AttributeValueParseError(text: text, type: type) }
            self = .uuid(value)
        case .URIAttributeType:
            guard let value = URL(string: trimmed) else { throw AttributeValueParseError(text: text, type: type) }
            self = .uri(value)
        case .stringAttributeType:
            self = .string(text)
        case .binaryDataAttributeType, .transformableAttributeType, .undefinedAttributeType,
             .objectIDAttributeType, .compositeAttributeType:
            throw AttributeValueParseError(text: text, type: type)
        }
    }
}

/// A default value string that does not parse as its attribute's type.
public struct AttributeValueParseError: Error, Sendable, Equatable, CustomStringConvertible {
    public var text: String
    public var type: NSAttributeType
    public var description: String { "\"\(text)\" is not a valid \(type.xcodeName) value" }
}
