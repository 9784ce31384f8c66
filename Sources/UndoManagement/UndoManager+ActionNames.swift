extension UndoManager {
    /// The name of the group ``undo()`` would revert: the outermost open group when it holds registrations,
    /// otherwise the top of the undo stack; empty when unnamed or when there is nothing to undo.
    public var undoActionName: String {
        if activity == .idle, let open = openGroups.first, !open.isEmpty { return open.actionName }
        return undoStack.last?.actionName ?? ""
    }

    /// The name of the group ``redo()`` would replay; empty when unnamed or when there is nothing to redo.
    public var redoActionName: String {
        redoStack.last?.actionName ?? ""
    }

    /// Names the current undo step, as shown in the Undo and Redo menu items.
    ///
    /// The name goes to the outermost open group, which while undoing or redoing is the group collecting the
    /// inverse registrations (it starts with the reverted group's name). With no group open and
    /// ``groupsByEvent`` on, the event's automatic group is opened so the registrations that follow carry the
    /// name, as Apple's event group is always open during an event. Otherwise the last closed group is renamed.
    public func setActionName(_ actionName: String) {
        if openGroups.isEmpty, groupsByEvent, activity == .idle {
            openAutomaticGroup()
        }
        if let open = openGroups.first {
            open.actionName = actionName
        } else {
            undoStack.last?.actionName = actionName
        }
    }

    /// The title of the Undo menu item: "Undo" followed by ``undoActionName`` when it is not empty.
    public var undoMenuItemTitle: String { undoMenuTitle(forUndoActionName: undoActionName) }

    /// The title of the Redo menu item: "Redo" followed by ``redoActionName`` when it is not empty.
    public var redoMenuItemTitle: String { redoMenuTitle(forUndoActionName: redoActionName) }
}
