import TerminalText

/// Draws an open `LineEditor` prompt on one row and places the terminal cursor in it.
public enum LinePromptView {
    /// Draws `label` (or the editor's mode indicator, such as a history search) followed by the line, scrolled
    /// horizontally so that the cursor stays visible, on the first row of `rect`. The line is sanitised like any
    /// other text; the cursor follows what is shown.
    public static func render(_ editor: some LineEditor, label: String, in rect: Rect, into screen: inout Screen,
                              theme: Theme = .monochrome) {
        let row = rect.splitTop(1).top
        guard !row.isEmpty else { return }
        screen.fill(row, with: .blank(theme.normal))
        let labelWidth = screen.draw(editor.modeIndicator ?? label, at: row.origin, style: theme.prompt, clip: row)
        let field = row.splitLeft(labelWidth).rest
        guard !field.isEmpty else {
            screen.cursor = nil
            return
        }
        // Columns before the cursor, measured on the sanitised form of each cluster as it will be drawn.
        let characters = Array(editor.text)
        let cursorIndex = min(editor.cursor, characters.count)
        var cursorColumn = 0
        for character in characters[..<cursorIndex] {
            cursorColumn += DisplayWidth.of(TerminalSanitizer.sanitize(String(character)))
        }
        let scroll = max(0, cursorColumn - field.size.columns + 1)
        screen.draw(editor.text, at: Point(column: field.minColumn - scroll, row: field.minRow), style: theme.normal,
                    clip: field)
        screen.cursor = Point(column: field.minColumn + cursorColumn - scroll, row: field.minRow)
    }
}
