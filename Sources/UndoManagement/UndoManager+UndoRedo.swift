import Foundation

extension UndoManager {
    /// Whether there is anything to undo: a group on the undo stack or a registration in an open group.
    ///
    /// `true` does not mean ``undo()`` may be called right away: groups the client opened must be closed first.
    public var canUndo: Bool {
        !undoStack.isEmpty || openGroups.contains { !$0.isEmpty }
    }

    /// Whether there is a group on the redo stack.
    ///
    /// Posts ``checkpointNotification`` first, as Apple does, so observers holding unregistered changes can
    /// register them, which clears the redo stack.
    public var canRedo: Bool {
        postNotification(UndoManager.checkpointNotification)
        return !redoStack.isEmpty
    }

    /// Reverts the last top-level group.
    ///
    /// When the only open group is the automatic event group (see ``groupsByEvent``), it is closed first, so an
    /// undo in the middle of an event reverts that event's changes. Any other open group is a programming error:
    /// close it with ``endUndoGrouping()``, then call ``undo()`` or, for a nested group, ``undoNestedGroup()``.
    /// Calling it while undoing or redoing is a programming error too.
    public func undo() {
        precondition(activity == .idle, "UndoManager.undo() called while undoing or redoing")
        if openGroups.count == 1 {
            precondition(
                openGroups[0].isAutomatic,
                "UndoManager.undo() was called with an open undo group: close it with endUndoGrouping() first")
            endUndoGrouping()
        }
        precondition(openGroups.isEmpty, "UndoManager.undo() was called with too many nested undo groups")
        undoNestedGroup()
    }

    /// Reverts the last group, top-level or nested: with no group open, the top of the undo stack; with groups
    /// open, the last closed group nested in the innermost one. The registrations its actions make become one
    /// group on the redo stack, named as the reverted group.
    ///
    /// Posts ``checkpointNotification`` and ``willUndoChangeNotification`` before and
    /// ``didUndoChangeNotification`` after running the actions; does nothing else when there is nothing to undo.
    /// With groups open, the innermost group's last entry must be a closed group: it is a programming error when
    /// it is a single action.
    public func undoNestedGroup() {
        precondition(activity == .idle, "UndoManager.undoNestedGroup() called while undoing or redoing")
        postNotification(UndoManager.checkpointNotification)
        let group: UndoGroup
        if let open = openGroups.last {
            guard let last = open.entries.last else { return }
            guard case .group(let nested) = last else {
                preconditionFailure(
                    "UndoManager.undoNestedGroup(): the last entry of the open undo group is an action, not a "
                        + "closed nested group")
            }
            open.entries.removeLast()
            group = nested
        } else {
            guard let last = undoStack.popLast() else { return }
            group = last
        }
        postNotification(UndoManager.willUndoChangeNotification)
        let redoGroup = perform(group, as: .undoing)
        if !redoGroup.isEmpty {
            redoStack.append(redoGroup)
            trim(&redoStack)
        }
        postNotification(UndoManager.didUndoChangeNotification)
    }

    /// Replays the last group on the redo stack. The registrations its actions make become one group on the undo
    /// stack (nested in the innermost open group, if one is open), named as the redone group.
    ///
    /// Posts ``checkpointNotification`` and ``willRedoChangeNotification`` before and
    /// ``didRedoChangeNotification`` after running the actions; does nothing else when there is nothing to redo.
    /// Calling it while undoing or redoing is a programming error.
    public func redo() {
        precondition(activity == .idle, "UndoManager.redo() called while undoing or redoing")
        postNotification(UndoManager.checkpointNotification)
        guard let group = redoStack.popLast() else { return }
        postNotification(UndoManager.willRedoChangeNotification)
        let undoGroup = perform(group, as: .redoing)
        if !undoGroup.isEmpty {
            if let open = openGroups.last {
                open.entries.append(.group(undoGroup))
            } else {
                pushUndoGroup(undoGroup)
            }
        }
        postNotification(UndoManager.didRedoChangeNotification)
    }

    /// Runs `group`'s actions with a fresh group collecting their registrations, and returns that group.
    ///
    /// The client's open groups are set aside meanwhile (still reached by `removeAllActions`), so registrations
    /// cannot leak into them and an `endEvent()` from a handler cannot close them.
    func perform(_ group: UndoGroup, as kind: Activity) -> UndoGroup {
        let collector = UndoGroup(isAutomatic: false)
        collector.actionName = group.actionName
        suspendedGroups = openGroups
        openGroups = [collector]
        activity = kind
        group.performReversed()
        precondition(
            openGroups.count == 1 && openGroups[0] === collector,
            "UndoManager: an undo or redo handler left an undo group open")
        openGroups = suspendedGroups
        suspendedGroups = []
        activity = .idle
        return collector
    }
}
