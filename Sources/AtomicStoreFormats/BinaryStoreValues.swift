import CoreDataModel
import Foundation
import PropertyListCoding

/// Attribute values as the binary store archives them: numbers, strings and data as plain archive values, dates as
/// `NSDate`, decimals as `NSDecimalNumber`, UUIDs as `NSUUID`, URIs as `NSURL`, nil as one shared `NSNull`.
enum BinaryStoreValues {
    /// The value `archived` holds for `attribute`; nil for `NSNull` and `$null`. Throws the reason it does not fit.
    static func value(_ archived: ArchivedValue, for attribute: NSAttributeDescription,
                      in archive: KeyedArchive) throws -> AttributeValue? {
        guard case .object(let reference) = archived else { return try value(archived, for: attribute, object: nil) }
        let resolved = try archive.object(reference)
        if resolved.isKind(of: "NSNull") { return nil }
        return try value(archived, for: attribute, object: resolved)
    }

    /// The value a plain archived value (a string, number or data, not an archived object) holds for `attribute`, as
    /// `value(_:for:in:)` reads it; nil for `$null`. For readers that have no `KeyedArchive` (`FlatKeyedArchive`).
    static func plainValue(_ archived: ArchivedValue, for attribute: NSAttributeDescription) throws -> AttributeValue? {
        if case .object = archived {
            throw BinaryValueProblem(reason: "attribute \(attribute.name): an archived object needs its archive")
        }
        return try value(archived, for: attribute, object: nil)
    }

    /// `archived` for `attribute`, where `object` is the archived object `archived` refers to (nil for plain values).
    private static func value(_ archived: ArchivedValue, for attribute: NSAttributeDescription,
                              object: ArchivedObject?) throws -> AttributeValue? {
        if archived.isNull { return nil }
        func mismatch() -> BinaryValueProblem {
            BinaryValueProblem(reason: "attribute \(attribute.name) (\(attribute.attributeType.xcodeName)) cannot hold "
                               + (object.map { "an archived \($0.className)" } ?? "a \(archived.typeName)"))
        }
        switch attribute.attributeType {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType:
            if let number = archived.int64Value { return .integer(number) }
            if let flag = archived.boolValue { return .integer(flag ? 1 : 0) }
        case .booleanAttributeType:
            if let flag = archived.boolValue { return .boolean(flag) }
            if let number = archived.int64Value, number == 0 || number == 1 { return .boolean(number == 1) }
        case .doubleAttributeType:
            if let number = archived.doubleValue { return .double(number) }
        case .floatAttributeType:
            if let number = archived.doubleValue { return .float(Float(number)) }
        case .decimalAttributeType:
            if let object, object.isKind(of: "NSDecimalNumber") { return .decimal(try decimal(of: object)) }
            if let number = archived.int64Value { return .decimal(Decimal(number)) }
        case .stringAttributeType:
            if let text = archived.stringValue { return .string(text) }
            if let object, object.isKind(of: "NSString") { return .string(try object.stringValue()) }
        case .dateAttributeType:
            if case .date(let date) = archived { return .date(date) }
            if let object, object.isKind(of: "NSDate") { return .date(try object.dateValue()) }
        case .binaryDataAttributeType:
            if let bytes = archived.dataValue { return .data(bytes) }
            if let object, object.isKind(of: "NSData") { return .data(try object.dataValue()) }
        case .transformableAttributeType:
            if let bytes = archived.dataValue { return .data(bytes) }
            // Apple keeps the value object itself: it becomes the keyed archive the default transformer makes.
            if let object { return .data(try BinaryStoreArchivedObjects.standaloneArchive(of: object.reference, in: object.archive)) }
        case .UUIDAttributeType:
            if let object, object.isKind(of: "NSUUID") { return .uuid(try object.uuidValue()) }
        case .URIAttributeType:
            if let object, object.isKind(of: "NSURL") { return .uri(try object.urlValue()) }
            if let text = archived.stringValue, let url = URL(string: text) { return .uri(url) }
        case .undefinedAttributeType, .objectIDAttributeType, .compositeAttributeType:
            break
        }
        throw mismatch()
    }

    /// Adds `value` (nil as the shared `null`) to `builder`.
    static func add(_ value: AttributeValue?, for attribute: NSAttributeDescription, to builder: inout KeyedArchiveBuilder,
                    null: ArchivedObjectReference) throws -> ArchivedObjectReference {
        guard let value else { return null }
        if attribute.attributeType == .transformableAttributeType, case .data(let bytes) = value,
           let embedded = BinaryStoreArchivedObjects.embed(bytes, into: &builder) {
            return embedded
        }
        switch value {
        case .integer(let number): return try builder.addPlainValue(.integer(number))
        case .boolean(let flag): return try builder.addPlainValue(.bool(flag))
        case .double(let number): return try builder.addPlainValue(.real(number))
        case .float(let number): return try builder.addPlainValue(.real(Double(number)))
        case .string(let text): return builder.addString(text)
        case .data(let bytes): return try builder.addPlainValue(.data(bytes))
        case .date(let date): return builder.addDate(date)
        case .uuid(let uuid): return builder.addUUID(uuid)
        case .uri(let url): return builder.addURL(url)
        case .decimal(let number): return try addDecimal(number, to: &builder)
        }
    }

    /// `NSDecimalNumber`'s keyed fields: the mantissa as eight little-endian 16-bit words.
    private static func addDecimal(_ number: Decimal, to builder: inout KeyedArchiveBuilder) throws -> ArchivedObjectReference {
        guard !number.isNaN, let mantissa = UInt128(String(describing: number.significand).filter { $0.isNumber }) else {
            throw BinaryValueProblem(reason: "the decimal \(number) has no NSDecimalNumber form")
        }
        var words: [UInt8] = []
        var length = 0
        for index in 0..<8 {
            let word = UInt16(truncatingIfNeeded: mantissa >> (16 * index))
            if word != 0 { length = index + 1 }
            words += [UInt8(truncatingIfNeeded: word), UInt8(truncatingIfNeeded: word >> 8)]
        }
        return builder.addObject(
            className: "NSDecimalNumber", classHierarchy: ["NSDecimalNumber", "NSNumber", "NSValue", "NSObject"],
            fields: [
                "NS.exponent": .integer(Int64(number.exponent)), "NS.length": .integer(Int64(length)),
                "NS.negative": .bool(number.sign == .minus && mantissa != 0), "NS.compact": .bool(true),
                "NS.mantissa.bo": .integer(1), "NS.mantissa": .data(Data(words)),
            ])
    }

    private static func decimal(of object: ArchivedObject) throws -> Decimal {
        guard let exponent = try object.integer(forKey: "NS.exponent"), (-128...127).contains(exponent),
              let length = try object.integer(forKey: "NS.length"), (0...8).contains(length),
              case .data(let bytes)? = try object.value(forKey: "NS.mantissa"), bytes.count >= Int(length) * 2 else {
            throw BinaryValueProblem(reason: "NSDecimalNumber \(object.reference) has no valid exponent, length and mantissa")
        }
        let littleEndian = (try object.integer(forKey: "NS.mantissa.bo") ?? 1) == 1
        let raw = Array(bytes)
        var mantissa: UInt128 = 0
        for index in 0..<Int(length) {
            let low = UInt16(raw[2 * index]), high = UInt16(raw[2 * index + 1])
            let word = littleEndian ? low | high << 8 : high | low << 8
            mantissa |= UInt128(word) << (16 * index)
        }
        let negative = try object.bool(forKey: "NS.negative") ?? false
        guard let significand = Decimal(string: String(mantissa)) else {
            throw BinaryValueProblem(reason: "NSDecimalNumber \(object.reference) has a mantissa out of range")
        }
        return Decimal(sign: negative ? .minus : .plus, exponent: Int(exponent), significand: significand)
    }
}

/// Why an archived value does not fit its attribute.
struct BinaryValueProblem: Error, CustomStringConvertible {
    var reason: String
    var description: String { reason }
}
