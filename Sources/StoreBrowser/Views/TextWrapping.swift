import TerminalText

/// Breaks text into lines that fit a width in terminal columns (wide characters count two), at the last space of a
/// line where there is one in its second half, otherwise mid-word (long values such as URLs and hex have none).
enum TextWrapping {
    /// At least one line, even for empty text; at most `limit` lines.
    static func wrap(_ text: String, width: Int, limit: Int = 200) -> [String] {
        let width = max(1, width)
        var lines: [String] = []
        var current: [Character] = []
        var currentWidth = 0
        for character in text {
            let characterWidth = DisplayWidth.of(character)
            if currentWidth + characterWidth > width, !current.isEmpty {
                var carried: [Character] = []
                if character != " ", let space = current.lastIndex(of: " "), space >= current.count / 2 {
                    carried = Array(current[(space + 1)...])
                    current.removeSubrange(space...)
                }
                lines.append(String(current))
                if lines.count == limit { return lines }
                current = carried
                currentWidth = carried.reduce(0) { $0 + DisplayWidth.of($1) }
                if character == " " { continue }
            }
            current.append(character)
            currentWidth += characterWidth
        }
        lines.append(String(current))
        return lines
    }
}
