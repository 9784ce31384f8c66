import CoreDataObjectGraph
import TerminalText
import TerminalUI

/// Draws a `TableModel` in a box: a header with sort marks, then one line per object on screen. Loading happens
/// here, batch by batch, for exactly the rows drawn. Must run on the browser context's queue.
struct TableView {
    let table: TableModel
    let theme: Theme
    let isFocused: Bool
    let title: String

    func render(into screen: inout Screen, in rect: Rect) {
        screen.drawBox(rect, style: theme.border, title: title)
        let inner = rect.inset(by: 1)
        guard inner.size.rows >= 1, inner.size.columns >= 1 else { return }
        let (headerRow, body) = inner.splitTop(1)
        let rows = body.size.rows
        // Load the rows first so the column widths fit them before anything is drawn, and their to-ones' labels
        // in one fetch per column.
        var objects: [NSManagedObject?] = []
        for offset in 0..<rows {
            let index = table.top + offset
            guard index < table.rowCount, let object = table.object(at: index) else { break }
            objects.append(object)
        }
        table.prefetchLabels(for: objects.compactMap { $0 })
        for case let object? in objects {
            // Room for the `+ ` or `✗ ` mark of a pending insert or delete, whichever column comes first on screen.
            let mark = object.isInserted || object.isDeleted ? "+ " : ""
            for (column, spec) in table.columns.enumerated() {
                table.fit(column: column, toText: mark + table.text(of: spec, for: object))
            }
        }
        // Headers too, with their sort marks, so a sorted column always shows its direction.
        for index in table.columns.indices { table.fit(column: index, toText: headerText(index)) }
        table.selectColumn(table.currentColumn, width: inner.size.columns)
        drawHeader(into: &screen, in: headerRow)
        if objects.isEmpty {
            let text = table.loadError.map { "error: " + $0 } ?? (table.knownCount == 0 ? "no objects" : "")
            screen.drawField(text, in: body.splitTop(min(1, body.size.rows)).top, style: table.loadError == nil ? theme.muted : theme.error)
            return
        }
        for (offset, object) in objects.enumerated() {
            guard let object else { continue }
            let line = Rect(column: body.minColumn, row: body.minRow + offset, columns: body.size.columns, rows: 1)
            drawRow(object, selected: table.top + offset == table.selection, into: &screen, in: line)
        }
    }

    /// The visible columns and their rectangles within `line`.
    private func visibleColumns(in line: Rect) -> [(index: Int, rect: Rect)] {
        var result: [(Int, Rect)] = []
        var column = line.minColumn
        var index = table.firstVisibleColumn
        while index < table.columns.count, column < line.maxColumn {
            let width = min(table.columnWidths[index], line.maxColumn - column)
            result.append((index, Rect(column: column, row: line.minRow, columns: width, rows: 1)))
            column += width + 1
            index += 1
        }
        return result
    }

    private func drawHeader(into screen: inout Screen, in line: Rect) {
        screen.fill(line, with: .blank(theme.header))
        for (index, rect) in visibleColumns(in: line) {
            let text = headerText(index)
            let style = index == table.currentColumn && isFocused ? theme.header.adding(.underline) : theme.header
            screen.drawField(text, in: rect, style: style, alignment: table.columns[index].isNumeric ? .right : .left)
        }
    }

    /// The column's key, with `▲` or `▼` (and the level, when there are several) if the table is sorted by it.
    private func headerText(_ index: Int) -> String {
        let sortKeys = table.query.sortKeys
        let key = table.columns[index].key
        guard let level = sortKeys.firstIndex(where: { $0.key == key }) else { return key }
        return key + (sortKeys[level].ascending ? "▲" : "▼") + (sortKeys.count > 1 ? String(level + 1) : "")
    }

    private func drawRow(_ object: NSManagedObject, selected: Bool, into screen: inout Screen, in line: Rect) {
        let base = selected ? (isFocused ? theme.selection : theme.normal.adding(.reverse)) : theme.normal
        screen.fill(line, with: .blank(base))
        let changed = object.hasChanges ? Set(object.changedValues().keys) : []
        for (index, rect) in visibleColumns(in: line) {
            let column = table.columns[index]
            var style = base
            if object.isDeleted {
                style = base.adding(.dim)
            } else if changed.contains(column.key) {
                style = theme.pending.adding(selected ? .reverse : [])
            }
            if selected && index == table.currentColumn && isFocused { style = style.adding(.bold) }
            var text = table.text(of: column, for: object)
            if index == table.firstVisibleColumn, object.isDeleted { text = "✗ " + text }
            if index == table.firstVisibleColumn, object.isInserted { text = "+ " + text }
            if object.isInserted { style = theme.pending.adding(selected ? .reverse : []) }
            screen.drawField(text, in: rect, style: style, alignment: column.isNumeric ? .right : .left)
        }
    }
}
