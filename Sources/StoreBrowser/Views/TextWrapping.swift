import TerminalText

/// Breaks text into lines that fit a width in terminal columns (wide characters count two).
enum TextWrapping {
    /// At least one line, even for empty text; at most `limit` lines.
    static func wrap(_ text: String, width: Int, limit: Int = 200) -> [String] {
        let width = max(1, width)
        var lines: [String] = []
        var current = ""
        var currentWidth = 0
        for character in text {
            let characterWidth = DisplayWidth.of(character)
            if currentWidth + characterWidth > width, !current.isEmpty {
                lines.append(current)
                if lines.count == limit { return lines }
                current = ""
                currentWidth = 0
            }
            current.append(character)
            currentWidth += characterWidth
        }
        lines.append(current)
        return lines
    }
}
