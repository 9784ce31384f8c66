import Foundation

/// A general-purpose recorder of operations for undo and redo: Apple's `UndoManager`, which Foundation on Linux
/// does not provide.
///
/// Register the inverse of every change with ``registerUndo(withTarget:handler:)``. Registrations are collected
/// into undo groups; ``undo()`` reverts the last top-level group, and the registrations its handlers make become
/// one group on the redo stack, which ``redo()`` replays.
///
/// ## Events
///
/// With ``groupsByEvent`` on (the default), the first registration outside any group opens a top-level group on
/// the owner's behalf. On Apple platforms the run loop closes that group at the end of each event; Linux has no
/// such boundary, so the owner marks it by calling ``endEvent()`` (a managed object context does so from
/// `processPendingChanges()`).
///
/// ## Concurrency
///
/// An undo manager is used from one thread or queue, its owner's, and is deliberately not `Sendable`: its state
/// and the handlers it stores (ordinary, non-`Sendable` closures over the owner's objects) are unsynchronised.
open class UndoManager {
    /// Whether an undo or redo is running, which decides where registrations go.
    enum Activity {
        case idle
        case undoing
        case redoing
    }

    /// Closed top-level groups, oldest first.
    var undoStack: [UndoGroup] = []
    /// Groups recorded while undoing, oldest first; the last one is redone first.
    var redoStack: [UndoGroup] = []
    /// The open groups, outermost first. While undoing or redoing, the only base entry is the group collecting
    /// the inverse registrations (the enclosing open groups are set aside for the duration).
    var openGroups: [UndoGroup] = []
    /// The client's open groups, set aside while undoing or redoing.
    var suspendedGroups: [UndoGroup] = []
    var activity = Activity.idle
    var registrationDisabledCount = 0

    /// Creates an undo manager with empty stacks, grouping by event and no limit on levels.
    public init() {}

    /// Whether the undo manager groups registrations by event: a registration made outside any group opens a
    /// top-level group, which ``endEvent()`` closes. The default is `true`.
    ///
    /// When `false`, registering outside a group is a programming error: open one with ``beginUndoGrouping()``.
    open var groupsByEvent = true

    /// The maximum number of top-level groups kept on each of the undo and redo stacks; 0, the default, means no
    /// limit. Beyond it the oldest groups are dropped, immediately when the limit is lowered.
    open var levelsOfUndo = 0 {
        didSet {
            precondition(levelsOfUndo >= 0, "UndoManager.levelsOfUndo must not be negative")
            trim(&undoStack)
            trim(&redoStack)
        }
    }

    /// Whether the undo manager is running the actions of an ``undo()`` or ``undoNestedGroup()``.
    open var isUndoing: Bool { activity == .undoing }

    /// Whether the undo manager is running the actions of a ``redo()``.
    open var isRedoing: Bool { activity == .redoing }

    /// Whether registrations are recorded: `true` unless ``disableUndoRegistration()`` has been called more
    /// often than ``enableUndoRegistration()``.
    open var isUndoRegistrationEnabled: Bool { registrationDisabledCount == 0 }

    /// Stops recording registrations until a matching ``enableUndoRegistration()``. Calls nest: each disable
    /// needs its own enable.
    open func disableUndoRegistration() {
        registrationDisabledCount += 1
    }

    /// Balances one ``disableUndoRegistration()``; calling it without one is a programming error.
    open func enableUndoRegistration() {
        precondition(
            registrationDisabledCount > 0,
            "UndoManager.enableUndoRegistration() called without a matching disableUndoRegistration()")
        registrationDisabledCount -= 1
    }

    /// Records `handler` as the undo of a change to `target`: undoing the enclosing group calls it with `target`.
    ///
    /// The handler runs while ``isUndoing`` (or ``isRedoing``) is true; the registrations it makes are recorded
    /// on the redo stack (or the undo stack), so a handler that calls the same setter as the original change
    /// makes the change redoable. A registration outside undo and redo clears the redo stack. Nothing is
    /// recorded while registration is disabled.
    ///
    /// The target is not retained: if it no longer exists when the group is undone, its action is skipped. Refer
    /// to the target through the handler's argument rather than capturing it.
    open func registerUndo<Target: AnyObject>(withTarget target: Target, handler: @escaping (Target) -> Void) {
        guard isUndoRegistrationEnabled else { return }
        if openGroups.isEmpty {
            precondition(
                groupsByEvent,
                "UndoManager is in invalid state, must begin a group before registering undo "
                    + "(groupsByEvent is false and no undo group is open)")
            openAutomaticGroup()
        }
        // A new change makes the undone future unreachable.
        if activity == .idle { redoStack.removeAll() }
        openGroups[openGroups.count - 1].entries.append(.action(UndoAction(target: target, handler: handler)))
    }

    /// Clears the undo and redo stacks, empties the open groups (which stay open, so the code that opened them
    /// can still close them) and re-enables registration.
    open func removeAllActions() {
        undoStack.removeAll()
        redoStack.removeAll()
        for group in openGroups + suspendedGroups { group.entries.removeAll() }
        registrationDisabledCount = 0
    }

    /// Removes every action registered with `target` from the undo and redo stacks and the open groups; groups
    /// left empty are dropped.
    open func removeAllActions(withTarget target: AnyObject) {
        let identifier = ObjectIdentifier(target)
        for group in undoStack + redoStack + openGroups + suspendedGroups {
            group.removeActions(withTarget: identifier)
        }
        undoStack.removeAll { $0.isEmpty }
        redoStack.removeAll { $0.isEmpty }
    }

    // The menu titles are declared here, not in an extension, because they are the override point for
    // localisation and Swift lets subclasses override only members declared in the class body.

    /// The Undo menu title for `actionName`: "Undo \(actionName)", or "Undo" when the name is empty. Override it
    /// to localise.
    open func undoMenuTitle(forUndoActionName actionName: String) -> String {
        actionName.isEmpty ? "Undo" : "Undo \(actionName)"
    }

    /// The Redo menu title for `actionName`: "Redo \(actionName)", or "Redo" when the name is empty. Override it
    /// to localise.
    open func redoMenuTitle(forUndoActionName actionName: String) -> String {
        actionName.isEmpty ? "Redo" : "Redo \(actionName)"
    }

    /// Drops the oldest groups of `stack` beyond ``levelsOfUndo``.
    func trim(_ stack: inout [UndoGroup]) {
        if levelsOfUndo > 0, stack.count > levelsOfUndo {
            stack.removeFirst(stack.count - levelsOfUndo)
        }
    }

    /// Adds a closed top-level group to the undo stack; empty groups are not kept, so an event without changes
    /// leaves nothing to undo.
    func pushUndoGroup(_ group: UndoGroup) {
        guard !group.isEmpty else { return }
        undoStack.append(group)
        trim(&undoStack)
    }
}
