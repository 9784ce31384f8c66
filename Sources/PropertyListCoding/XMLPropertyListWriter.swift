import Foundation

/// Writes XML property lists in Apple's layout (tab indentation, the PropertyList-1.0 DOCTYPE), which
/// `PropertyListSerialization` and this module's `XMLPropertyListReader` read back.
///
/// Dictionary keys are sorted. UIDs are written as `<dict><key>CF$UID</key><integer>N</integer></dict>`, as
/// Apple does. Dates keep whole seconds only (the XML format has no fractions). Writing throws for `.null`
/// (XML has no null), for strings holding characters XML 1.0 forbids, and for dates outside years 1–9999.
public struct XMLPropertyListWriter: Sendable {
    /// A writer.
    public init() {}

    /// The XML document for `value`, UTF-8 encoded.
    public func write(_ value: PropertyListValue) throws -> Data {
        var output = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">

            """
        try append(value, indentation: "", to: &output)
        output += "</plist>\n"
        return Data(output.utf8)
    }

    private func append(_ value: PropertyListValue, indentation: String, to output: inout String) throws {
        switch value {
        case .string(let string):
            output += "\(indentation)<string>\(try Self.escaped(string))</string>\n"
        case .integer(let integer):
            output += "\(indentation)<integer>\(integer)</integer>\n"
        case .unsignedInteger(let integer):
            output += "\(indentation)<integer>\(integer)</integer>\n"
        case .real(let real):
            output += "\(indentation)<real>\(Self.text(for: real))</real>\n"
        case .bool(let flag):
            output += "\(indentation)<\(flag ? "true" : "false")/>\n"
        case .date(let date):
            output += "\(indentation)<date>\(try PlistDateFormat.string(from: date))</date>\n"
        case .data(let data):
            output += "\(indentation)<data>\n"
            let encoded = data.base64EncodedString()
            var lineStart = encoded.startIndex
            while lineStart < encoded.endIndex {
                let lineEnd = encoded.index(lineStart, offsetBy: 68, limitedBy: encoded.endIndex) ?? encoded.endIndex
                output += "\(indentation)\(encoded[lineStart..<lineEnd])\n"
                lineStart = lineEnd
            }
            output += "\(indentation)</data>\n"
        case .array(let elements):
            guard !elements.isEmpty else {
                output += "\(indentation)<array/>\n"
                return
            }
            output += "\(indentation)<array>\n"
            for element in elements { try append(element, indentation: indentation + "\t", to: &output) }
            output += "\(indentation)</array>\n"
        case .dictionary(let entries):
            guard !entries.isEmpty else {
                output += "\(indentation)<dict/>\n"
                return
            }
            output += "\(indentation)<dict>\n"
            for (key, entry) in entries.sorted(by: { $0.key < $1.key }) {
                output += "\(indentation)\t<key>\(try Self.escaped(key))</key>\n"
                try append(entry, indentation: indentation + "\t", to: &output)
            }
            output += "\(indentation)</dict>\n"
        case .uid(let uid):
            output += "\(indentation)<dict>\n\(indentation)\t<key>CF$UID</key>\n"
            output += "\(indentation)\t<integer>\(uid)</integer>\n\(indentation)</dict>\n"
        case .null:
            throw PropertyListError(reason: "XML property lists cannot hold null")
        }
    }

    /// Apple's spellings for the special values; otherwise Swift's shortest round-tripping form.
    private static func text(for real: Double) -> String {
        if real.isNaN { return "nan" }
        if real.isInfinite { return real < 0 ? "-infinity" : "+infinity" }
        return "\(real)"
    }

    /// `string` with XML's special characters escaped. A carriage return becomes `&#13;` because XML parsers
    /// turn a literal one into a line feed.
    static func escaped(_ string: String) throws -> String {
        var result = ""
        result.reserveCapacity(string.utf8.count)
        for scalar in string.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\r": result += "&#13;"
            case "\t", "\n": result.unicodeScalars.append(scalar)
            case "\u{0}"..."\u{1F}", "\u{FFFE}", "\u{FFFF}":
                throw PropertyListError(reason: "U+\(String(scalar.value, radix: 16, uppercase: true)) cannot appear in an XML property list")
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
