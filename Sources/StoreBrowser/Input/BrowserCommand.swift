/// Everything a key can ask the browser to do. Keys map to commands through a `KeyMap`, so the help overlay is
/// generated from the same table the browser dispatches on.
package enum BrowserCommand: Hashable, Sendable, CaseIterable {
    case moveDown, moveUp, pageDown, pageUp, halfPageDown, halfPageUp, first, last
    case columnLeft, columnRight, jumpToColumn, hideColumn
    case switchPane
    /// Enter: open the entity, the object, or the relationship under the cursor.
    case open
    case back, forward
    case sortAscending, sortDescending, addSortAscending, addSortDescending
    case filter, command
    case refresh, redraw
    case frequency, describe
    case edit, setNull, insertObject, deleteObject, accept
    case undo, redo, write
    case help, quit, cancel, suspend
}

/// Where a binding applies.
package enum KeyScope: String, Hashable, Sendable, CaseIterable {
    case everywhere = "Everywhere"
    case entities = "Entity list"
    case table = "Table"
    case detail = "Detail pane"
}
