/// The number of terminal columns text occupies, measured per grapheme cluster, and truncation and padding that
/// never cut a cluster in half.
///
/// The rules follow what current terminals (xterm, VTE, kitty, iTerm2, tmux) draw:
/// - East Asian Wide and Fullwidth characters take 2 columns;
/// - combining marks, format characters (zero-width space and joiner, word joiner, BOM) and Hangul medial and
///   final jamo take 0 columns;
/// - emoji with emoji presentation take 2 columns, and so does a whole emoji sequence (ZWJ families, skin tones,
///   keycaps, a text emoji followed by VS16, a flag made of two regional indicators);
/// - everything else takes 1 column.
///
/// The C library's `wcwidth` is not used at run time: it answers per scalar, so it counts a ZWJ family as 6 or
/// 8 columns and a flag as 2 separate letters, and it returns -1 for every non-ASCII scalar unless a UTF-8
/// locale is active, which would make layout depend on `LANG`. The tests compare these tables with glibc's
/// `wcwidth` where glibc is right (ASCII, CJK, Hangul, combining marks).
///
/// Control characters are not measured meaningfully (they count 0): text is sanitised before it gets here.
public enum DisplayWidth {
    /// How a padded string is placed within its width.
    public enum Alignment: Sendable {
        case left, right, center
    }

    /// Columns occupied by `text`.
    public static func of(_ text: String) -> Int {
        var total = 0
        for character in text {
            total += of(character)
        }
        return total
    }

    /// Columns occupied by one grapheme cluster: 0, 1 or 2.
    public static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if first.value < 0x7F && scalars.count == 1 {
            return first.value < 0x20 ? 0 : 1
        }
        if scalars.count > 1, let sequenceWidth = emojiSequenceWidth(scalars, first: first) {
            return sequenceWidth
        }
        return of(first)
    }

    /// Columns occupied by one scalar on its own: 0, 1 or 2.
    public static func of(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x20 || (0x7F..<0xA0).contains(value) { return 0 }
        if value < 0x300 { return 1 }
        if isZeroWidth(scalar) { return 0 }
        if isRegionalIndicator(value) { return 1 }  // a lone regional indicator is drawn as a letter
        if scalar.properties.isEmojiPresentation || isWide(value) { return 2 }
        return 1
    }

    /// The width of a multi-scalar cluster that forms an emoji sequence, or nil when it is ordinary text (a base
    /// plus combining marks), whose width is its base's.
    private static func emojiSequenceWidth(_ scalars: Character.UnicodeScalarView, first: Unicode.Scalar) -> Int? {
        if isRegionalIndicator(first.value) {
            return scalars.dropFirst().contains { isRegionalIndicator($0.value) } ? 2 : 1
        }
        guard first.properties.isEmoji else { return nil }
        for scalar in scalars.dropFirst() {
            switch scalar.value {
            case 0xFE0E: return 1  // text presentation selector
            case 0xFE0F, 0x20E3, 0x200D, 0x1F3FB...0x1F3FF: return 2  // VS16, keycap, ZWJ, skin tone
            default: continue
            }
        }
        return nil
    }

    private static func isRegionalIndicator(_ value: UInt32) -> Bool { (0x1F1E6...0x1F1FF).contains(value) }

    private static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value == 0xAD { return false }  // soft hyphen: terminals draw it as a hyphen
        if (0x1160...0x11FF).contains(value) || (0xD7B0...0xD7FF).contains(value) { return true }  // Hangul V and T jamo
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark: return true
        case .format: return !(0x0600...0x0605).contains(value) && value != 0x06DD && value != 0x070F
            && value != 0x08E2 && value != 0x110BD && value != 0x110CD  // prepended marks with a visible glyph
        default: return false
        }
    }

    private static func isWide(_ value: UInt32) -> Bool {
        guard value >= 0x1100 else { return false }
        var low = 0, high = wideRanges.count - 1
        while low <= high {
            let middle = (low + high) / 2
            let range = wideRanges[middle]
            if value < range.lowerBound {
                high = middle - 1
            } else if value > range.upperBound {
                low = middle + 1
            } else {
                return true
            }
        }
        return false
    }

    /// East Asian Wide (W) and Fullwidth (F) blocks of Unicode 15, sorted. Emoji with emoji presentation are
    /// recognised through the scalar properties instead.
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0...0x23F0, 0x23F3...0x23F3,
        0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F,
        0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
        0x16FE0...0x16FE4, 0x16FF0...0x16FF1, 0x17000...0x18CD5, 0x18D00...0x18D08, 0x1AFF0...0x1B2FF,
        0x1F200...0x1F202, 0x1F210...0x1F23B, 0x1F240...0x1F248, 0x1F250...0x1F251, 0x1F260...0x1F265,
        0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]
}
