import Foundation

/// A check made before `XMLParser` sees a document. Foundation's parser on Linux stops the program in its libxml2
/// callbacks on inputs the fuzzer found: a name holding bytes that are not UTF-8 (libxml2 passes them through for a
/// document read as UTF-8), a processing instruction without data (`<?pi?>`), and DTD declarations with an absent
/// part (`<!NOTATION n PUBLIC "x">`, `<!ATTLIST a b CDATA #IMPLIED>`, `<!ENTITY e SYSTEM "x" NDATA n>`). Property
/// lists and Xcode models use none of these, so a document holding one is refused up front with a clear reason.
public enum XMLInputCheck {
    /// What makes `data` unsafe to hand to `XMLParser`, and where (a byte offset), or nil.
    public static func problem(in data: Data) -> (offset: Int, reason: String)? {
        if let offset = invalidUTF8Offset(in: data) { return (offset, "the XML is not valid UTF-8") }
        return markupProblem([UInt8](data))
    }

    /// Processing instructions other than the XML declaration, and declarations of a DTD's internal subset
    /// (`<!ENTITY`, `<!ELEMENT`, `<!ATTLIST`, `<!NOTATION`), outside comments and CDATA sections.
    static func markupProblem(_ bytes: [UInt8]) -> (offset: Int, reason: String)? {
        var index = 0
        func starts(_ text: String, at position: Int) -> Bool {
            let pattern = Array(text.utf8)
            return position + pattern.count <= bytes.count && Array(bytes[position..<(position + pattern.count)]) == pattern
        }
        func skip(to terminator: String, from position: Int) -> Int {
            var cursor = position
            while cursor < bytes.count && !starts(terminator, at: cursor) { cursor += 1 }
            return cursor + terminator.utf8.count
        }
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "<") else { index += 1; continue }
            if starts("<!--", at: index) {
                index = skip(to: "-->", from: index + 4)
            } else if starts("<![CDATA[", at: index) {
                index = skip(to: "]]>", from: index + 9)
            } else if starts("<?", at: index) {
                // Only a well-formed XML declaration at the start: `<?xml?>` without a version reaches libxml2's
                // processing-instruction callback with no data, like any other instruction.
                let end = skip(to: "?>", from: index + 2)
                let body = String(decoding: bytes[(index + 2)..<min(max(end - 2, index + 2), bytes.count)], as: UTF8.self)
                guard index <= 3, body.hasPrefix("xml"), body.dropFirst(3).first?.isWhitespace == true,
                      body.contains("version") else {
                    return (index, "processing instructions other than the XML declaration are not accepted")
                }
                index = end
            } else if starts("<!", at: index) && !starts("<!DOCTYPE", at: index) {
                return (index, "DTD declarations (<!ENTITY, <!ELEMENT, <!ATTLIST, <!NOTATION) are not accepted")
            } else if starts("<!DOCTYPE", at: index) {
                // An external DOCTYPE only: an internal subset would hold declarations.
                var cursor = index + 9, quote: UInt8?
                while cursor < bytes.count {
                    let byte = bytes[cursor]
                    if let open = quote {
                        if byte == open { quote = nil }
                    } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                        quote = byte
                    } else if byte == UInt8(ascii: "[") {
                        return (cursor, "a DOCTYPE with an internal subset is not accepted")
                    } else if byte == UInt8(ascii: ">") {
                        break
                    }
                    cursor += 1
                }
                index = cursor + 1
            } else {
                index += 1
            }
        }
        return nil
    }

    /// The byte offset of the first byte that is not part of well-formed UTF-8, or nil when there is none or the
    /// document is not read as UTF-8: it starts with a UTF-16 or UTF-32 byte-order mark, or its XML declaration
    /// names ISO-8859-1, whose every byte libxml2 transcodes to well-formed UTF-8. Any other declared encoding is
    /// checked as UTF-8 too: libxml2 passes bytes through for a name it does not know.
    public static func invalidUTF8Offset(in data: Data) -> Int? {
        let bytes = [UInt8](data)
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0x00, 0x00, 0xFE, 0xFF]) {
            return nil
        }
        if let encoding = declaredEncoding(bytes), ["iso-8859-1", "latin1", "iso_8859-1"].contains(encoding.lowercased()) {
            return nil
        }
        var index = 0
        while index < bytes.count {
            guard let length = sequenceLength(bytes, at: index) else { return index }
            index += length
        }
        return nil
    }

    /// The `encoding` of an XML declaration at the start of the document.
    private static func declaredEncoding(_ bytes: [UInt8]) -> String? {
        let head = String(decoding: bytes.prefix(200), as: UTF8.self)
        guard head.hasPrefix("<?xml"), let end = head.range(of: "?>"),
              let key = head.range(of: "encoding", range: head.startIndex..<end.lowerBound) else { return nil }
        let rest = head[key.upperBound..<end.lowerBound].drop { $0 == " " || $0 == "=" || $0 == "\t" }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        return String(rest.dropFirst().prefix { $0 != quote })
    }

    /// The length of the well-formed UTF-8 sequence at `index` (no overlong forms, no surrogates, nothing above
    /// U+10FFFF), or nil.
    private static func sequenceLength(_ bytes: [UInt8], at index: Int) -> Int? {
        let lead = bytes[index]
        let length: Int
        var lower: UInt8 = 0x80, upper: UInt8 = 0xBF
        switch lead {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; lower = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; upper = 0x9F
        case 0xF0: length = 4; lower = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; upper = 0x8F
        default: return nil
        }
        guard index + length <= bytes.count else { return nil }
        guard (lower...upper).contains(bytes[index + 1]) else { return nil }
        for offset in 2..<max(2, length) where !(0x80...0xBF).contains(bytes[index + offset]) { return nil }
        return length
    }
}
