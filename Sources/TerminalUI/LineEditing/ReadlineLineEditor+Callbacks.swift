#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CReadline

// Readline's hooks are C function pointers that capture nothing; they reach the editor through
// `ReadlineLineEditor.current`. All run on the editor's thread, inside `rl_callback_read_char`.

/// `rl_getc_function`: the next byte fed by `ReadlineLineEditor.feed`.
func readlineGetCharacter(_ stream: UnsafeMutablePointer<FILE>?) -> Int32 {
    guard let editor = ReadlineLineEditor.current, editor.pendingIndex < editor.pendingInput.count else {
        return EOF  // only a command that reads beyond the key fed gets here; readline ends the line
    }
    defer { editor.pendingIndex += 1 }
    return Int32(editor.pendingInput[editor.pendingIndex])
}

/// `rl_input_available_hook`: whether more fed bytes wait (readline asks when a prefix such as Escape is
/// ambiguous).
func readlineInputAvailable() -> Int32 {
    guard let editor = ReadlineLineEditor.current else { return 0 }
    return editor.pendingIndex < editor.pendingInput.count ? 1 : 0
}

/// `rl_redisplay_function`: nothing; the app draws the line.
func readlineRedisplay() {}

/// `rl_prep_term_function`: nothing; curses owns the terminal modes.
func readlinePrepareTerminal(_ metaFlag: Int32) {}

/// `rl_deprep_term_function`: nothing.
func readlineRestoreTerminal() {}

/// The line handler of `rl_callback_handler_install`: readline finished a line (nil at end of file, Ctrl-D on an
/// empty line).
func readlineLineHandler(_ line: UnsafeMutablePointer<CChar>?) {
    guard let editor = ReadlineLineEditor.current else {
        free(line)
        return
    }
    if let line {
        let text = String(cString: line)
        free(line)
        editor.finish(with: .accepted(text))
    } else {
        editor.finish(with: .cancelled)
    }
}

/// `rl_attempted_completion_function`: asks the Swift completer; never falls back to file names.
func readlineAttemptCompletion(_ word: UnsafePointer<CChar>?, _ start: Int32, _ end: Int32)
    -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
    ocd_rl_set_attempted_completion_over(1)
    guard let editor = ReadlineLineEditor.current, let completer = editor.completer, let word else { return nil }
    let candidates = completer(editor.textBeforeCursor, String(cString: word))
    guard !candidates.isEmpty else { return nil }
    if candidates.count == 1, CompletionWord.continues(candidates[0]) { ocd_rl_set_completion_suppress_append(1) }
    // Like BasicLineEditor, expose an ambiguous completion's candidates at once; readline itself would list them
    // only on a later Tab that changes nothing.
    editor.completionCandidates = candidates.count > 1 ? candidates : []
    editor.completionQueue = candidates
    return rl_completion_matches(word, readlineNextCompletion)
}

/// The generator of `rl_completion_matches`: one malloc'd candidate per call, nil at the end.
func readlineNextCompletion(_ word: UnsafePointer<CChar>?, _ state: Int32) -> UnsafeMutablePointer<CChar>? {
    guard let editor = ReadlineLineEditor.current, !editor.completionQueue.isEmpty else { return nil }
    return strdup(editor.completionQueue.removeFirst())
}

/// `rl_completion_display_matches_hook`: keeps the candidates for the app to list instead of printing them.
func readlineDisplayMatches(_ matches: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ count: Int32,
                            _ longest: Int32) {
    guard let editor = ReadlineLineEditor.current, let matches, count > 0 else { return }
    editor.completionCandidates = (1...Int(count)).compactMap { matches[$0].map { String(cString: $0) } }
}
