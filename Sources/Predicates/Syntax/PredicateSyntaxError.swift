import TerminalText

/// A predicate format string that could not be parsed: where (a UTF-8 offset), what was expected there and
/// what was found instead.
public struct PredicateSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The format string as given.
    public var format: String
    /// The UTF-8 offset of the offending character (equal to the length of the format at its end).
    public var offset: Int
    /// What the parser expected, such as `"an expression"` or `"')'"`.
    public var expected: String
    /// What it found, such as `"end of input"` or `"'=='"`, or a description of a bad argument.
    public var found: String

    /// Makes an error.
    public init(format: String, offset: Int, expected: String, found: String) {
        self.format = format
        self.offset = offset
        self.expected = expected
        self.found = found
    }

    /// One sentence: `expected …, found …`.
    public var reason: String { "expected \(expected), found \(found)" }

    /// The reason, the offset and the format string.
    public var description: String { "\(reason) at offset \(offset) in predicate \"\(format)\"" }

    /// The offending line of the format string with a caret under the offending character, then the reason:
    /// ```
    /// name == "Ann" AND
    ///                   ^ expected a predicate, found end of input
    /// ```
    /// Control characters are shown as visible symbols by the one terminal sanitiser (`TerminalText`) and wide
    /// characters take two columns, so the caret lines up in a terminal.
    public var caretDiagnostic: String {
        let bytes = Array(format.utf8)
        let clamped = min(max(offset, 0), bytes.count)
        var lineStart = clamped
        while lineStart > 0, bytes[lineStart - 1] != 0x0A { lineStart -= 1 }
        var lineEnd = clamped
        while lineEnd < bytes.count, bytes[lineEnd] != 0x0A { lineEnd += 1 }
        let before = String(decoding: bytes[lineStart..<clamped], as: UTF8.self)
        let line = String(decoding: bytes[lineStart..<lineEnd], as: UTF8.self)
        let shown = TerminalSanitizer.sanitize(line)
        let column = DisplayWidth.of(TerminalSanitizer.sanitize(before))
        return shown + "\n" + String(repeating: " ", count: column) + "^ " + reason
    }
}
