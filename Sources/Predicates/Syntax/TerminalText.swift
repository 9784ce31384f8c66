/// Rendering of untrusted text for a terminal: control characters made visible, display widths measured.
enum TerminalText {
    /// `text` with control and bidirectional-override characters replaced by `\u{…}` escapes.
    static func visible(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            let value = scalar.value
            let isControl = value < 0x20 || (0x7F...0x9F).contains(value)
            let isBidi = (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
            if scalar == "\t" {
                result += " "
            } else if isControl || isBidi {
                result += "\\u{" + String(value, radix: 16) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// The number of terminal columns `text` occupies: combining marks take none, wide characters two.
    static func width(of text: String) -> Int {
        var columns = 0
        for character in text {
            guard let first = character.unicodeScalars.first else { continue }
            if first.properties.isEmojiPresentation || isWide(first.value) {
                columns += 2
            } else if first.properties.generalCategory == .nonspacingMark {
                continue
            } else {
                columns += 1
            }
        }
        return columns
    }

    private static func isWide(_ value: UInt32) -> Bool {
        (0x1100...0x115F).contains(value) || (0x2E80...0xA4CF).contains(value) || (0xAC00...0xD7A3).contains(value)
            || (0xF900...0xFAFF).contains(value) || (0xFE30...0xFE4F).contains(value)
            || (0xFF00...0xFF60).contains(value) || (0xFFE0...0xFFE6).contains(value)
            || (0x20000...0x3FFFD).contains(value)
    }
}
