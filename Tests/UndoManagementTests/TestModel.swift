import UndoManagement

/// A small document whose setters register their inverses, the way a managed object context will.
final class TestDocument {
    let undoManager: UndoManager
    private(set) var values: [String: Int] = [:]

    init(undoManager: UndoManager) {
        self.undoManager = undoManager
    }

    /// Sets `key` to `value`, or removes it when `value` is nil, registering the inverse.
    func set(_ key: String, to value: Int?) {
        let old = values[key]
        values[key] = value
        undoManager.registerUndo(withTarget: self) { document in
            document.set(key, to: old)
        }
    }
}

/// A deterministic generator (SplitMix64), so a failing property run can be replayed from its seed.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
