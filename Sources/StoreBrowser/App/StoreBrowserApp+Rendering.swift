import CoreDataModel
import CoreDataObjectGraph
import Foundation
import Predicates
import StoreAccess
import TerminalText
import TerminalUI

extension StoreBrowserApp {
    var showsEntityPane: Bool { size.columns >= 60 && size.rows >= 6 }

    public func render(into screen: inout Screen) {
        ObjectLifetimeScope.withNewScope { renderFrame(into: &screen) }
    }

    private func renderFrame(into screen: inout Screen) {
        layout = BrowserLayout(size: screen.size, showsEntities: showsEntityPane, entityListWidth: entityListWidth)
        screen.cursor = nil
        if !layout.entities.isEmpty { drawEntityPane(into: &screen, in: layout.entities) }
        if let detail = location.detail {
            DetailView(detail: detail, theme: theme).render(into: &screen, in: layout.table)
        } else {
            // A job started by the key just handled may hold the store already: draw from memory only.
            table.avoidsStore = jobs.holdsStore
            session.perform {
                table.layout(visibleRows: max(1, layout.table.size.rows - 3))
                TableView(table: table, theme: theme, isFocused: focus == .table, title: tableTitle)
                    .render(into: &screen, in: layout.table)
            }
        }
        screen.drawBar(statusText(width: layout.status.size.columns), in: layout.status, style: theme.statusBar)
        drawMessageLine(into: &screen)
        if let overlay { drawOverlay(overlay, into: &screen) }
    }

    private var tableTitle: String {
        var title = table.query.title
        if location.isPicker { title = "Pick for \(backStack.last?.detail?.selectedField?.key ?? "relationship"): " + title }
        if let filter = table.query.filter { title += " where " + filter.predicateFormat }
        return title
    }

    // MARK: Entity pane

    /// The entity list's widest line (indent, name, count) plus its border.
    var entityListWidth: Int {
        session.entityTree.map { entity, depth in
            let count = session.entityCounts[entity.entityName].map { NumberText.grouped($0) } ?? "…"
            return DisplayWidth.of(entityListName(entity, depth: depth)) + 1 + DisplayWidth.of(count)
        }.max().map { $0 + 2 } ?? 0
    }

    private func entityListName(_ entity: NSEntityDescription, depth: Int) -> String {
        String(repeating: "  ", count: depth) + (depth > 0 ? "└ " : "") + entity.entityName + (entity.isAbstract ? " (abstract)" : "")
    }

    private func drawEntityPane(into screen: inout Screen, in rect: Rect) {
        screen.drawBox(rect, style: theme.border, title: "Entities")
        let inner = rect.inset(by: 1)
        guard !inner.isEmpty else { return }
        let tree = session.entityTree
        if entitySelection < entityTop { entityTop = entitySelection }
        if entitySelection >= entityTop + inner.size.rows { entityTop = entitySelection - inner.size.rows + 1 }
        for offset in 0..<inner.size.rows {
            let index = entityTop + offset
            guard index < tree.count else { break }
            let (entity, depth) = tree[index]
            let row = Rect(column: inner.minColumn, row: inner.minRow + offset, columns: inner.size.columns, rows: 1)
            let count = session.entityCounts[entity.entityName].map { NumberText.grouped($0) } ?? "…"
            let name = entityListName(entity, depth: depth)
            let countWidth = DisplayWidth.of(count)
            let nameWidth = max(0, row.size.columns - countWidth - 1)
            let line = DisplayWidth.pad(DisplayWidth.truncate(name, toWidth: nameWidth), toWidth: nameWidth) + " " + count
            let isCurrent = entity === table.query.entity
            if index == entitySelection && focus == .entities && location.detail == nil {
                screen.drawBar(line, in: row, style: theme.selection)
            } else {
                screen.drawField(line, in: row, style: isCurrent ? theme.header : theme.normal)
            }
        }
    }

    // MARK: Message line

    private func drawMessageLine(into screen: inout Screen) {
        let rect = layout.message
        guard !rect.isEmpty else { return }
        if prompt != nil {
            // An error from the last accept (a caret diagnostic) stays above the reopened prompt, aligned with it.
            if let message, messageIsError {
                drawDiagnostic(message, indent: DisplayWidth.of(promptLabel), includingHeadline: true, into: &screen)
            }
            LinePromptView.render(editor, label: promptLabel, in: rect, into: &screen, theme: theme)
            if !editor.completionCandidates.isEmpty, layout.table.size.rows > 2 {
                let line = editor.completionCandidates.joined(separator: "  ")
                let above = Rect(column: rect.minColumn, row: layout.status.minRow, columns: rect.size.columns, rows: 1)
                screen.drawBar(line, in: above, style: theme.muted.adding(.reverse))
            }
            return
        }
        if let spinner = jobs.spinnerText {
            // Long work shows what runs and for how long; a message (a refused key) follows it.
            let first = message.flatMap { $0.split(separator: "\n").first.map(String.init) }
            screen.drawField(spinner + (first.map { " · " + $0 } ?? ""), in: rect, style: theme.prompt)
        } else if let message {
            // Multi-line messages (a caret diagnostic) show their first line here and the rest in the overlay.
            let first = message.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? ""
            screen.drawField(first, in: rect, style: messageIsError ? theme.error : theme.normal)
            if messageIsError, message.contains("\n") { drawDiagnostic(message, indent: 0, includingHeadline: false, into: &screen) }
        } else {
            let hint = location.detail != nil
                ? "Enter follow · e edit · x nil · a accept · Esc discard · u undo · ? help"
                : "/ filter · : command · [ ] sort · F frequency · Enter open · r refresh · ? help · q quit"
            screen.drawField(hint, in: rect, style: theme.muted)
        }
    }

    /// A caret diagnostic above the status line, so the caret sits under the bad character: the format's lines are
    /// indented by `indent` columns (the prompt label's width) to line up with the text being edited.
    private func drawDiagnostic(_ message: String, indent: Int, includingHeadline: Bool, into screen: inout Screen) {
        let all = message.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let padding = String(repeating: " ", count: indent)
        let lines = (includingHeadline ? Array(all.prefix(1)) : []) + all.dropFirst().map { padding + $0 }
        let bottom = layout.status.minRow
        for (index, line) in lines.reversed().enumerated() {
            let row = bottom - 1 - index
            guard row >= layout.table.minRow else { break }
            let rect = Rect(column: 0, row: row, columns: screen.size.columns, rows: 1)
            screen.drawBar(line, in: rect, style: theme.error)
        }
    }

    // MARK: Overlays

    /// Where overlays go on a screen of `size`: above the status and message lines, four fifths wide.
    func overlayRect(in size: Size) -> Rect {
        let area = Rect(origin: .zero, size: size).splitBottom(min(2, size.rows)).rest
        let width = min(area.size.columns, max(40, area.size.columns * 4 / 5))
        return Rect(column: (area.size.columns - width) / 2, row: area.minRow, columns: width, rows: area.size.rows)
    }

    /// A text overlay's lines as wrapped on screen, and how many of them fit.
    func textOverlayGeometry(_ lines: [String]) -> (wrapped: [String], page: Int) {
        let inner = overlayRect(in: size).inset(by: 1)
        let wrapped = lines.flatMap { TextWrapping.wrap(TerminalSanitizer.sanitize($0, layout: .singleLine), width: inner.size.columns) }
        return (wrapped, max(1, inner.size.rows))
    }

    private func drawOverlay(_ overlay: BrowserOverlay, into screen: inout Screen) {
        let rect = overlayRect(in: screen.size)
        screen.fill(rect, with: .blank(theme.normal))
        let inner = rect.inset(by: 1)
        switch overlay {
        case .text(let title, let lines, let scroll):
            let (wrapped, page) = textOverlayGeometry(lines)
            let more = wrapped.count > page ? "  line \(min(wrapped.count, scroll + page)) of \(wrapped.count)" : ""
            screen.drawBox(rect, style: theme.border, title: title + "  (Esc closes)" + more)
            for (offset, line) in wrapped.dropFirst(scroll).prefix(inner.size.rows).enumerated() {
                screen.drawField(line, in: Rect(column: inner.minColumn, row: inner.minRow + offset, columns: inner.size.columns, rows: 1))
            }
        case .frequency(let model):
            screen.drawBox(rect, style: theme.border,
                           title: "Frequency of \(model.key): \(model.rows.count) values, \(NumberText.grouped(model.total)) objects (Enter drills in)")
            let lines = model.lines(width: inner.size.columns)
            for offset in 0..<inner.size.rows {
                let index = model.top + offset
                guard index < lines.count else { break }
                let row = Rect(column: inner.minColumn, row: inner.minRow + offset, columns: inner.size.columns, rows: 1)
                if index == model.selection {
                    screen.drawBar(lines[index], in: row, style: theme.selection)
                } else {
                    screen.drawField(lines[index], in: row)
                }
            }
        case .conflict(let model):
            drawConflict(model, in: rect, into: &screen)
        case .confirm(let confirmation):
            screen.drawBox(rect, style: theme.border, title: confirmation.title)
            let choices = confirmation.options.map { "\($0.key) \($0.label)" }.joined(separator: " · ")
            let body = inner.splitBottom(min(1, inner.size.rows))
            for (offset, line) in confirmation.lines.dropFirst(confirmation.scroll).prefix(body.rest.size.rows).enumerated() {
                screen.drawField(line, in: Rect(column: inner.minColumn, row: inner.minRow + offset, columns: inner.size.columns, rows: 1))
            }
            screen.drawBar(choices, in: body.bottom, style: theme.prompt.adding(.reverse))
        }
    }
}

/// Counts written with thousands separators: 1,234,567.
enum NumberText {
    static func grouped(_ value: Int) -> String {
        let digits = String(abs(value))
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return value < 0 ? "-" + result : result
    }
}
