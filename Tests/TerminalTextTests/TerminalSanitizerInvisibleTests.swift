import Foundation
import Testing
import TerminalText

/// Issue 16, item 6: invisible format characters are shown, joiners that shape non-ASCII text are kept, and JSON
/// bound for a terminal escapes what the sanitiser would not send raw while keeping the data exact.
struct TerminalSanitizerInvisibleTests {
    @Test(arguments: [
        ("pay\u{200B}pal", "pay<U+200B>pal"),           // zero-width space
        ("\u{FEFF}admin", "<U+FEFF>admin"),             // byte-order mark
        ("ad\u{2060}min", "ad<U+2060>min"),             // word joiner
        ("a\u{2062}b", "a<U+2062>b"),                   // invisible times
        ("soft\u{AD}hyphen", "soft<U+00AD>hyphen"),
        ("line\u{2028}sep\u{2029}", "line␤sep¶"),      // shown as line breaks, as a newline shows as ␊
        ("ad\u{200D}min", "ad<U+200D>min"),             // a joiner inside ASCII text hides
        ("ad\u{200C}min", "ad<U+200C>min"),
        ("\u{200D}👩", "<U+200D>👩"),                    // nothing to join on the left
        ("\u{180E}x\u{206A}", "<U+180E>x<U+206A>"),
        ("\u{FFF9}note\u{FFFB}", "<U+FFF9>note<U+FFFB>"),
    ])
    func invisibleCharactersAreShown(input: String, expected: String) {
        #expect(TerminalSanitizer.sanitize(input) == expected)
        #expect(TerminalSanitizer.sanitize(utf8: Array(input.utf8)) == expected)
    }

    @Test(arguments: ["👩‍👩‍👧", "🏳️‍🌈", "می‌خواهم", "क्‍ष"])
    func joinersBetweenNonASCIICharactersStay(text: String) {
        #expect(TerminalSanitizer.sanitize(text) == text)
        #expect(TerminalSanitizer.sanitize(utf8: Array(text.utf8)) == text)
    }

    @Test func jsonForATerminalEscapesAndKeepsTheData() throws {
        let value = "c1\u{85}\u{9B}31m del\u{7F} bidi\u{202E}x zw\u{200B} bom\u{FEFF} emoji👩‍👩‍👧 é"
        let json = String(decoding: try JSONSerialization.data(withJSONObject: ["k": value]), as: UTF8.self)
        let escaped = TerminalSanitizer.escapeForJSON(json)
        #expect(escaped.contains(#"c1\u0085\u009b31m del\u007f bidi\u202ex zw\u200b bom\ufeff emoji👩‍👩‍👧 é"#))
        let dangerous = escaped.unicodeScalars.filter {
            (0x7F...0x9F).contains($0.value) || [0x202E, 0x200B, 0xFEFF].contains($0.value)
        }
        #expect(dangerous.isEmpty)
        let decoded = try JSONSerialization.jsonObject(with: Data(escaped.utf8)) as? [String: String]
        #expect(decoded?["k"] == value)
        #expect(TerminalSanitizer.escapeForJSON(#"{"plain":"café"}"#) == #"{"plain":"café"}"#)
    }
}
