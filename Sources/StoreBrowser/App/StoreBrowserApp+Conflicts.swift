import CoreDataObjectGraph
import TerminalUI

/// The conflict pane's keys and drawing (`ConflictModel`): j/k pick a field, `m` keeps mine, `t` takes theirs, `M`
/// keeps mine everywhere (object trump), `T` takes theirs everywhere, `w` or Enter applies the choices and writes,
/// Esc leaves the changes pending as they were.
extension StoreBrowserApp {
    static let conflictChoices = "m keep mine · t take theirs · M all mine · T all theirs · w write · Esc leave pending"

    func openConflictPane(_ error: CoreDataError) {
        do {
            let model = try session.perform {
                try ConflictModel(conflicting: error.affectedObjectIDs, in: session.context, labels: session.labels)
            }
            overlay = .conflict(model)
            show("conflict: another process changed \(model.entries.count) object\(model.entries.count == 1 ? "" : "s"); choose, then w writes")
        } catch {
            show(error: error)
        }
    }

    func handleConflictKey(_ key: Key, _ current: ConflictModel) -> TerminalAction {
        var model = current
        let count = model.rows.count
        switch key {
        case .escape, .character("q"):
            overlay = nil
            show("nothing written: the changes are still pending (:w shows the conflict again)")
            return .redraw
        case .character("j"), .down: model.selection = min(max(0, count - 1), model.selection + 1)
        case .character("k"), .up: model.selection = max(0, model.selection - 1)
        case .character("m"):
            if !model.choose(.mine) { show("only the other process changed that field: there is no change of yours to keep") }
        case .character("t"): model.choose(.theirs)
        case .character("M"): model.chooseAll(.mine)
        case .character("T"): model.chooseAll(.theirs)
        case .character("w"), .enter:
            overlay = nil
            session.perform { model.apply(in: session.context) }
            if session.pendingChangeCount == 0 {
                refresh()
                show("took theirs: nothing left to write")
            } else if write() {
                show("written to \(session.storeName) after resolving the conflict")
            }
            return .redraw
        default: break
        }
        overlay = .conflict(model)
        return .redraw
    }

    func drawConflict(_ model: ConflictModel, in rect: Rect, into screen: inout Screen) {
        screen.drawBox(rect, style: theme.border, title: "Write conflict: mine / theirs / read")
        let inner = rect.inset(by: 1)
        guard inner.size.rows >= 2 else { return }
        let body = inner.splitBottom(1)
        let (lines, selectable) = model.lines()
        let selectedLine = selectable.indices.contains(model.selection) ? selectable[model.selection] : -1
        let page = body.rest.size.rows
        let top = selectedLine >= page ? selectedLine - page + 1 : 0
        for (offset, line) in lines.dropFirst(top).prefix(page).enumerated() {
            let row = Rect(column: inner.minColumn, row: inner.minRow + offset, columns: inner.size.columns, rows: 1)
            if top + offset == selectedLine {
                screen.drawBar(line, in: row, style: theme.selection)
            } else {
                screen.drawField(line, in: row)
            }
        }
        screen.drawBar(Self.conflictChoices, in: body.bottom, style: theme.prompt.adding(.reverse))
    }
}
