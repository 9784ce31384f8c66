import Foundation

/// Reads XML property lists (`<plist version="1.0">`), including keyed-archive UIDs written as
/// `<dict><key>CF$UID</key><integer>N</integer></dict>`.
///
/// FoundationXML's `XMLParser` tokenises the document (external entities and the DTD are not fetched); this type
/// checks the plist grammar. Errors give the line and name the element.
public struct XMLPropertyListReader: Sendable {
    /// The deepest nesting of arrays and dictionaries accepted.
    public var maximumDepth: Int

    /// A reader that rejects documents nested deeper than `maximumDepth`.
    public init(maximumDepth: Int = BinaryPropertyListReader.defaultMaximumDepth) {
        self.maximumDepth = maximumDepth
    }

    /// Decodes the value of the XML property list in `data`.
    public func read(_ data: Data) throws -> PropertyListValue {
        let root = try XMLElementTreeBuilder.parse(data, maximumDepth: maximumDepth + 2)
        if root.name == "plist" {
            guard root.children.count == 1 else {
                throw PropertyListError(line: root.line, reason: "<plist> holds \(root.children.count) values, not one")
            }
            try Self.requireNoText(in: root)
            return try value(of: root.children[0])
        }
        // CoreFoundation also accepts a bare value without the <plist> wrapper.
        return try value(of: root)
    }

    /// Decodes the value of the XML property list in `bytes`.
    public func read(_ bytes: [UInt8]) throws -> PropertyListValue {
        try read(Data(bytes))
    }

    private func value(of element: XMLElementNode) throws -> PropertyListValue {
        switch element.name {
        case "dict": return try dictionary(of: element)
        case "array":
            try Self.requireNoText(in: element)
            return .array(try element.children.map { try value(of: $0) })
        case "string": return .string(try Self.leafText(of: element))
        case "integer": return try integer(of: element)
        case "real": return try real(of: element)
        case "true", "false":
            guard try Self.leafText(of: element).allSatisfy(\.isWhitespace) else {
                throw PropertyListError(line: element.line, reason: "<\(element.name)/> must be empty")
            }
            return .bool(element.name == "true")
        case "date":
            let text = try Self.leafText(of: element).trimmingCharacters(in: .whitespacesAndNewlines)
            guard let date = PlistDateFormat.date(from: text) else {
                throw PropertyListError(line: element.line, reason: "<date> \"\(text)\" is not YYYY-MM-DDTHH:MM:SSZ")
            }
            return .date(date)
        case "data":
            let text = try Self.leafText(of: element)
            guard let data = Data(base64Encoded: text.filter { !$0.isWhitespace }) else {
                throw PropertyListError(line: element.line, reason: "<data> is not valid base64")
            }
            return .data(data)
        default:
            throw PropertyListError(line: element.line, reason: "<\(element.name)> is not a property list element")
        }
    }

    private func dictionary(of element: XMLElementNode) throws -> PropertyListValue {
        try Self.requireNoText(in: element)
        guard element.children.count.isMultiple(of: 2) else {
            throw PropertyListError(line: element.line, reason: "<dict> has a key without a value")
        }
        var entries: [String: PropertyListValue] = [:]
        for pairStart in stride(from: 0, to: element.children.count, by: 2) {
            let keyElement = element.children[pairStart]
            guard keyElement.name == "key" else {
                throw PropertyListError(line: keyElement.line, reason: "<dict> holds <\(keyElement.name)> where a <key> belongs")
            }
            entries[try Self.leafText(of: keyElement)] = try value(of: element.children[pairStart + 1])
        }
        // The XML form of a keyed-archive UID.
        if entries.count == 1, let uid = entries["CF$UID"], let number = uid.uint64Value {
            return .uid(number)
        }
        return .dictionary(entries)
    }

    private func integer(of element: XMLElementNode) throws -> PropertyListValue {
        let text = try Self.leafText(of: element).trimmingCharacters(in: .whitespacesAndNewlines)
        var digits = Substring(text)
        let negative = digits.first == "-"
        if digits.first == "-" || digits.first == "+" { digits = digits.dropFirst() }
        var radix = 10
        if digits.hasPrefix("0x") || digits.hasPrefix("0X") {
            radix = 16
            digits = digits.dropFirst(2)
        }
        // Digits only: UInt64(_:radix:) would otherwise accept its own sign characters.
        guard !digits.isEmpty, digits.allSatisfy({ $0.isHexDigit && (radix == 16 || $0.isNumber) }),
              let magnitude = UInt64(digits, radix: radix) else {
            throw PropertyListError(line: element.line, reason: "<integer> \"\(text)\" is not an integer of 64 bits")
        }
        if !negative { return .integer(exactly: magnitude) }
        if magnitude <= UInt64(Int64.max) { return .integer(-Int64(magnitude)) }
        if magnitude == UInt64(Int64.max) + 1 { return .integer(Int64.min) }
        throw PropertyListError(line: element.line, reason: "<integer> \"\(text)\" is below Int64.min")
    }

    private func real(of element: XMLElementNode) throws -> PropertyListValue {
        let text = try Self.leafText(of: element).trimmingCharacters(in: .whitespacesAndNewlines)
        switch text.lowercased() {
        case "nan": return .real(.nan)
        case "inf", "+inf", "infinity", "+infinity": return .real(.infinity)
        case "-inf", "-infinity": return .real(-.infinity)
        default:
            guard let number = Double(text) else {
                throw PropertyListError(line: element.line, reason: "<real> \"\(text)\" is not a number")
            }
            return .real(number)
        }
    }

    private static func leafText(of element: XMLElementNode) throws -> String {
        guard element.children.isEmpty else {
            throw PropertyListError(line: element.line, reason: "<\(element.name)> contains <\(element.children[0].name)>")
        }
        return element.text
    }

    private static func requireNoText(in element: XMLElementNode) throws {
        guard element.text.allSatisfy(\.isWhitespace) else {
            throw PropertyListError(line: element.line, reason: "<\(element.name)> contains text outside its elements")
        }
    }
}
