/// A line editor in pure Swift, with readline's emacs-mode behaviour for the common keys: insert, Delete,
/// Backspace, Left/Right, Home/End, Ctrl-A/E/B/F/D/K/U/W/Y, Up/Down (and Ctrl-P/N) through the prompt kind's
/// history, Tab completion, and Ctrl-R incremental history search.
///
/// Used in tests and in builds without GNU readline.
public final class BasicLineEditor: LineEditor {
    public private(set) var activeKind: PromptKind?
    public var completer: LineCompleter?
    public private(set) var completionCandidates: [String] = []
    var characters: [Character] = []
    var cursorIndex = 0
    var store: LineHistory
    /// The history entry shown by Up/Down, or nil at the line being written.
    var historyIndex: Int?
    /// The line being written, kept while Up/Down shows history.
    var draft: [Character] = []
    /// The last text killed by Ctrl-K/U/W, for Ctrl-Y.
    var killBuffer: [Character] = []
    /// The state of a Ctrl-R search, when one is on.
    var search: HistorySearch?

    /// - Parameters:
    ///   - historyFiles: a file per prompt kind, read now and appended to on every accepted line.
    ///   - historyLimit: the most entries kept per kind.
    public init(historyFiles: [PromptKind: String] = [:], historyLimit: Int = 1000) {
        store = LineHistory(files: historyFiles, limit: historyLimit)
    }

    public var text: String { String(characters) }
    public var cursor: Int { cursorIndex }

    public var modeIndicator: String? {
        guard let search else { return nil }
        return "(\(search.failed ? "failed " : "")reverse-i-search)`\(search.query)': "
    }

    public func history(for kind: PromptKind) -> [String] { store.lines(for: kind) }

    public func begin(_ kind: PromptKind, initialText: String) {
        activeKind = kind
        characters = Array(initialText)
        cursorIndex = characters.count
        historyIndex = nil
        draft = []
        search = nil
        completionCandidates = []
    }

    public func accept() -> String? {
        guard let kind = activeKind else { return nil }
        let line = text
        store.record(line, for: kind)
        close()
        return line
    }

    public func cancel() { close() }

    private func close() {
        activeKind = nil
        search = nil
        historyIndex = nil
        completionCandidates = []
    }

    @discardableResult
    public func feed(_ key: Key) -> LineEditorEvent {
        guard activeKind != nil, key != .resize else { return .editing }
        if search != nil, let event = feedSearch(key) { return event }
        if key != .tab { completionCandidates = [] }
        switch key {
        case .character(let character): insert([character])
        case .enter: return accept().map(LineEditorEvent.accepted) ?? .cancelled
        case .escape, .control("c"), .control("g"):
            cancel()
            return .cancelled
        case .backspace: deleteBackward()
        case .delete, .control("d"): deleteForward()
        case .left, .control("b"): cursorIndex = max(0, cursorIndex - 1)
        case .right, .control("f"): cursorIndex = min(characters.count, cursorIndex + 1)
        case .home, .control("a"): cursorIndex = 0
        case .end, .control("e"): cursorIndex = characters.count
        case .control("k"): kill(cursorIndex..<characters.count)
        case .control("u"): kill(0..<cursorIndex)
        case .control("w"): kill(wordStartBeforeCursor()..<cursorIndex)
        case .control("y"): insert(killBuffer)
        case .up, .control("p"): recallHistory(by: -1)
        case .down, .control("n"): recallHistory(by: 1)
        case .tab: complete()
        case .control("r"): startSearch()
        default: break
        }
        return .editing
    }

    // MARK: Editing

    func insert(_ inserted: [Character]) {
        characters.insert(contentsOf: inserted, at: cursorIndex)
        cursorIndex += inserted.count
    }

    private func deleteBackward() {
        guard cursorIndex > 0 else { return }
        characters.remove(at: cursorIndex - 1)
        cursorIndex -= 1
    }

    private func deleteForward() {
        guard cursorIndex < characters.count else { return }
        characters.remove(at: cursorIndex)
    }

    private func kill(_ range: Range<Int>) {
        guard !range.isEmpty else { return }
        killBuffer = Array(characters[range])
        characters.removeSubrange(range)
        cursorIndex = range.lowerBound
    }

    /// Ctrl-W's word: back over spaces, then back to the previous space (readline's unix-word-rubout).
    private func wordStartBeforeCursor() -> Int {
        var start = cursorIndex
        while start > 0, characters[start - 1] == " " { start -= 1 }
        while start > 0, characters[start - 1] != " " { start -= 1 }
        return start
    }

    // MARK: History

    private func recallHistory(by step: Int) {
        guard let kind = activeKind else { return }
        let entries = store.lines(for: kind)
        guard !entries.isEmpty else { return }
        let current = historyIndex ?? entries.count
        let target = min(max(0, current + step), entries.count)
        guard target != current else { return }
        if historyIndex == nil { draft = characters }
        if target == entries.count {
            historyIndex = nil
            characters = draft
        } else {
            historyIndex = target
            characters = Array(entries[target])
        }
        cursorIndex = characters.count
    }

    // MARK: Completion

    private func complete() {
        let start = CompletionWord.start(in: characters, cursor: cursorIndex)
        let word = String(characters[start..<cursorIndex])
        let candidates = completer?(String(characters[..<cursorIndex]), word) ?? []
        guard !candidates.isEmpty else { return }
        if candidates.count == 1 {
            replace(start..<cursorIndex, with: candidates[0] + (CompletionWord.continues(candidates[0]) ? "" : " "))
            completionCandidates = []
            return
        }
        let prefix = CompletionWord.commonPrefix(candidates)
        if prefix.count > word.count {
            replace(start..<cursorIndex, with: prefix)
        }
        completionCandidates = candidates
    }

    private func replace(_ range: Range<Int>, with replacement: String) {
        characters.replaceSubrange(range, with: Array(replacement))
        cursorIndex = range.lowerBound + replacement.count
    }
}
