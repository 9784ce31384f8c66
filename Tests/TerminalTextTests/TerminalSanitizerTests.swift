import Testing
import TerminalText

struct TerminalSanitizerTests {
    @Test(arguments: [
        ("plain café 日本 👩‍👩‍👧", "plain café 日本 👩‍👩‍👧"),
        ("\u{1B}]0;owned\u{07}", "␛]0;owned␇"),                 // set the window title
        ("\u{1B}[2J\u{1B}[H", "␛[2J␛[H"),                          // clear the screen
        ("\u{1B}]52;c;aGVsbG8=\u{07}", "␛]52;c;aGVsbG8=␇"),        // write the clipboard (OSC 52)
        ("a\u{0}b", "a␀b"),
        ("tab\there\nline", "tab␉here␊line"),
        ("\u{202E}evil\u{202C}", "<U+202E>evil<U+202C>"),
        ("\u{2066}x\u{2069}", "<U+2066>x<U+2069>"),
        ("\u{9B}31m", "<U+009B>31m"),                                // C1 CSI
        ("del\u{7F}", "del␡"),
    ])
    func singleLine(input: String, expected: String) {
        #expect(TerminalSanitizer.sanitize(input) == expected)
    }

    @Test func multiLineKeepsNewlinesAndTabs() {
        #expect(TerminalSanitizer.sanitize("a\tb\nc\u{1B}", layout: .multiLine) == "a\tb\nc␛")
    }

    @Test func invalidUTF8IsShownByteByByte() {
        #expect(TerminalSanitizer.sanitize(utf8: [0x61, 0xFF, 0x62]) == "a\\xFFb")
        #expect(TerminalSanitizer.sanitize(utf8: [0xC3, 0xA9]) == "é")
        #expect(TerminalSanitizer.sanitize(utf8: [0xC3]) == "\\xC3")
        #expect(TerminalSanitizer.sanitize(utf8: [0xE2, 0x82, 0x41]) == "\\xE2\\x82A")
        #expect(TerminalSanitizer.sanitize(utf8: [0xC0, 0x80]) == "\\xC0\\x80", "overlong NUL")
        #expect(TerminalSanitizer.sanitize(utf8: [0xED, 0xA0, 0x80]) == "\\xED\\xA0\\x80", "surrogate")
        #expect(TerminalSanitizer.sanitize(utf8: [0x1B, 0x5B]) == "␛[")
    }

    @Test func noEscapeByteSurvivesAnyInput() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let bytes = (0..<Int.random(in: 0..<40, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let output = TerminalSanitizer.sanitize(utf8: bytes)
            #expect(!output.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
        }
    }
}
