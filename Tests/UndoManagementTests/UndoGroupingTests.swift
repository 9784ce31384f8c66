import UndoManagement
import Testing

@Suite("UndoManager: groups, nesting and events")
struct UndoGroupingTests {
    @Test("With groupsByEvent, registrations until endEvent() form one group")
    func eventGroup() {
        let document = TestDocument(undoManager: UndoManager())
        let manager = document.undoManager
        document.set("a", to: 1)
        document.set("b", to: 2)
        #expect(manager.groupingLevel == 1)
        manager.endEvent()
        #expect(manager.groupingLevel == 0)
        document.set("c", to: 3)
        manager.endEvent()
        manager.undo()
        #expect(document.values == ["a": 1, "b": 2])
        manager.undo()
        #expect(document.values == [:])
    }

    @Test("endEvent() with no group open, or an event without changes, leaves nothing to undo")
    func emptyEvents() {
        let manager = UndoManager()
        manager.endEvent()
        manager.beginUndoGrouping()
        manager.endUndoGrouping()
        manager.endEvent()
        #expect(manager.groupingLevel == 0)
        #expect(!manager.canUndo)
    }

    @Test("beginUndoGrouping with groupsByEvent nests the group in the event group")
    func beginNestsInEventGroup() {
        let document = TestDocument(undoManager: UndoManager())
        let manager = document.undoManager
        manager.beginUndoGrouping()
        #expect(manager.groupingLevel == 2)
        document.set("a", to: 1)
        // A client group still open keeps the event open.
        manager.endEvent()
        #expect(manager.groupingLevel == 2)
        manager.endUndoGrouping()
        document.set("b", to: 2)
        manager.endEvent()
        #expect(manager.groupingLevel == 0)
        manager.undo()
        #expect(document.values == [:])
        #expect(!manager.canUndo)
    }

    @Test("Without groupsByEvent, explicit top-level groups are the undo steps")
    func explicitGroups() {
        let document = TestDocument(undoManager: UndoManager())
        let manager = document.undoManager
        manager.groupsByEvent = false
        manager.beginUndoGrouping()
        #expect(manager.groupingLevel == 1)
        document.set("a", to: 1)
        document.set("b", to: 2)
        manager.endUndoGrouping()
        manager.beginUndoGrouping()
        document.set("c", to: 3)
        manager.endUndoGrouping()
        // endEvent() leaves explicit groups alone.
        manager.beginUndoGrouping()
        manager.endEvent()
        #expect(manager.groupingLevel == 1)
        manager.endUndoGrouping()
        manager.undo()
        #expect(document.values == ["a": 1, "b": 2])
        manager.undo()
        #expect(document.values == [:])
    }

    @Test("A nested group's actions are undone with the enclosing group")
    func nestedGroupsJoinParent() {
        let document = TestDocument(undoManager: UndoManager())
        let manager = document.undoManager
        manager.groupsByEvent = false
        manager.beginUndoGrouping()
        document.set("a", to: 1)
        manager.beginUndoGrouping()
        document.set("b", to: 2)
        manager.beginUndoGrouping()
        document.set("c", to: 3)
        #expect(manager.groupingLevel == 3)
        manager.endUndoGrouping()
        manager.endUndoGrouping()
        document.set("d", to: 4)
        manager.endUndoGrouping()
        manager.undo()
        #expect(document.values == [:])
        #expect(!manager.canUndo)
        manager.redo()
        #expect(document.values == ["a": 1, "b": 2, "c": 3, "d": 4])
    }

    @Test("undoNestedGroup reverts the last nested group inside the open group")
    func undoNestedGroupInsideOpenGroup() {
        let document = TestDocument(undoManager: UndoManager())
        let manager = document.undoManager
        manager.groupsByEvent = false
        manager.beginUndoGrouping()
        document.set("a", to: 1)
        manager.beginUndoGrouping()
        document.set("b", to: 2)
        manager.endUndoGrouping()
        manager.undoNestedGroup()
        #expect(document.values == ["a": 1])
        #expect(manager.groupingLevel == 1)
        #expect(manager.canRedo)
        // Redone inside the open group, the change joins it.
        manager.redo()
        #expect(document.values == ["a": 1, "b": 2])
        manager.endUndoGrouping()
        manager.undo()
        #expect(document.values == [:])
    }

    @Test("undoNestedGroup with no group open reverts the top-level group")
    func undoNestedGroupTopLevel() {
        let document = TestDocument(undoManager: UndoManager())
        document.set("a", to: 1)
        document.undoManager.endEvent()
        document.undoManager.undoNestedGroup()
        #expect(document.values == [:])
        #expect(document.undoManager.canRedo)
    }

    @Test("Groups opened by handlers while undoing join the redo group")
    func groupsInsideHandlers() {
        let manager = UndoManager()
        let log = Log()
        func register(_ depth: Int) {
            manager.registerUndo(withTarget: log) { log in
                log.entries.append("run \(depth) at level \(manager.groupingLevel)")
                manager.beginUndoGrouping()
                register(depth + 1)
                manager.endUndoGrouping()
                // An event boundary inside a handler does not cut the redo group.
                manager.endEvent()
            }
        }
        register(0)
        manager.endEvent()
        manager.undo()
        #expect(manager.groupingLevel == 0)
        manager.redo()
        #expect(log.entries == ["run 0 at level 1", "run 1 at level 1"])
        #expect(manager.canUndo)
    }
}
