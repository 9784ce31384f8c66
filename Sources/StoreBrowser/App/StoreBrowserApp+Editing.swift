import CoreDataModel
import CoreDataObjectGraph
import Foundation
import Predicates
import StoreAccess
import TerminalUI
import UndoManagement

extension StoreBrowserApp {
    private func requireEditing() throws {
        guard session.isEditable else {
            throw StoreAccessError("the store is open read-only: :edit (or --edit) allows editing")
        }
    }

    func enableEditing() throws {
        guard !session.isEditable else { return show("already editing") }
        try reopen(editable: true)
        show("editing: changes wait in the browser until :w writes them")
    }

    func disableEditing() throws {
        guard session.isEditable else { return show("already read-only") }
        guard session.pendingChangeCount == 0 else {
            throw StoreAccessError("there are unsaved changes: :w writes them, or u undoes them")
        }
        try reopen(editable: false)
        show("read-only: :edit allows editing again")
    }

    /// Reopens the store and rebuilds the current table on the new context; the stacks belonged to the old one.
    private func reopen(editable: Bool) throws {
        let query = table.query
        let row = table.selection
        try session.reopen(editable: editable)
        backStack.removeAll()
        forwardStack.removeAll()
        try replaceTable(with: query)
        session.perform {
            table.layout(visibleRows: tableRows)
            table.select(row: row)
        }
    }

    // MARK: Detail pane

    func beginEditingField() throws {
        guard let detail = location.detail, let field = detail.selectedField else {
            throw StoreAccessError("open an object (Enter) to edit its fields")
        }
        try requireEditing()
        switch field.kind {
        case .attribute:
            beginPrompt(.editField(field.key), text: field.value)
        case .toOne, .toMany:
            try beginPicking(for: detail, key: field.key)
        }
    }

    /// Opens the destination entity's table as a picker: Enter there sets (to-one) or toggles (to-many) the object.
    private func beginPicking(for detail: DetailModel, key: String) throws {
        guard let destination = detail.entity.relationshipsByName[key]?.destinationEntity else { return }
        // A to-one's current destination (a to-many has several, and Enter toggles one, so it starts at the top).
        let field = detail.fields.first { $0.key == key }
        let current = field.flatMap { field -> NSManagedObjectID? in
            if case .toOne = field.kind { return field.destinations.first }
            return nil
        }
        try push(TableQuery(entity: destination))
        location.isPicker = true
        // The cursor starts on the column that names the objects (issue 21).
        if let labelKey = session.labels.key(for: destination), let column = table.columns.firstIndex(where: { $0.key == labelKey }) {
            session.perform { table.selectColumn(column, width: tableWidth) }
        }
        var note = ""
        if let current {
            // The current value is selected, so Enter keeps it and j/k move from it. Found by reading batches from
            // the top: a bounded search, so a value deep in a huge table is named rather than waited for.
            let found = session.perform { table.reselect(current, near: 0, radius: Self.pickerSearchBatches) }
            if !found { note = " (the current \(ObjectIDText.short(current)) is not among the first rows)" }
        }
        show("Enter picks \(destination.entityName) for \(key); Esc cancels" + note)
    }

    /// How many batches past the first the picker reads to find the current value.
    static let pickerSearchBatches = 20

    func clearField() throws {
        guard let detail = location.detail else { return }
        try requireEditing()
        try detail.clearSelected()
    }

    func insertObject() throws {
        try requireEditing()
        var entity = table.query.entity
        if entity.isAbstract {
            guard let concrete = entity.selfAndDescendants.first(where: { !$0.isAbstract }) else {
                throw StoreAccessError("\(entity.entityName) is abstract and has no concrete subentity")
            }
            entity = concrete
        }
        pushDetail(DetailModel(inserting: entity, parent: session.context, labels: session.labels))
        show("new \(entity.entityName): e edits a field, a accepts, Esc discards")
    }

    func acceptDetail() throws {
        guard let detail = location.detail else { return }
        guard detail.hasChanges else {
            closeDetail()
            return
        }
        try requireEditing()
        let failures = detail.validate()
        if !failures.isEmpty {
            if let first = detail.fields.firstIndex(where: { !detail.failures(forField: $0.key).isEmpty }) { detail.selection = first }
            throw StoreAccessError("not accepted: " + ValidationReport.message(for: failures))
        }
        try detail.accept(into: session.context)
        closeDetail(reportingDiscard: false)
        show("\(detail.title): accepted; :w writes it to the store")
    }

    // MARK: Delete

    func confirmDelete() throws {
        try requireEditing()
        guard let object = session.perform({ table.selectedObject }) else { return }
        let (lines, name) = session.perform {
            (DeletePreview.lines(for: object, labels: session.labels), ChangeSummary.name(of: object, labels: session.labels))
        }
        overlay = .confirm(Confirmation(title: "Delete \(name)?", lines: lines,
                                        options: [("y", "delete", .deleteSelected), ("n", "keep", .cancel)]))
    }

    private func deleteSelected() {
        session.perform {
            guard let object = table.selectedObject else { return }
            let undoManager = session.context.undoManager
            session.context.processPendingChanges()
            undoManager?.beginUndoGrouping()
            session.context.delete(object)
            session.context.processPendingChanges()
            undoManager?.setActionName("Delete \(ChangeSummary.name(of: object, labels: session.labels))")
            undoManager?.endUndoGrouping()
        }
        show("deleted (pending): :w writes it, u undoes it")
    }

    // MARK: Undo

    func undo() { step(undoing: true) }

    func redo() { step(undoing: false) }

    /// Undoes or redoes one group: the detail pane's own edits while it is open, the browser context's otherwise.
    private func step(undoing: Bool) {
        if let detail = location.detail {
            if undoing { detail.undo() } else { detail.redo() }
            return
        }
        let name = session.perform { () -> String? in
            guard let undoManager = session.context.undoManager,
                  undoing ? undoManager.canUndo : undoManager.canRedo else { return nil }
            let name = undoing ? undoManager.undoActionName : undoManager.redoActionName
            if undoing { session.context.undo() } else { session.context.redo() }
            return name.isEmpty ? "the last change" : name
        }
        show(name.map { "\(undoing ? "undid" : "redid") \($0)" } ?? "nothing to \(undoing ? "undo" : "redo")")
    }

    // MARK: Writing

    func confirmWrite(thenQuit: Bool) throws {
        if location.detail?.hasChanges == true {
            throw StoreAccessError("the detail pane has edits: a accepts them first, Esc discards them")
        }
        let lines = session.perform { ChangeSummary.lines(for: session.context, labels: session.labels) }
        guard !lines.isEmpty else {
            show("no changes to write")
            if thenQuit { quitRequested = true }
            return
        }
        overlay = .confirm(Confirmation(
            title: "Write \(session.pendingChangeCount) change(s) to \(session.storeName)?", lines: lines,
            options: [("y", "write", thenQuit ? .writeAndQuit : .writeChanges), ("n", "not now", .cancel)]))
    }

    /// Writes the main context; on a validation error nothing is written and the message says why, and on a
    /// conflict with another process the conflict pane opens.
    func write() -> Bool {
        do {
            try session.save()
        } catch let error as CoreDataError where error.code == .managedObjectMerge && !error.affectedObjectIDs.isEmpty {
            openConflictPane(error)
            return false
        } catch {
            show(error: error)
            return false
        }
        refresh()
        show("written to \(session.storeName)")
        return true
    }

    // MARK: Overlay keys

    func handleOverlayKey(_ key: Key, _ current: BrowserOverlay) -> TerminalAction {
        switch current {
        case .text(let title, let lines, var scroll):
            // Scrolling counts the wrapped lines on screen, so the last one can always be reached (issue 21).
            let (wrapped, page) = textOverlayGeometry(lines)
            let end = max(0, wrapped.count - page)
            switch key {
            case .escape, .character("q"), .enter, .character("?"): overlay = nil
            case .character("j"), .down: scroll += 1
            case .character("k"), .up: scroll -= 1
            case .pageDown, .control("f"), .character(" "): scroll += max(1, page - 1)
            case .pageUp, .control("b"): scroll -= max(1, page - 1)
            case .character("g"), .home: scroll = 0
            case .character("G"), .end: scroll = end
            default: break
            }
            scroll = min(max(0, scroll), end)
            if overlay != nil { overlay = .text(title: title, lines: lines, scroll: scroll) }
        case .frequency(var model):
            let page = max(1, layout.table.size.rows - 2)
            switch key {
            case .escape, .character("q"): overlay = nil
            case .character("j"), .down: model.selection = min(model.rows.count - 1, model.selection + 1)
            case .character("k"), .up: model.selection = max(0, model.selection - 1)
            case .pageDown, .control("f"): model.selection = min(model.rows.count - 1, model.selection + page)
            case .pageUp, .control("b"): model.selection = max(0, model.selection - page)
            case .character("g"), .home: model.selection = 0
            case .character("G"), .end: model.selection = max(0, model.rows.count - 1)
            case .enter:
                overlay = nil
                drillDown(model)
                return .redraw
            default: break
            }
            if model.selection < model.top { model.top = model.selection }
            if model.selection >= model.top + page { model.top = model.selection - page + 1 }
            if overlay != nil { overlay = .frequency(model) }
        case .conflict(let model):
            return handleConflictKey(key, model)
        case .confirm(let confirmation):
            let choice: Confirmation.Choice?
            if key == .escape {
                choice = .cancel
            } else if case .character(let character) = key {
                choice = confirmation.options.first { $0.key == character }?.choice
            } else {
                choice = nil
            }
            guard let choice else { return .redraw }
            overlay = nil
            switch choice {
            case .writeChanges: _ = write()
            case .writeAndQuit: if write() { return .quit }
            case .discardAndQuit: return .quit
            case .deleteSelected: deleteSelected()
            case .overwriteExport(let format, let path):
                do { try startExport(format, to: path) } catch { show(error: error) }
            case .cancel: show("cancelled")
            }
        }
        return quitRequested ? .quit : .redraw
    }

    private func drillDown(_ model: FrequencyModel) {
        guard let predicate = model.drillPredicate() else { return }
        var query = table.query
        query.filter = query.filter.map {
            Predicates.NSCompoundPredicate(andPredicateWithSubpredicates: [$0, predicate])
        } ?? predicate
        let column = table.currentColumn
        do {
            try push(query)
            session.perform { table.selectColumn(column, width: tableWidth) }
        } catch {
            show(error: error)
        }
    }

    // MARK: Analysis

    func showFrequency() throws {
        try showFrequencyInBackground()
    }

    func showDescription() throws {
        // An SQLite store is described by one SQL scan, off the event loop; any other store (held in memory) through
        // fetches, at once.
        guard session.counter.runsSQL else {
            let report = try DescribeReport(query: table.query, context: session.context)
            overlay = .text(title: "Describe \(table.query.title)", lines: report.lines(), scroll: 0)
            return
        }
        try showDescriptionInBackground()
    }

    // MARK: Mouse

    func handleMouse(_ event: MouseEvent) -> TerminalAction {
        switch event.kind {
        case .wheelDown: return perform(.moveDown)
        case .wheelUp: return perform(.moveUp)
        case .click, .press:
            if layout.entities.contains(event.position) {
                let index = entityTop + event.position.row - layout.entities.minRow - 1
                if session.entityTree.indices.contains(index) {
                    entitySelection = index
                    focus = .entities
                }
            } else if layout.table.contains(event.position), location.detail == nil {
                let row = table.top + event.position.row - layout.table.minRow - 2
                if row >= table.top { session.perform { table.select(row: row) } }
                focus = .table
            }
            return .redraw
        case .doubleClick:
            return perform(.open)
        default:
            return .redraw
        }
    }
}
