import UndoManagement
import Testing

/// Random edit histories: every undo and redo must land exactly on a recorded state.
@Suite("UndoManager: random edit histories")
struct UndoPropertyTests {
    private static let keys = ["a", "b", "c", "d", "e"]

    /// Applies up to three random edits, some inside nested groups; returns how many were registered.
    private static func applyEdits(to document: TestDocument, depth: Int, random: inout SeededGenerator) -> Int {
        var registered = 0
        for _ in 0..<Int(random.next(upperBound: 4 as UInt64)) {
            let key = keys[Int(random.next(upperBound: UInt64(keys.count)))]
            switch random.next(upperBound: 5 as UInt64) {
            case 0, 1, 2:
                document.set(key, to: Int(random.next(upperBound: 100 as UInt64)))
                registered += 1
            case 3:
                document.set(key, to: nil)
                registered += 1
            default:
                guard depth < 3 else { continue }
                document.undoManager.beginUndoGrouping()
                registered += applyEdits(to: document, depth: depth + 1, random: &random)
                document.undoManager.endUndoGrouping()
            }
        }
        return registered
    }

    @Test("Undo and redo restore every state of a random history", arguments: 0..<16 as Range<UInt64>)
    func randomHistory(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let document = TestDocument(undoManager: UndoManager())
        let manager = document.undoManager
        // A third of the runs use explicit top-level groups instead of events.
        manager.groupsByEvent = !seed.isMultiple(of: 3)
        var states = [document.values]
        var cursor = 0

        for _ in 0..<80 {
            switch random.next(upperBound: 10 as UInt64) {
            case 0...5:
                if !manager.groupsByEvent { manager.beginUndoGrouping() }
                let registered = Self.applyEdits(to: document, depth: 0, random: &random)
                if manager.groupsByEvent { manager.endEvent() } else { manager.endUndoGrouping() }
                if registered > 0 {
                    states.removeSubrange((cursor + 1)...)
                    states.append(document.values)
                    cursor += 1
                }
            case 6, 7:
                manager.undo()
                cursor = max(cursor - 1, 0)
            default:
                manager.redo()
                cursor = min(cursor + 1, states.count - 1)
            }
            #expect(document.values == states[cursor], "seed \(seed)")
            #expect(manager.canUndo == (cursor > 0), "seed \(seed)")
            #expect(manager.canRedo == (cursor < states.count - 1), "seed \(seed)")
            #expect(manager.groupingLevel == 0, "seed \(seed)")
        }

        let end = document.values
        while manager.canUndo { manager.undo() }
        #expect(document.values == [:], "seed \(seed): undoing everything restores the start")
        while manager.canRedo { manager.redo() }
        #expect(document.values == states.last, "seed \(seed): redoing everything restores the last state")
        if cursor == states.count - 1 { #expect(document.values == end) }
    }
}
