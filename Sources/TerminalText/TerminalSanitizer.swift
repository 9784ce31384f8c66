/// The one sanitiser every string from a store or a model passes before it reaches a terminal.
///
/// Data is untrusted: a string can hold escape sequences that retitle the window, clear the screen or write the
/// clipboard, bidi overrides that reorder what is shown, NULs, or bytes that are not UTF-8. Each is rendered as a
/// visible symbol, never sent raw: C0 controls as their Control Pictures (`␛`, `␀`), DEL as `␡`, C1 controls and
/// bidi controls as `<U+202E>`, and invalid UTF-8 bytes as `\xFF`.
public enum TerminalSanitizer {
    /// How line breaks and tabs are treated.
    public enum Layout: Sendable {
        /// One line: newlines and tabs become visible symbols too (table cells, single-line output).
        case singleLine
        /// Several lines: `\n` stays a line break and `\t` stays a tab (detail panes, wrapped text).
        case multiLine
    }

    /// Returns `text` with every control, escape and bidi character made visible.
    public static func sanitize(_ text: String, layout: Layout = .singleLine) -> String {
        guard needsSanitizing(text, layout: layout) else { return text }
        var output = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            appendVisible(scalar, layout: layout, to: &output)
        }
        return String(output)
    }

    /// Decodes bytes as UTF-8, showing each byte that is not part of a valid sequence as `\xNN`, then sanitises
    /// the result.
    public static func sanitize(utf8 bytes: some Collection<UInt8>, layout: Layout = .singleLine) -> String {
        let bytes = Array(bytes)
        var output = String.UnicodeScalarView()
        var index = 0
        while index < bytes.count {
            if let (scalar, length) = decodeScalar(in: bytes, at: index) {
                appendVisible(scalar, layout: layout, to: &output)
                index += length
            } else {
                output.append(contentsOf: "\\x\(hex(bytes[index]))".unicodeScalars)
                index += 1
            }
        }
        return String(output)
    }

    /// One well-formed UTF-8 sequence at `index` (no overlong forms, no surrogates, nothing above U+10FFFF).
    private static func decodeScalar(in bytes: [UInt8], at index: Int) -> (Unicode.Scalar, Int)? {
        let lead = bytes[index]
        let length: Int, minimum: UInt32
        var value: UInt32
        switch lead {
        case 0x00...0x7F: return (Unicode.Scalar(lead), 1)
        case 0xC2...0xDF: length = 2; minimum = 0x80; value = UInt32(lead & 0x1F)
        case 0xE0...0xEF: length = 3; minimum = 0x800; value = UInt32(lead & 0x0F)
        case 0xF0...0xF4: length = 4; minimum = 0x10000; value = UInt32(lead & 0x07)
        default: return nil
        }
        guard index + length <= bytes.count else { return nil }
        for offset in 1..<length {
            let byte = bytes[index + offset]
            guard byte & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        guard value >= minimum, let scalar = Unicode.Scalar(value) else { return nil }
        return (scalar, length)
    }

    // MARK: Scalars

    private static func needsSanitizing(_ text: String, layout: Layout) -> Bool {
        text.unicodeScalars.contains { isUnsafe($0, layout: layout) }
    }

    private static func isUnsafe(_ scalar: Unicode.Scalar, layout: Layout) -> Bool {
        let value = scalar.value
        if value < 0x20 {
            return !(layout == .multiLine && (value == 0x0A || value == 0x09))
        }
        return value == 0x7F || (0x80...0x9F).contains(value) || isBidiControl(value)
    }

    private static func isBidiControl(_ value: UInt32) -> Bool {
        (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
            || value == 0x200E || value == 0x200F || value == 0x061C
    }

    private static func appendVisible(_ scalar: Unicode.Scalar, layout: Layout, to output: inout String.UnicodeScalarView) {
        guard isUnsafe(scalar, layout: layout) else {
            output.append(scalar)
            return
        }
        let value = scalar.value
        if value < 0x20 {
            output.append(Unicode.Scalar(0x2400 + value)!)  // Control Pictures: ␀ … ␟
        } else if value == 0x7F {
            output.append(Unicode.Scalar(0x2421)!)  // ␡
        } else {
            output.append(contentsOf: "<U+\(hex(value, width: 4))>".unicodeScalars)
        }
    }

    private static func hex(_ value: some BinaryInteger, width: Int = 2) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
