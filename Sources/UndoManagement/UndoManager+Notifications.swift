import Foundation

// Foundation on Linux declares none of the undo manager's notification names (checked against Swift 6.3.1), so
// they are declared here with Apple's string values; the object of each notification is the undo manager.
extension Notification.Name {
    /// Posted when a group is opened (except a top-level one) or closed, and when `canRedo` is read.
    public static let NSUndoManagerCheckpoint = Notification.Name("NSUndoManagerCheckpointNotification")
    /// Posted before an undo manager reverts a group.
    public static let NSUndoManagerWillUndoChange = Notification.Name("NSUndoManagerWillUndoChangeNotification")
    /// Posted after an undo manager reverts a group.
    public static let NSUndoManagerDidUndoChange = Notification.Name("NSUndoManagerDidUndoChangeNotification")
    /// Posted before an undo manager replays a group.
    public static let NSUndoManagerWillRedoChange = Notification.Name("NSUndoManagerWillRedoChangeNotification")
    /// Posted after an undo manager replays a group.
    public static let NSUndoManagerDidRedoChange = Notification.Name("NSUndoManagerDidRedoChangeNotification")
    /// Posted after an undo manager opens a group.
    public static let NSUndoManagerDidOpenUndoGroup = Notification.Name("NSUndoManagerDidOpenUndoGroupNotification")
    /// Posted before an undo manager closes a group.
    public static let NSUndoManagerWillCloseUndoGroup =
        Notification.Name("NSUndoManagerWillCloseUndoGroupNotification")
    /// Posted after an undo manager closes a group.
    public static let NSUndoManagerDidCloseUndoGroup =
        Notification.Name("NSUndoManagerDidCloseUndoGroupNotification")
}

extension UndoManager {
    /// Posted when a group is opened (except a top-level one) or closed, and when ``canRedo`` is read, so
    /// observers holding unregistered changes can register them into the group in effect.
    public static let checkpointNotification = Notification.Name.NSUndoManagerCheckpoint
    /// Posted before ``undo()`` or ``undoNestedGroup()`` runs a group's actions.
    public static let willUndoChangeNotification = Notification.Name.NSUndoManagerWillUndoChange
    /// Posted after ``undo()`` or ``undoNestedGroup()`` has run a group's actions.
    public static let didUndoChangeNotification = Notification.Name.NSUndoManagerDidUndoChange
    /// Posted before ``redo()`` runs a group's actions.
    public static let willRedoChangeNotification = Notification.Name.NSUndoManagerWillRedoChange
    /// Posted after ``redo()`` has run a group's actions.
    public static let didRedoChangeNotification = Notification.Name.NSUndoManagerDidRedoChange
    /// Posted after a group is opened, the automatic event group included.
    public static let didOpenUndoGroupNotification = Notification.Name.NSUndoManagerDidOpenUndoGroup
    /// Posted by ``endUndoGrouping()`` before the group is closed.
    public static let willCloseUndoGroupNotification = Notification.Name.NSUndoManagerWillCloseUndoGroup
    /// Posted by ``endUndoGrouping()`` after the group is closed.
    public static let didCloseUndoGroupNotification = Notification.Name.NSUndoManagerDidCloseUndoGroup

    /// Posts `name` synchronously on the default center, with this undo manager as the object.
    func postNotification(_ name: Notification.Name) {
        NotificationCenter.default.post(name: name, object: self)
    }
}
