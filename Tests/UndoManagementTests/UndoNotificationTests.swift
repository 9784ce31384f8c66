import Foundation
import UndoManagement
import Testing

/// Collects the names of the notifications an undo manager posts; the observer block is `@Sendable`.
private final class NotificationRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [String] = []
    private var observer: (any NSObjectProtocol)?

    init(observing manager: UndoManager) {
        observer = NotificationCenter.default.addObserver(forName: nil, object: manager, queue: nil) { [self] note in
            let short = note.name.rawValue
                .replacingOccurrences(of: "NSUndoManager", with: "")
                .replacingOccurrences(of: "Notification", with: "")
            lock.withLock { recorded.append(short) }
        }
    }

    /// The names recorded so far, then forgets them.
    func take() -> [String] {
        lock.withLock {
            defer { recorded.removeAll() }
            return recorded
        }
    }

    func stop() {
        if let observer { NotificationCenter.default.removeObserver(observer) }
    }
}

@Suite("UndoManager: notifications")
struct UndoNotificationTests {
    @Test("The names and string values are Apple's")
    func names() {
        #expect(UndoManager.checkpointNotification.rawValue == "NSUndoManagerCheckpointNotification")
        #expect(UndoManager.willUndoChangeNotification == .NSUndoManagerWillUndoChange)
        #expect(UndoManager.didUndoChangeNotification.rawValue == "NSUndoManagerDidUndoChangeNotification")
        #expect(UndoManager.willRedoChangeNotification.rawValue == "NSUndoManagerWillRedoChangeNotification")
        #expect(UndoManager.didRedoChangeNotification.rawValue == "NSUndoManagerDidRedoChangeNotification")
        #expect(UndoManager.didOpenUndoGroupNotification.rawValue == "NSUndoManagerDidOpenUndoGroupNotification")
        #expect(UndoManager.willCloseUndoGroupNotification.rawValue == "NSUndoManagerWillCloseUndoGroupNotification")
        #expect(UndoManager.didCloseUndoGroupNotification.rawValue == "NSUndoManagerDidCloseUndoGroupNotification")
    }

    @Test("An event, an undo and a redo post their notifications in order")
    func eventUndoRedo() {
        let document = TestDocument(undoManager: UndoManager())
        let recorder = NotificationRecorder(observing: document.undoManager)
        defer { recorder.stop() }

        document.set("a", to: 1)
        // A top-level group opens without a checkpoint.
        #expect(recorder.take() == ["DidOpenUndoGroup"])
        document.undoManager.endEvent()
        #expect(recorder.take() == ["Checkpoint", "WillCloseUndoGroup", "DidCloseUndoGroup"])
        document.undoManager.undo()
        #expect(recorder.take() == ["Checkpoint", "WillUndoChange", "DidUndoChange"])
        #expect(document.undoManager.canRedo)
        #expect(recorder.take() == ["Checkpoint"])
        document.undoManager.redo()
        #expect(recorder.take() == ["Checkpoint", "WillRedoChange", "DidRedoChange"])
    }

    @Test("Nested groups post a checkpoint when opened; undo closes the event group first")
    func nestedAndUndoInEvent() {
        let document = TestDocument(undoManager: UndoManager())
        let recorder = NotificationRecorder(observing: document.undoManager)
        defer { recorder.stop() }

        document.undoManager.beginUndoGrouping()
        #expect(recorder.take() == ["DidOpenUndoGroup", "Checkpoint", "DidOpenUndoGroup"])
        document.set("a", to: 1)
        document.undoManager.endUndoGrouping()
        #expect(recorder.take() == ["Checkpoint", "WillCloseUndoGroup", "DidCloseUndoGroup"])
        document.undoManager.undo()
        #expect(recorder.take() == [
            "Checkpoint", "WillCloseUndoGroup", "DidCloseUndoGroup",
            "Checkpoint", "WillUndoChange", "DidUndoChange",
        ])
    }

    @Test("Changes registered on a checkpoint join the group being closed")
    func checkpointFlush() {
        let document = TestDocument(undoManager: UndoManager())
        let manager = document.undoManager
        manager.groupsByEvent = false
        // The observer block is @Sendable, but the center calls it synchronously on this thread.
        nonisolated(unsafe) let flushed = document
        nonisolated(unsafe) var pending: (key: String, value: Int)? = ("late", 9)
        let observer = NotificationCenter.default.addObserver(
            forName: UndoManager.checkpointNotification, object: manager, queue: nil
        ) { _ in
            if let change = pending {
                pending = nil
                flushed.set(change.key, to: change.value)
            }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        manager.beginUndoGrouping()
        document.set("a", to: 1)
        manager.endUndoGrouping()
        #expect(document.values == ["a": 1, "late": 9])
        manager.undo()
        #expect(document.values == [:])
    }
}
