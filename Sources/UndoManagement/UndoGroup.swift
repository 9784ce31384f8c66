/// One registered undo action: a handler and the object it is applied to.
///
/// The target is held weakly, as Apple's undo manager does not retain targets: an action whose target has gone
/// away is skipped instead of keeping the object alive from the undo stack.
struct UndoAction {
    weak var target: AnyObject?
    /// Kept apart from the weak reference so `removeAllActions(withTarget:)` can match by identity.
    let targetIdentifier: ObjectIdentifier
    let perform: (AnyObject) -> Void

    init<Target: AnyObject>(target: Target, handler: @escaping (Target) -> Void) {
        self.target = target
        self.targetIdentifier = ObjectIdentifier(target)
        // The handler was registered for `Target`, so the stored target is always one.
        self.perform = { handler($0 as! Target) }
    }
}

/// An undo group: actions and closed nested groups, in registration order.
///
/// A reference type because open groups are appended to while they sit on the open-group stack and, for the
/// outermost one, are renamed by `setActionName(_:)`.
final class UndoGroup {
    enum Entry {
        case action(UndoAction)
        case group(UndoGroup)
    }

    var entries: [Entry] = []
    var actionName = ""
    /// True for the top-level group opened on the owner's behalf when `groupsByEvent` is on; `endEvent()` closes
    /// only such a group.
    let isAutomatic: Bool

    init(isAutomatic: Bool) {
        self.isAutomatic = isAutomatic
    }

    var isEmpty: Bool { entries.isEmpty }

    /// Runs the group's actions, nested groups included, in reverse registration order: the last change is
    /// reverted first, so each inverse sees the state its change left behind.
    func performReversed() {
        for entry in entries.reversed() {
            switch entry {
            case .action(let action):
                if let target = action.target { action.perform(target) }
            case .group(let group):
                group.performReversed()
            }
        }
    }

    /// Removes the actions registered for the object with `identifier`, and nested groups left empty by it.
    func removeActions(withTarget identifier: ObjectIdentifier) {
        entries.removeAll { entry in
            switch entry {
            case .action(let action):
                return action.targetIdentifier == identifier
            case .group(let group):
                group.removeActions(withTarget: identifier)
                return group.isEmpty
            }
        }
    }
}
