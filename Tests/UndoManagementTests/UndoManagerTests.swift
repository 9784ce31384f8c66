import UndoManagement
import Testing

@Suite("UndoManager: registration, undo and redo")
struct UndoManagerTests {
    @Test("A new undo manager is empty and groups by event")
    func defaults() {
        let manager = UndoManager()
        #expect(manager.groupsByEvent)
        #expect(manager.levelsOfUndo == 0)
        #expect(manager.groupingLevel == 0)
        #expect(!manager.canUndo)
        #expect(!manager.canRedo)
        #expect(!manager.isUndoing)
        #expect(!manager.isRedoing)
        #expect(manager.isUndoRegistrationEnabled)
        #expect(manager.undoActionName == "")
        #expect(manager.redoActionName == "")
    }

    @Test("Undo reverts a change and redo replays it")
    func undoAndRedo() {
        let document = TestDocument(undoManager: UndoManager())
        document.set("a", to: 1)
        document.undoManager.endEvent()
        #expect(document.undoManager.canUndo)
        document.undoManager.undo()
        #expect(document.values == [:])
        #expect(!document.undoManager.canUndo)
        #expect(document.undoManager.canRedo)
        document.undoManager.redo()
        #expect(document.values == ["a": 1])
        #expect(document.undoManager.canUndo)
        #expect(!document.undoManager.canRedo)
    }

    @Test("Undo runs a group's actions in reverse registration order")
    func reverseOrder() {
        let manager = UndoManager()
        let log = Log()
        manager.registerUndo(withTarget: log) { $0.entries.append("first") }
        manager.registerUndo(withTarget: log) { $0.entries.append("second") }
        manager.registerUndo(withTarget: log) { $0.entries.append("third") }
        manager.endEvent()
        manager.undo()
        #expect(log.entries == ["third", "second", "first"])
    }

    @Test("Handlers run while isUndoing or isRedoing is true")
    func undoingAndRedoingFlags() {
        let manager = UndoManager()
        let log = Log()
        func register() {
            manager.registerUndo(withTarget: log) { log in
                log.entries.append("undoing=\(manager.isUndoing) redoing=\(manager.isRedoing)")
                register()
            }
        }
        register()
        manager.endEvent()
        manager.undo()
        manager.redo()
        #expect(log.entries == ["undoing=true redoing=false", "undoing=false redoing=true"])
        #expect(!manager.isUndoing && !manager.isRedoing)
    }

    @Test("Registrations made while undoing form one redo group per undone group")
    func redoGroupPerUndoneGroup() {
        let document = TestDocument(undoManager: UndoManager())
        document.set("a", to: 1)
        document.set("b", to: 2)
        document.undoManager.endEvent()
        document.set("c", to: 3)
        document.undoManager.endEvent()
        document.undoManager.undo()
        document.undoManager.undo()
        #expect(document.values == [:])
        document.undoManager.redo()
        #expect(document.values == ["a": 1, "b": 2])
        document.undoManager.redo()
        #expect(document.values == ["a": 1, "b": 2, "c": 3])
        #expect(!document.undoManager.canRedo)
    }

    @Test("A new change outside undo and redo clears the redo stack")
    func newChangeInvalidatesRedo() {
        let document = TestDocument(undoManager: UndoManager())
        document.set("a", to: 1)
        document.undoManager.endEvent()
        document.undoManager.undo()
        #expect(document.undoManager.canRedo)
        document.set("b", to: 2)
        #expect(!document.undoManager.canRedo)
        document.undoManager.endEvent()
        document.undoManager.undo()
        #expect(document.values == [:])
        #expect(!document.undoManager.canUndo)
    }

    @Test("Redo keeps the rest of the redo stack")
    func redoKeepsRedoStack() {
        let document = TestDocument(undoManager: UndoManager())
        for (index, key) in ["a", "b", "c"].enumerated() {
            document.set(key, to: index)
            document.undoManager.endEvent()
        }
        for _ in 0..<3 { document.undoManager.undo() }
        document.undoManager.redo()
        #expect(document.values == ["a": 0])
        #expect(document.undoManager.canRedo)
    }

    @Test("Undo and redo with nothing to do change nothing")
    func emptyUndoAndRedo() {
        let manager = UndoManager()
        manager.undo()
        manager.redo()
        #expect(!manager.canUndo && !manager.canRedo)
    }

    @Test("Undo in the middle of an event closes the automatic group first")
    func undoClosesEventGroup() {
        let document = TestDocument(undoManager: UndoManager())
        document.set("a", to: 1)
        #expect(document.undoManager.groupingLevel == 1)
        #expect(document.undoManager.canUndo)
        document.undoManager.undo()
        #expect(document.undoManager.groupingLevel == 0)
        #expect(document.values == [:])
    }

    @Test("Disabled registration records nothing, and disables nest")
    func disabledRegistration() {
        let document = TestDocument(undoManager: UndoManager())
        let manager = document.undoManager
        manager.disableUndoRegistration()
        manager.disableUndoRegistration()
        #expect(!manager.isUndoRegistrationEnabled)
        document.set("a", to: 1)
        manager.enableUndoRegistration()
        #expect(!manager.isUndoRegistrationEnabled)
        document.set("b", to: 2)
        manager.enableUndoRegistration()
        #expect(manager.isUndoRegistrationEnabled)
        #expect(manager.groupingLevel == 0)
        #expect(!manager.canUndo)
        document.set("c", to: 3)
        manager.endEvent()
        manager.undo()
        #expect(document.values == ["a": 1, "b": 2])
    }

    @Test("Disabling registration while undoing leaves nothing to redo")
    func disabledWhileUndoing() {
        let document = TestDocument(undoManager: UndoManager())
        document.set("a", to: 1)
        document.undoManager.endEvent()
        document.undoManager.disableUndoRegistration()
        document.undoManager.undo()
        document.undoManager.enableUndoRegistration()
        #expect(document.values == [:])
        #expect(!document.undoManager.canRedo)
    }

    @Test("levelsOfUndo keeps the newest groups and trims when lowered")
    func levels() {
        let document = TestDocument(undoManager: UndoManager())
        let manager = document.undoManager
        manager.levelsOfUndo = 3
        for index in 0..<5 {
            document.set("k\(index)", to: index)
            manager.endEvent()
        }
        var undone = 0
        while manager.canUndo {
            manager.undo()
            undone += 1
        }
        #expect(undone == 3)
        #expect(document.values == ["k0": 0, "k1": 1])
        #expect(manager.canRedo)
        manager.levelsOfUndo = 1
        manager.redo()
        #expect(!manager.canRedo)
        #expect(document.values == ["k0": 0, "k1": 1, "k2": 2])
    }

    @Test("levelsOfUndo 0 keeps every group")
    func unlimitedLevels() {
        let document = TestDocument(undoManager: UndoManager())
        for index in 0..<200 {
            document.set("k", to: index)
            document.undoManager.endEvent()
        }
        var undone = 0
        while document.undoManager.canUndo {
            document.undoManager.undo()
            undone += 1
        }
        #expect(undone == 200)
        #expect(document.values == [:])
    }

    @Test("removeAllActions clears both stacks and re-enables registration")
    func removeAll() {
        let document = TestDocument(undoManager: UndoManager())
        let manager = document.undoManager
        document.set("a", to: 1)
        manager.endEvent()
        document.set("b", to: 2)
        manager.endEvent()
        manager.undo()
        manager.disableUndoRegistration()
        manager.removeAllActions()
        #expect(!manager.canUndo && !manager.canRedo)
        #expect(manager.isUndoRegistrationEnabled)
    }

    @Test("removeAllActions keeps open groups open but empty")
    func removeAllKeepsGroupsOpen() {
        let manager = UndoManager()
        manager.groupsByEvent = false
        let log = Log()
        manager.beginUndoGrouping()
        manager.registerUndo(withTarget: log) { $0.entries.append("x") }
        manager.removeAllActions()
        #expect(manager.groupingLevel == 1)
        #expect(!manager.canUndo)
        manager.endUndoGrouping()
        #expect(!manager.canUndo)
    }

    @Test("removeAllActions(withTarget:) removes only that target's actions, everywhere")
    func removeAllWithTarget() {
        let manager = UndoManager()
        let kept = Log()
        let removed = Log()
        manager.registerUndo(withTarget: kept) { $0.entries.append("kept 1") }
        manager.registerUndo(withTarget: removed) { $0.entries.append("removed 1") }
        manager.endEvent()
        manager.registerUndo(withTarget: removed) { $0.entries.append("removed 2") }
        manager.endEvent()
        manager.beginUndoGrouping()
        manager.registerUndo(withTarget: removed) { $0.entries.append("removed 3") }
        manager.endUndoGrouping()
        manager.registerUndo(withTarget: kept) { $0.entries.append("kept 2") }
        manager.removeAllActions(withTarget: removed)
        manager.undo()
        #expect(kept.entries == ["kept 2"])
        // The second event held only the removed target's action, so its group is gone.
        manager.undo()
        #expect(kept.entries == ["kept 2", "kept 1"])
        #expect(removed.entries.isEmpty)
        #expect(!manager.canUndo)
    }

    @Test("removeAllActions(withTarget:) from a handler also reaches the groups set aside during undo")
    func removeAllWithTargetWhileUndoing() {
        let manager = UndoManager()
        manager.groupsByEvent = false
        let log = Log()
        let other = Log()
        manager.beginUndoGrouping()
        manager.registerUndo(withTarget: other) { $0.entries.append("other") }
        manager.beginUndoGrouping()
        manager.registerUndo(withTarget: log) { log in
            log.entries.append("nested")
            manager.removeAllActions(withTarget: other)
        }
        manager.endUndoGrouping()
        manager.undoNestedGroup()
        manager.endUndoGrouping()
        #expect(log.entries == ["nested"])
        #expect(!manager.canUndo)
    }

    @Test("An action whose target no longer exists is skipped")
    func deallocatedTarget() {
        let manager = UndoManager()
        let log = Log()
        do {
            let transient = Log()
            manager.registerUndo(withTarget: transient) { _ in log.entries.append("transient") }
        }
        manager.registerUndo(withTarget: log) { $0.entries.append("log") }
        manager.endEvent()
        manager.undo()
        #expect(log.entries == ["log"])
    }

    @Test("Undo of an undo registered during redo restores the undone state again")
    func undoRedoUndo() {
        let document = TestDocument(undoManager: UndoManager())
        document.set("a", to: 1)
        document.undoManager.endEvent()
        document.set("a", to: 2)
        document.undoManager.endEvent()
        for _ in 0..<3 {
            document.undoManager.undo()
            #expect(document.values == ["a": 1])
            document.undoManager.redo()
            #expect(document.values == ["a": 2])
        }
    }
}

/// A target that records which actions ran.
final class Log {
    var entries: [String] = []
}
