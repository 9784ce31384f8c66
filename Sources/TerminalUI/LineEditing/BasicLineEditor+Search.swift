/// The state of an incremental reverse history search (Ctrl-R).
struct HistorySearch {
    var query = ""
    /// The index of the entry found, or nil before anything matched.
    var match: Int?
    var failed = false
    /// The line and cursor before the search, restored when it is cancelled.
    var original: [Character]
    var originalCursor: Int
}

extension BasicLineEditor {
    func startSearch() {
        search = HistorySearch(original: characters, originalCursor: cursorIndex)
    }

    /// Handles `key` while searching. Returns the event when the key was consumed, nil when the search ended and
    /// the key must be handled as ordinary editing (readline's behaviour for motion keys).
    func feedSearch(_ key: Key) -> LineEditorEvent? {
        guard var state = search else { return nil }
        let entries = activeKind.map { history(for: $0) } ?? []
        switch key {
        case .character(let character):
            state.query.append(character)
            find(in: entries, from: state.match ?? entries.count - 1, state: &state)
        case .backspace:
            guard !state.query.isEmpty else { break }
            state.query.removeLast()
            find(in: entries, from: entries.count - 1, state: &state)
        case .control("r"):
            find(in: entries, from: (state.match ?? entries.count) - 1, state: &state)
        case .escape, .control("g"), .control("c"):
            characters = state.original
            cursorIndex = state.originalCursor
            search = nil
            return .editing
        case .enter:
            search = nil
            return accept().map(LineEditorEvent.accepted) ?? .cancelled
        case .resize:
            return .editing
        default:
            search = nil
            return nil
        }
        search = state
        return .editing
    }

    /// Finds the newest entry at or before `start` containing the query and shows it.
    private func find(in entries: [String], from start: Int, state: inout HistorySearch) {
        guard !state.query.isEmpty else {
            state.failed = false
            return
        }
        var index = min(start, entries.count - 1)
        while index >= 0 {
            let entry = Array(entries[index])
            if let offset = Self.offset(of: Array(state.query), in: entry) {
                state.match = index
                state.failed = false
                characters = entry
                cursorIndex = offset
                return
            }
            index -= 1
        }
        state.failed = true
    }

    /// Where `needle` first occurs in `haystack`, compared cluster by cluster.
    static func offset(of needle: [Character], in haystack: [Character]) -> Int? {
        guard needle.count <= haystack.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start..<start + needle.count].elementsEqual(needle) {
            return start
        }
        return nil
    }
}
