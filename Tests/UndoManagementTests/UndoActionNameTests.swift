import UndoManagement
import Testing

@Suite("UndoManager: action names and menu titles")
struct UndoActionNameTests {
    @Test("Menu titles with and without an action name")
    func menuTitles() {
        let manager = UndoManager()
        #expect(manager.undoMenuItemTitle == "Undo")
        #expect(manager.redoMenuItemTitle == "Redo")
        #expect(manager.undoMenuTitle(forUndoActionName: "Typing") == "Undo Typing")
        #expect(manager.redoMenuTitle(forUndoActionName: "Typing") == "Redo Typing")
        #expect(manager.undoMenuTitle(forUndoActionName: "") == "Undo")
    }

    @Test("The name follows its group from the undo stack to the redo stack and back")
    func namesFollowGroups() {
        let document = TestDocument(undoManager: UndoManager())
        let manager = document.undoManager
        document.set("a", to: 1)
        manager.setActionName("Add A")
        #expect(manager.undoActionName == "Add A")
        manager.endEvent()
        document.set("b", to: 2)
        manager.setActionName("Add B")
        manager.endEvent()
        #expect(manager.undoMenuItemTitle == "Undo Add B")
        manager.undo()
        #expect(manager.undoActionName == "Add A")
        #expect(manager.redoActionName == "Add B")
        #expect(manager.redoMenuItemTitle == "Redo Add B")
        manager.redo()
        #expect(manager.undoActionName == "Add B")
        #expect(manager.redoActionName == "")
    }

    @Test("A name set before the event's first change names that event")
    func nameBeforeChanges() {
        let document = TestDocument(undoManager: UndoManager())
        let manager = document.undoManager
        manager.setActionName("Edit")
        document.set("a", to: 1)
        manager.endEvent()
        #expect(manager.undoActionName == "Edit")
    }

    @Test("A name set by a handler while undoing names the redo group")
    func nameWhileUndoing() {
        let manager = UndoManager()
        let log = Log()
        manager.registerUndo(withTarget: log) { log in
            manager.registerUndo(withTarget: log) { _ in }
            manager.setActionName("Renamed")
        }
        manager.setActionName("Original")
        manager.endEvent()
        manager.undo()
        #expect(manager.redoActionName == "Renamed")
    }

    @Test("Without groupsByEvent, a name set after closing a group renames it")
    func nameAfterClosing() {
        let document = TestDocument(undoManager: UndoManager())
        let manager = document.undoManager
        manager.groupsByEvent = false
        manager.beginUndoGrouping()
        document.set("a", to: 1)
        manager.endUndoGrouping()
        manager.setActionName("Late")
        #expect(manager.undoActionName == "Late")
    }

    @Test("Subclasses localise the menu titles")
    func localisedTitles() {
        final class FrenchUndoManager: UndoManager {
            override func undoMenuTitle(forUndoActionName actionName: String) -> String {
                actionName.isEmpty ? "Annuler" : "Annuler \(actionName)"
            }
        }
        let manager = FrenchUndoManager()
        let log = Log()
        manager.registerUndo(withTarget: log) { _ in }
        manager.setActionName("la saisie")
        #expect(manager.undoMenuItemTitle == "Annuler la saisie")
    }
}
