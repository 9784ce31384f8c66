import CoreDataModel
import CoreDataObjectGraph
import Predicates
import StoreAccess
import TerminalUI

extension StoreBrowserApp {
    /// Carries out `command` in the current focus; errors are shown on the message line by `perform`.
    func execute(_ command: BrowserCommand) throws -> TerminalAction {
        switch command {
        case .moveDown, .moveUp, .pageDown, .pageUp, .halfPageDown, .halfPageUp, .first, .last:
            try move(command)
        case .columnLeft: session.perform { table.selectColumn(table.currentColumn - 1, width: tableWidth) }
        case .columnRight: session.perform { table.selectColumn(table.currentColumn + 1, width: tableWidth) }
        case .jumpToColumn: beginPrompt(.column, text: "")
        case .hideColumn: try hideCurrentColumn()
        case .switchPane:
            guard location.detail == nil else { return .redraw }
            focus = focus == .table ? .entities : .table
        case .open: try open()
        case .back: goBack()
        case .forward: goForward()
        case .sortAscending, .sortDescending, .addSortAscending, .addSortDescending: try sort(command)
        case .filter: beginFilterPrompt()
        case .command: beginPrompt(.command, text: "")
        case .refresh: refresh()
        case .redraw: return .repaintAll
        case .frequency: try showFrequency()
        case .describe: try showDescription()
        case .edit: try beginEditingField()
        case .setNull: try clearField()
        case .insertObject: try insertObject()
        case .deleteObject: try confirmDelete()
        case .accept: try acceptDetail()
        case .undo: undo()
        case .redo: redo()
        case .write: try confirmWrite(thenQuit: false)
        case .help: overlay = .text(title: "Keys", lines: keyMap.helpLines() + ["", "Commands"] + Self.commandHelp, scroll: 0)
        case .quit: return requestQuit()
        case .cancel: cancel()
        case .suspend: return .suspend
        }
        return .redraw
    }

    // MARK: Moving

    /// Rows of the table pane, as the last render laid it out: the box and the header row take three.
    var tableRows: Int { max(1, layout.table.size.rows - 3) }
    var tableWidth: Int { max(1, layout.table.size.columns - 2) }

    private func move(_ command: BrowserCommand) throws {
        if let detail = location.detail {
            let page = max(1, layout.table.size.rows - 2)
            let last = max(0, detail.fields.count - 1)
            switch command {
            case .moveDown: detail.selection = min(last, detail.selection + 1)
            case .moveUp: detail.selection = max(0, detail.selection - 1)
            case .pageDown, .halfPageDown: detail.selection = min(last, detail.selection + page)
            case .pageUp, .halfPageUp: detail.selection = max(0, detail.selection - page)
            case .first: detail.selection = 0
            default: detail.selection = last
            }
            return
        }
        if focus == .entities {
            let count = session.entityTree.count
            switch command {
            case .moveDown: entitySelection = min(count - 1, entitySelection + 1)
            case .moveUp: entitySelection = max(0, entitySelection - 1)
            case .first: entitySelection = 0
            case .last: entitySelection = count - 1
            case .pageDown, .halfPageDown: entitySelection = min(count - 1, entitySelection + tableRows)
            default: entitySelection = max(0, entitySelection - tableRows)
            }
            return
        }
        let page = tableRows
        let half = max(1, page / 2)
        if jobs.holdsStore {
            // Only what is in memory may be shown meanwhile: a move that would need another batch waits.
            let moved = session.perform { () -> Bool in
                let (selection, top) = (table.selection, table.top)
                table.layout(visibleRows: page)
                Self.moveSelection(of: table, for: command, page: page, half: half)
                guard table.holdsRows(table.top..<(table.top + page)) else {
                    table.restore(selection: selection, top: top)
                    return false
                }
                return true
            }
            if !moved, let running = jobs.running { show("those rows are not loaded yet: \(running.title) first (Esc cancels)") }
            return
        }
        session.perform {
            table.layout(visibleRows: page)
            Self.moveSelection(of: table, for: command, page: page, half: half)
        }
        if command == .last { try selectLastInBackground() }
    }

    /// Moves the table's selection for a movement key; `.last` is not here (it may need the count: a background job).
    private static func moveSelection(of table: TableModel, for command: BrowserCommand, page: Int, half: Int) {
        switch command {
        case .moveDown: table.move(by: 1)
        case .moveUp: table.move(by: -1)
        case .pageDown: table.move(by: page, scrolling: page)
        case .pageUp: table.move(by: -page, scrolling: -page)
        case .halfPageDown: table.move(by: half, scrolling: half)
        case .halfPageUp: table.move(by: -half, scrolling: -half)
        case .first: table.select(row: 0)
        default: break
        }
    }

    // MARK: Opening and navigation

    private func open() throws {
        if focus == .entities && location.detail == nil {
            let entity = session.entityTree[entitySelection].entity
            try push(TableQuery(entity: entity))
            focus = .table
            return
        }
        if let detail = location.detail {
            try follow(detail)
            return
        }
        guard let object = session.perform({ table.selectedObject }) else { return }
        if location.isPicker, let target = backStack.last, let pickingDetail = target.detail {
            try pickingDetail.pick(object.objectID)
            goBack()
            forwardStack.removeAll()
            let label = session.perform { table.labels.text(for: object) }
            show("\(pickingDetail.selectedField?.key ?? "relationship"): picked \(label)")
            return
        }
        pushDetail(try DetailModel(objectID: object.objectID, parent: session.context, labels: session.labels))
    }

    /// Opens `detail` over the current table as a step of its own, so back returns to the table (issue 21).
    func pushDetail(_ detail: DetailModel) {
        backStack.append(location)
        forwardStack.removeAll()
        location = BrowserLocation(table: table, detail: detail)
        location.isDetailStep = true
    }

    /// Enter on a detail field: a to-one opens its destination, a to-many opens a table of its destinations
    /// (through the inverse, or a key path where there is none).
    private func follow(_ detail: DetailModel) throws {
        guard let field = detail.selectedField,
              let relationship = detail.entity.relationshipsByName[field.key],
              let destination = relationship.destinationEntity else { return }
        if !relationship.isToMany {
            guard let id = field.destinations.first else {
                show("\(field.key) is empty")
                return
            }
            try push(TableQuery(entity: destination, scope: Predicates.NSPredicate(format: "SELF == %@", argumentArray: [id]),
                                scopeTitle: "\(field.key) of \(detail.title)"))
            location.detail = try DetailModel(objectID: id, parent: session.context, labels: session.labels)
            return
        }
        guard !detail.objectID.isTemporaryID else {
            show("\(detail.title) is not saved yet; its \(field.key) cannot be listed from the store")
            return
        }
        let scope: Predicates.NSPredicate
        if let inverse = relationship.inverseRelationship {
            let format = inverse.isToMany ? "ANY %K == %@" : "%K == %@"
            scope = Predicates.NSPredicate(format: format, argumentArray: [inverse.name, detail.objectID])
        } else {
            scope = Predicates.NSPredicate(format: "SELF IN %@", argumentArray: [field.destinations])
        }
        try push(TableQuery(entity: destination, scope: scope, scopeTitle: "\(field.key) of \(detail.title)"))
    }

    /// Opens a table for `query` as a new location; the current one goes on the back stack.
    func push(_ query: TableQuery) throws {
        let query = hidingEmptyColumns(withRememberedColumns(query))
        let table = try session.perform {
            try TableModel(query: query, context: session.context, batchSize: session.options.batchSize, labels: session.labels)
        }
        backStack.append(location)
        forwardStack.removeAll()
        location = BrowserLocation(table: table)
        startCounting(table)
        syncEntitySelection()
        if let note = emptyColumnsNote {
            show(note)
            emptyColumnsNote = nil
        }
    }

    /// Replaces the current table with one for `query` (a new filter or sort), keeping the stacks.
    func replaceTable(with query: TableQuery) throws {
        let table = try session.perform {
            try TableModel(query: query, context: session.context, batchSize: session.options.batchSize, labels: session.labels)
        }
        let isPicker = location.isPicker
        location = BrowserLocation(table: table)
        location.isPicker = isPicker
        startCounting(table)
    }

    func goBack() {
        guard let previous = backStack.popLast() else {
            if location.detail != nil { closeDetail() } else { show("nothing to go back to") }
            return
        }
        forwardStack.append(location)
        location = previous
        syncEntitySelection()
    }

    func goForward() {
        guard let next = forwardStack.popLast() else {
            show("nothing to go forward to")
            return
        }
        backStack.append(location)
        location = next
        syncEntitySelection()
    }

    private func syncEntitySelection() {
        if let index = session.entityTree.firstIndex(where: { $0.entity === table.query.entity }) { entitySelection = index }
    }

    /// Closes the detail pane (Esc, or after `a`): a detail step is left for the table below it, and is not kept
    /// for forward since its edits are gone.
    func closeDetail(reportingDiscard: Bool = true) {
        guard let detail = location.detail else { return }
        let discarded = detail.hasChanges
        if location.isDetailStep, let previous = backStack.popLast() {
            location = previous
            syncEntitySelection()
        } else {
            location.detail = nil
        }
        if discarded && reportingDiscard { show("discarded the edits of \(detail.title)") }
    }

    // MARK: Sorting

    private func sort(_ command: BrowserCommand) throws {
        guard table.columns.indices.contains(table.currentColumn) else { return }
        let column = table.columns[table.currentColumn]
        guard column.isKeyPath else { throw StoreAccessError("the \(column.key) column cannot be sorted by the store") }
        let ascending = command == .sortAscending || command == .addSortAscending
        var query = table.query
        switch command {
        case .sortAscending, .sortDescending:
            query.sortKeys = [SortKey(key: column.key, ascending: ascending)]
        default:
            query.sortKeys.removeAll { $0.key == column.key }
            query.sortKeys.append(SortKey(key: column.key, ascending: ascending))
        }
        // A key path the store cannot order by (a to-many aggregate, say) is refused here, not as a failed batch.
        _ = try sqlQuery(for: query)
        let currentColumn = table.currentColumn
        let order = query.sortKeys.map(\.text).joined(separator: ",")
        try replaceTableInBackground(with: query, title: "sorting \(table.query.entity.entityName) by \(order)") { [self] in
            session.perform { table.selectColumn(currentColumn, width: tableWidth) }
        }
    }

    // MARK: Refresh

    /// Re-fetches: a new count and the current batch, the cursor kept on the same object where it still exists,
    /// the filter and sort kept. Nothing is replayed row by row; the old batches are simply dropped.
    func refresh() {
        let old = table
        let selectedID = session.perform { old.selectedObject?.objectID }
        let row = old.selection
        let column = old.currentColumn
        session.counter.cancelAll()
        session.perform { session.context.refreshAllObjects() }
        do {
            try replaceTable(with: old.query)
        } catch {
            show(error: error)
            return
        }
        let found = session.perform { () -> Bool in
            table.layout(visibleRows: tableRows)
            table.selectColumn(column, width: tableWidth)
            if let selectedID, table.reselect(selectedID, near: row) { return true }
            table.select(row: row)
            return selectedID == nil
        }
        session.recountEntities()
        session.watcher?.acknowledge()
        storeChangedOutside = false
        show(found ? "re-fetched" : "re-fetched; the selected object is gone")
    }

    // MARK: Cancel and quit

    private func cancel() {
        if cancelJob() { return }
        if cancelExport() { return }
        if session.counter.isBusy {
            session.counter.cancelAll()
            show("counting cancelled")
            return
        }
        if location.detail != nil {
            closeDetail()
        } else if location.isPicker {
            goBack()
            show("nothing picked")
        }
    }

    private func requestQuit() -> TerminalAction {
        let pending = session.pendingChangeCount + (location.detail?.hasChanges == true ? 1 : 0)
        guard pending > 0 else { return .quit }
        overlay = .confirm(Confirmation(
            title: "Unsaved changes",
            lines: ["\(pending) change\(pending == 1 ? "" : "s") not written to the store."],
            // No y: "yes" could mean either "yes, quit" or "yes, write" (issue 21); each key names its action.
            options: [("w", "write and quit", .writeAndQuit), ("d", "discard changes and quit", .discardAndQuit),
                      ("n", "cancel (or Esc)", .cancel)]))
        return .redraw
    }
}
