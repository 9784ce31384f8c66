/// The one sanitiser every string from a store or a model passes before it reaches a terminal.
///
/// Data is untrusted: a string can hold escape sequences that retitle the window, clear the screen or write the
/// clipboard, bidi overrides that reorder what is shown, NULs, or bytes that are not UTF-8. Each is rendered as a
/// visible symbol, never sent raw: C0 controls as their Control Pictures (`␛`, `␀`), DEL as `␡`, C1 controls, bidi
/// controls and invisible format characters (zero-width space, word joiner, byte-order mark, soft hyphen) as
/// `<U+202E>`, the line and paragraph separators U+2028 and U+2029 as `␤` and `¶` (line breaks, shown as a newline
/// shows in one line: `␊`), and invalid UTF-8 bytes as `\xFF`. Zero-width joiners and non-joiners stay
/// where they join two non-ASCII characters (an emoji sequence, a Persian word), which is where they have an effect.
///
/// JSON written to a terminal goes through ``escapeForJSON(_:)`` instead: the same characters become `\uXXXX`
/// escapes, so the output stays valid JSON holding the exact data.
public enum TerminalSanitizer {
    /// How line breaks and tabs are treated.
    public enum Layout: Sendable {
        /// One line: newlines and tabs become visible symbols too (table cells, single-line output).
        case singleLine
        /// Several lines: `\n` stays a line break and `\t` stays a tab (detail panes, wrapped text).
        case multiLine
    }

    /// Returns `text` with every control, escape, bidi and invisible format character made visible.
    public static func sanitize(_ text: String, layout: Layout = .singleLine) -> String {
        guard needsSanitizing(text, layout: layout) else { return text }
        var output = String.UnicodeScalarView()
        let scalars = Array(text.unicodeScalars)
        for index in scalars.indices {
            if isKeptJoiner(scalars, at: index) {
                output.append(scalars[index])
            } else {
                appendVisible(scalars[index], layout: layout, to: &output)
            }
        }
        return String(output)
    }

    /// Escapes, in serialised JSON, every character the sanitiser would not send raw to a terminal (C1 controls,
    /// DEL, bidi and invisible format characters; the serialiser has escaped C0 already) as `\uXXXX`. The result
    /// is valid JSON that decodes to exactly the same data, and safe to print.
    public static func escapeForJSON(_ json: String) -> String {
        let scalars = Array(json.unicodeScalars)
        guard scalars.indices.contains(where: { isUnsafe(scalars[$0], layout: .multiLine) && !isKeptJoiner(scalars, at: $0) })
        else { return json }
        var output = String.UnicodeScalarView()
        for index in scalars.indices {
            let scalar = scalars[index]
            // Outside strings JSON holds only ASCII structure, so every such scalar is inside a string literal.
            if isUnsafe(scalar, layout: .multiLine) && !isKeptJoiner(scalars, at: index) && scalar.value >= 0x20 {
                output.append(contentsOf: "\\u\(hex(scalar.value, width: 4).lowercased())".unicodeScalars)
            } else {
                output.append(scalar)
            }
        }
        return String(output)
    }

    /// Decodes bytes as UTF-8, showing each byte that is not part of a valid sequence as `\xNN`, then sanitises
    /// the result.
    public static func sanitize(utf8 bytes: some Collection<UInt8>, layout: Layout = .singleLine) -> String {
        let bytes = Array(bytes)
        var output = String.UnicodeScalarView()
        var run: [Unicode.Scalar] = []
        // Valid runs go through `sanitize(_:layout:)` whole, so joiners are judged by their neighbours.
        func flushRun() {
            if !run.isEmpty { output.append(contentsOf: sanitize(String(String.UnicodeScalarView(run)), layout: layout).unicodeScalars) }
            run.removeAll()
        }
        var index = 0
        while index < bytes.count {
            if let (scalar, length) = decodeScalar(in: bytes, at: index) {
                run.append(scalar)
                index += length
            } else {
                flushRun()
                output.append(contentsOf: "\\x\(hex(bytes[index]))".unicodeScalars)
                index += 1
            }
        }
        flushRun()
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
        if value < 0x7F { return false }
        return value == 0x7F || (0x80...0x9F).contains(value) || isBidiControl(value) || isInvisibleFormat(value)
    }

    /// Characters that draw nothing (or, for U+2028/U+2029, break lines on some terminals), so text holding them
    /// looks like other text: zero-width space, joiners, word joiner and invisible operators, byte-order mark,
    /// soft hyphen, Mongolian vowel separator, deprecated format characters, interlinear annotation marks.
    private static func isInvisibleFormat(_ value: UInt32) -> Bool {
        value == 0x00AD || value == 0x180E || (0x200B...0x200D).contains(value) || value == 0x2028 || value == 0x2029
            || (0x2060...0x2064).contains(value) || (0x206A...0x206F).contains(value) || value == 0xFEFF
            || (0xFFF9...0xFFFB).contains(value)
    }

    /// A zero-width joiner or non-joiner between two non-ASCII characters that are not themselves unsafe: it
    /// shapes what it joins (emoji sequences, Persian and Indic words) rather than hiding in ASCII text.
    private static func isKeptJoiner(_ scalars: [Unicode.Scalar], at index: Int) -> Bool {
        let value = scalars[index].value
        guard value == 0x200C || value == 0x200D, index > 0, index + 1 < scalars.count else { return false }
        func joins(_ neighbour: Unicode.Scalar) -> Bool {
            neighbour.value > 0x7F && !isUnsafe(neighbour, layout: .singleLine)
                && !neighbour.properties.isWhitespace
        }
        return joins(scalars[index - 1]) && joins(scalars[index + 1])
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
        } else if value == 0x2028 {
            output.append(Unicode.Scalar(0x2424)!)  // ␤: a line break, read as one like ␊
        } else if value == 0x2029 {
            output.append(Unicode.Scalar(0x00B6)!)  // ¶: a paragraph break
        } else {
            output.append(contentsOf: "<U+\(hex(value, width: 4))>".unicodeScalars)
        }
    }

    private static func hex(_ value: some BinaryInteger, width: Int = 2) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
