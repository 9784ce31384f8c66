import Foundation

extension Lexer {
    // MARK: Strings

    /// A quoted string; the other quote character needs no escape. Escapes: `\"` `\'` `\\` `\n` `\t` `\r`,
    /// `\` and three octal digits, `\x` and two hex digits, `\u` and four hex digits (surrogate pairs joined).
    /// Any other escaped character keeps its backslash, so LIKE (`\*`) and MATCHES (`\d`) patterns survive.
    mutating func lexString(quote: UInt8) throws(PredicateSyntaxError) -> String {
        let opening = position
        position += 1
        var text: [UInt8] = []
        var pendingHighSurrogate: UInt32?
        func appendScalar(_ value: UInt32, into text: inout [UInt8]) {
            if let scalar = Unicode.Scalar(value) { text.append(contentsOf: Array(String(scalar).utf8)) }
        }
        while true {
            guard let byte = byteAt(position) else {
                throw PredicateSyntaxError(
                    format: format, offset: position,
                    expected: "\(quote == UInt8(ascii: "'") ? "'" : "\"") to close the string opened at offset \(opening)",
                    found: "end of input")
            }
            if byte == quote { position += 1; break }
            guard byte == UInt8(ascii: "\\") else { text.append(byte); position += 1; continue }
            let escapeStart = position
            position += 1
            guard let escaped = byteAt(position) else { continue }
            switch escaped {
            case UInt8(ascii: "n"): text.append(0x0A); position += 1
            case UInt8(ascii: "t"): text.append(0x09); position += 1
            case UInt8(ascii: "r"): text.append(0x0D); position += 1
            case UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "\\"): text.append(escaped); position += 1
            case UInt8(ascii: "0")...UInt8(ascii: "7"):
                let value = try escapeDigits(count: 3, radix: 8, from: position, escapeStart: escapeStart)
                appendScalar(value, into: &text)
            case UInt8(ascii: "x"), UInt8(ascii: "X"):
                let value = try escapeDigits(count: 2, radix: 16, from: position + 1, escapeStart: escapeStart)
                appendScalar(value, into: &text)
            case UInt8(ascii: "u"), UInt8(ascii: "U"):
                let value = try escapeDigits(count: 4, radix: 16, from: position + 1, escapeStart: escapeStart)
                if (0xD800...0xDBFF).contains(value) {
                    pendingHighSurrogate = value
                } else if (0xDC00...0xDFFF).contains(value), let high = pendingHighSurrogate {
                    appendScalar(0x10000 + ((high - 0xD800) << 10) + (value - 0xDC00), into: &text)
                    pendingHighSurrogate = nil
                } else {
                    appendScalar(value, into: &text)
                }
                continue
            default:
                text.append(UInt8(ascii: "\\"))
            }
            pendingHighSurrogate = nil
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Reads `count` digits in `radix` starting at `start`, leaving `position` after them.
    private mutating func escapeDigits(count: Int, radix: Int, from start: Int, escapeStart: Int) throws(PredicateSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for index in start..<start + count {
            guard let byte = byteAt(index), let digit = Int(String(UnicodeScalar(byte)), radix: radix) else {
                throw PredicateSyntaxError(
                    format: format, offset: min(index, bytes.count),
                    expected: "\(count) \(radix == 8 ? "octal" : "hexadecimal") digits in the escape at offset \(escapeStart)",
                    found: byteAt(index).map { "'\(String(UnicodeScalar($0)))'" } ?? "end of input")
            }
            value = value * UInt32(radix) + UInt32(digit)
        }
        position = start + count
        return value
    }

    // MARK: Numbers

    /// Decimal integers and fixed point with an optional exponent, and `0x`, `0o`, `0b` integers.
    mutating func lexNumber() throws(PredicateSyntaxError) -> Token.Kind {
        let start = position
        if byteAt(position) == UInt8(ascii: "0"), let prefix = byteAt(position + 1).map({ Character(UnicodeScalar($0)).lowercased() }),
           let radix = ["x": 16, "o": 8, "b": 2][prefix] {
            position += 2
            let digitsStart = position
            while let byte = byteAt(position), Int(String(UnicodeScalar(byte)), radix: radix) != nil { position += 1 }
            let digits = String(decoding: bytesIn(digitsStart..<position), as: UTF8.self)
            try rejectTrailingLetters(numberStart: start)
            guard !digits.isEmpty else {
                throw PredicateSyntaxError(format: format, offset: position, expected: "digits after '0\(prefix)'",
                                           found: describeByte(at: position))
            }
            guard let value = Int64(digits, radix: radix) else {
                throw PredicateSyntaxError(format: format, offset: start, expected: "an integer that fits in 64 bits",
                                           found: "0\(prefix)\(digits)")
            }
            return .integer(value)
        }
        var isInteger = true
        skipDigits()
        if byteAt(position) == UInt8(ascii: "."), isDigitByte(byteAt(position + 1)) {
            isInteger = false
            position += 1
            skipDigits()
        }
        if let e = byteAt(position), e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            var next = position + 1
            if let sign = byteAt(next), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { next += 1 }
            if isDigitByte(byteAt(next)) {
                isInteger = false
                position = next
                skipDigits()
            }
        }
        try rejectTrailingLetters(numberStart: start)
        let text = String(decoding: bytesIn(start..<position), as: UTF8.self)
        if isInteger, let value = Int64(text) { return .integer(value) }
        guard let value = Double(text), value.isFinite else {
            throw PredicateSyntaxError(format: format, offset: start, expected: "a number within the range of a double",
                                       found: text)
        }
        return .double(value)
    }

    private mutating func skipDigits() {
        while isDigitByte(byteAt(position)) { position += 1 }
    }

    private func rejectTrailingLetters(numberStart: Int) throws(PredicateSyntaxError) {
        if let byte = byteAt(position), byte == UInt8(ascii: "_") || (byte < 0x80 && Character(UnicodeScalar(byte)).isLetter) || isDigitByte(byte) {
            throw PredicateSyntaxError(format: format, offset: position,
                                       expected: "the end of the number that starts at offset \(numberStart)",
                                       found: describeByte(at: position))
        }
    }

    // MARK: Format arguments

    /// `%@`, `%K`, `%%`, or a printf conversion with optional flags, width, precision and length.
    mutating func lexFormatArgument() throws(PredicateSyntaxError) -> FormatConversion {
        let start = position
        position += 1
        switch byteAt(position) {
        case UInt8(ascii: "@"): position += 1; return .object
        case UInt8(ascii: "K"): position += 1; return .keyPath
        case UInt8(ascii: "%"): position += 1; return .percent
        default: break
        }
        while let byte = byteAt(position), "-+ #0".utf8.contains(byte) { position += 1 }
        skipDigits()
        if byteAt(position) == UInt8(ascii: ".") { position += 1; skipDigits() }
        while let byte = byteAt(position), "hlqLzjt".utf8.contains(byte) { position += 1 }
        guard let conversion = byteAt(position) else {
            throw PredicateSyntaxError(format: format, offset: position, expected: "a conversion character after '%'",
                                       found: "end of input")
        }
        position += 1
        let spec = String(decoding: bytesIn(start..<position), as: UTF8.self)
        switch UnicodeScalar(conversion) {
        case "d", "i", "u", "o", "x", "X", "c", "D", "U", "O": return .integer(spec)
        case "f", "F", "e", "E", "g", "G", "a", "A": return .floatingPoint(spec)
        case "s", "S": return .string
        case "@": return .object
        default:
            throw PredicateSyntaxError(format: format, offset: position - 1,
                                       expected: "a format conversion (%@, %K, %d, %i, %ld, %f, %s or %%)",
                                       found: describeByte(at: position - 1))
        }
    }

    // MARK: Helpers

    func byteAt(_ index: Int) -> UInt8? {
        index >= 0 && index < bytes.count ? bytes[index] : nil
    }

    private func bytesIn(_ range: Range<Int>) -> ArraySlice<UInt8> { bytes[range] }

    func isDigitByte(_ byte: UInt8?) -> Bool {
        guard let byte else { return false }
        return byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private func describeByte(at index: Int) -> String {
        guard let byte = byteAt(index) else { return "end of input" }
        return byte < 0x80 && byte >= 0x20 ? "'\(String(UnicodeScalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
    }
}
