import TerminalUI

/// Where the browser's parts go for a terminal size: the entity list on the left (dropped when narrow), the table
/// or detail pane, the status line and the message/prompt line at the bottom. Every size down to 0x0 gives a valid
/// (possibly empty) layout.
struct BrowserLayout: Equatable {
    let entities: Rect
    let table: Rect
    let status: Rect
    let message: Rect

    /// `entityListWidth` is what the entity list needs for its longest line (border included): it gets up to two
    /// fifths of the screen for it, so long names are not cut on a wide terminal (issue 21).
    init(size: Size, showsEntities: Bool, entityListWidth: Int = 0) {
        let bounds = Rect(origin: .zero, size: size)
        let (main, bottom) = bounds.splitBottom(min(2, size.rows))
        let (status, message) = bottom.splitTop(min(1, bottom.size.rows))  // status above the prompt line
        self.status = status
        self.message = message
        if showsEntities {
            let width = max(min(30, max(16, size.columns / 4)), min(entityListWidth, size.columns * 2 / 5))
            let split = main.splitLeft(width)
            entities = split.left
            table = split.rest
        } else {
            entities = Rect(column: 0, row: 0, columns: 0, rows: 0)
            table = main
        }
    }
}
