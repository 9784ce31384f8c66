import UndoManagement
import Testing

/// Programming errors trap, as Apple's undo manager raises; each runs in a child process.
@Suite("UndoManager: programming errors")
struct UndoPreconditionTests {
    @Test("undo() with a client group open")
    func undoWithClientGroupOpen() async {
        await #expect(processExitsWith: .failure) {
            let manager = UndoManager()
            manager.groupsByEvent = false
            manager.beginUndoGrouping()
            manager.undo()
        }
    }

    @Test("undo() with nested groups open")
    func undoWithNestedGroupsOpen() async {
        await #expect(processExitsWith: .failure) {
            let manager = UndoManager()
            manager.beginUndoGrouping()
            manager.undo()
        }
    }

    @Test("endUndoGrouping() without beginUndoGrouping()")
    func unbalancedEnd() async {
        await #expect(processExitsWith: .failure) {
            UndoManager().endUndoGrouping()
        }
    }

    @Test("Registering outside a group when not grouping by event")
    func registerWithoutGroup() async {
        await #expect(processExitsWith: .failure) {
            let manager = UndoManager()
            manager.groupsByEvent = false
            manager.registerUndo(withTarget: manager) { _ in }
        }
    }

    @Test("enableUndoRegistration() without disableUndoRegistration()")
    func unbalancedEnable() async {
        await #expect(processExitsWith: .failure) {
            UndoManager().enableUndoRegistration()
        }
    }
}
