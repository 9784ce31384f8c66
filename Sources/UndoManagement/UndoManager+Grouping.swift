import Foundation

extension UndoManager {
    /// The number of open groups. While undoing or redoing, the group collecting the inverse registrations counts
    /// as one, as in Apple's implementation.
    public var groupingLevel: Int { openGroups.count }

    /// Opens an undo group. Groups nest: a closed nested group becomes part of the group enclosing it.
    ///
    /// With ``groupsByEvent`` on and no group open, the event's automatic group is opened first, so the new group
    /// is nested in it and ``groupingLevel`` becomes 2; ``endEvent()`` closes the event group once this one is
    /// closed. Posts ``checkpointNotification`` (unless the new group is top-level) and then
    /// ``didOpenUndoGroupNotification``.
    public func beginUndoGrouping() {
        if openGroups.isEmpty, groupsByEvent, activity == .idle {
            openAutomaticGroup()
        }
        if !openGroups.isEmpty { postNotification(UndoManager.checkpointNotification) }
        openGroups.append(UndoGroup(isAutomatic: false))
        postNotification(UndoManager.didOpenUndoGroupNotification)
    }

    /// Closes the innermost open group. A nested group joins its enclosing group; a top-level group goes onto the
    /// undo stack unless it is empty.
    ///
    /// Posts ``checkpointNotification`` (observers may still register pending changes into the closing group),
    /// ``willCloseUndoGroupNotification``, and after closing ``didCloseUndoGroupNotification``. Calling it with no
    /// group open is a programming error.
    public func endUndoGrouping() {
        // While undoing or redoing the collecting group is the base; handlers must not close it.
        let baseLevel = activity == .idle ? 0 : 1
        precondition(
            openGroups.count > baseLevel,
            "UndoManager.endUndoGrouping() called with no matching beginUndoGrouping()")
        postNotification(UndoManager.checkpointNotification)
        postNotification(UndoManager.willCloseUndoGroupNotification)
        let group = openGroups.removeLast()
        if let parent = openGroups.last {
            if !group.isEmpty { parent.entries.append(.group(group)) }
        } else {
            pushUndoGroup(group)
        }
        postNotification(UndoManager.didCloseUndoGroupNotification)
    }

    /// Marks the end of an event, the moment Apple's run loop closes the automatic top-level group.
    ///
    /// Closes that group (with ``endUndoGrouping()`` and its notifications) when it is the only open group.
    /// Does nothing when no group is open, when the open top-level group was opened with
    /// ``beginUndoGrouping()`` while ``groupsByEvent`` was off, or while undoing or redoing. When groups the
    /// client opened are still open inside the event group, the event group stays open too, so a group spanning
    /// several events stays within one undo step.
    ///
    /// A managed object context calls this from `processPendingChanges()`; other owners call it wherever their
    /// user-visible event ends.
    public func endEvent() {
        guard activity == .idle, openGroups.count == 1, openGroups[0].isAutomatic else { return }
        endUndoGrouping()
    }

    /// Opens the event's top-level group. Top-level, so no checkpoint is posted.
    func openAutomaticGroup() {
        openGroups.append(UndoGroup(isAutomatic: true))
        postNotification(UndoManager.didOpenUndoGroupNotification)
    }
}
