import TerminalText
import CNCurses
import Testing
@testable import TerminalUI

struct DisplayWidthTests {
    @Test(arguments: [
        ("hello", 5),
        ("", 0),
        ("café", 4),                      // precomposed é
        ("cafe\u{301}", 4),               // e + combining acute
        ("a\u{300}\u{301}\u{302}", 1),    // stacked combining marks
        ("日本語", 6),
        ("ｈｅｌｌｏ", 10),                 // fullwidth Latin
        ("한국어", 6),                      // Hangul syllables
        ("\u{1100}\u{1161}\u{11A8}", 2),  // conjoining jamo L V T: one syllable
        ("😀", 2),
        ("👍🏽", 2),                        // skin tone modifier
        ("👩‍👩‍👧‍👦", 2),                       // ZWJ family
        ("🏳️‍🌈", 2),                        // flag ZWJ sequence
        ("🇫🇷", 2),                        // regional indicator pair
        ("🇫🇷🇩🇪", 4),
        ("❤️", 2),                         // text emoji + VS16
        ("❤", 1),                          // text emoji without selector
        ("⌚︎", 1),                         // emoji + VS15 (text presentation)
        ("1️⃣", 2),                         // keycap sequence
        ("a\u{200B}b", 2),                // zero-width space
        ("a\u{200D}b", 2),                // lone zero-width joiner
        ("a\u{2060}b\u{FEFF}", 2),        // word joiner, BOM
        ("x\u{AD}y", 3),                  // soft hyphen is shown
        ("Ω≈ç√", 4),
    ])
    func widthOfStrings(text: String, expected: Int) {
        #expect(DisplayWidth.of(text) == expected, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
    }

    @Test func loneRegionalIndicatorIsOneColumn() {
        #expect(DisplayWidth.of(Character("\u{1F1EB}")) == 1)
    }

    /// glibc's `wcwidth` agrees with the tables for single scalars of ASCII, CJK, Hangul and combining marks; it
    /// is wrong only for sequences, which it cannot see.
    @Test(.enabled(if: TestLocale.useUTF8(), "no UTF-8 locale installed"))
    func agreesWithGlibcForSingleScalars() {
        let samples: [UInt32] = Array(0x20...0x7E) + [0x301, 0x3042, 0x4E2D, 0xAC00, 0xFF21, 0x1100, 0x20000, 0xE9, 0x3A9]
        for value in samples {
            let scalar = Unicode.Scalar(value)!
            #expect(DisplayWidth.of(scalar) == Int(ocd_wcwidth(wchar_t(value))), "U+\(String(value, radix: 16))")
        }
        // Where glibc is wrong: it sums the scalars of a ZWJ family.
        let family = "👩‍👩‍👧"
        let glibcSum = family.unicodeScalars.map { Int(ocd_wcwidth(wchar_t($0.value))) }.reduce(0, +)
        #expect(glibcSum > 2)
        #expect(DisplayWidth.of(family) == 2)
    }

    @Test func truncationNeverCutsAClusterAndAddsAnEllipsis() {
        #expect(DisplayWidth.truncate("hello world", toWidth: 8) == "hello w…")
        #expect(DisplayWidth.truncate("hello", toWidth: 5) == "hello")
        #expect(DisplayWidth.truncate("日本語テキスト", toWidth: 6) == "日本…")     // 4 + 1 = 5: a wide char cannot fit
        #expect(DisplayWidth.truncate("cafe\u{301}s", toWidth: 4) == "caf…")
        #expect(DisplayWidth.truncate("cafe\u{301}", toWidth: 4) == "cafe\u{301}")
        #expect(DisplayWidth.truncate("👩‍👩‍👧abc", toWidth: 3) == "👩‍👩‍👧…")
        #expect(DisplayWidth.truncate("abc", toWidth: 0) == "")
        #expect(DisplayWidth.truncate("abcdef", toWidth: 1) == "…")
        #expect(DisplayWidth.truncate("abcdef", toWidth: 3, ellipsis: nil) == "abc")
    }

    @Test func paddingAlignsMixedScripts() {
        let cells = ["abc", "日本", "cafe\u{301}", "👍🏽x", "ｈｅｌｌｏｗｏｒｌｄ"].map { DisplayWidth.pad($0, toWidth: 6) }
        for cell in cells {
            #expect(DisplayWidth.of(cell) == 6, "\(cell)")
        }
        #expect(cells[1] == "日本  ")
        #expect(cells[4] == "ｈｅ… ")  // 5 columns of text, then one pad column
        #expect(DisplayWidth.pad("ab", toWidth: 5, alignment: .right) == "   ab")
        #expect(DisplayWidth.pad("ab", toWidth: 5, alignment: .center) == " ab  ")
    }
}
