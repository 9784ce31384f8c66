import TerminalText
import TerminalUI

/// Draws the detail pane: every property of the object as `key  type  value`, long values wrapped, edited values
/// as `old → new` in the pending style.
struct DetailView {
    let detail: DetailModel
    let theme: Theme

    static func shown(_ value: String) -> String { value.isEmpty ? "nil" : value }

    func render(into screen: inout Screen, in rect: Rect) {
        // A new object's title already says "(new)" (`ObjectIDText`).
        let state = detail.isNew ? "" : (detail.hasChanges ? " (edited)" : "")
        screen.drawBox(rect, style: theme.border, title: detail.title + state)
        let inner = rect.inset(by: 1)
        guard !inner.isEmpty else { return }
        let keyWidth = min(max(8, detail.fields.map { DisplayWidth.of($0.key) }.max() ?? 0), max(1, inner.size.columns / 3))
        let typeWidth = min(max(6, detail.fields.map { DisplayWidth.of($0.typeLabel) }.max() ?? 0), max(1, inner.size.columns / 4))
        let valueColumn = inner.minColumn + keyWidth + typeWidth + 2
        let valueWidth = max(1, inner.maxColumn - valueColumn)
        // Lay out every field's lines, then scroll so the selected field's first line is visible.
        var blocks: [[String]] = []
        // The lines of each block from this one on are validation failures, drawn in the error style.
        var failureStarts: [Int] = []
        for field in detail.fields {
            // An edit from or to nil says nil, so `3.5 → nil` never reads as an arrow to nothing.
            let value = field.isPending ? "\(Self.shown(field.committedValue ?? "")) → \(Self.shown(field.value))" : field.value
            var block = TextWrapping.wrap(TerminalSanitizer.sanitize(value, layout: .singleLine), width: valueWidth)
            failureStarts.append(block.count)
            for failure in detail.failures(forField: field.key) {
                block += TextWrapping.wrap("⚠ " + TerminalSanitizer.sanitize(failure, layout: .singleLine), width: valueWidth)
            }
            blocks.append(block)
        }
        var firstLine: [Int] = []
        var total = 0
        for block in blocks {
            firstLine.append(total)
            total += block.count
        }
        let selectedLine = firstLine.indices.contains(detail.selection) ? firstLine[detail.selection] : 0
        if selectedLine < detail.top { detail.top = selectedLine }
        let selectedEnd = selectedLine + (blocks.indices.contains(detail.selection) ? blocks[detail.selection].count : 1)
        if selectedEnd > detail.top + inner.size.rows { detail.top = max(0, min(selectedLine, selectedEnd - inner.size.rows)) }
        for (index, field) in detail.fields.enumerated() {
            for (lineIndex, text) in blocks[index].enumerated() {
                let row = inner.minRow + firstLine[index] + lineIndex - detail.top
                guard row >= inner.minRow, row < inner.maxRow else { continue }
                let line = Rect(column: inner.minColumn, row: row, columns: inner.size.columns, rows: 1)
                let selected = index == detail.selection
                let base = selected ? theme.selection : theme.normal
                screen.fill(line, with: .blank(base))
                if lineIndex == 0 {
                    screen.drawField(field.key, in: Rect(column: inner.minColumn, row: row, columns: keyWidth, rows: 1),
                                     style: selected ? base : theme.header)
                    screen.drawField(field.typeLabel, in: Rect(column: inner.minColumn + keyWidth + 1, row: row, columns: typeWidth, rows: 1),
                                     style: selected ? base : theme.muted)
                }
                let style = lineIndex >= failureStarts[index] ? theme.error.adding(selected ? .reverse : [])
                    : field.isPending ? theme.pending.adding(selected ? .reverse : []) : base
                screen.drawField(text, in: Rect(column: valueColumn, row: row, columns: valueWidth, rows: 1), style: style)
            }
        }
    }
}
