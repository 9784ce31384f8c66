#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CReadline
import Synchronization

/// A line editor on GNU readline's callback ("alternate") interface, living inside the curses screen.
///
/// Readline never touches the terminal here. Keys are turned back into the bytes a terminal would send and fed
/// through `rl_getc_function`; `rl_callback_read_char` consumes them one at a time. Readline's output stream is
/// `/dev/null`, its redisplay function does nothing, and its terminal preparation is disabled: the app draws
/// `text` and `cursor` (read from `rl_line_buffer` and `rl_point`) with `LinePromptView`. Signals, SIGWINCH and
/// LINES/COLUMNS stay with the app. The user's inputrc applies (emacs or vi mode, custom bindings), under the
/// application name given at creation for `$if` sections.
///
/// History: each prompt kind has its own list; opening a prompt loads that list into readline's (global) history,
/// so Up/Down and readline's own Ctrl-R search it. With a history file for the kind, the file is read with
/// `read_history` at creation and every accepted line is appended (`append_history`, or `write_history` for a new
/// file, mode 0600) then the file is capped with `history_truncate_file`, so history survives crashes.
///
/// Completion: Tab calls `completer` through `rl_attempted_completion_function`; readline inserts the common
/// prefix, and the candidates of an ambiguous completion are captured (not printed) into `completionCandidates`.
///
/// Readline's state is process-global: only one `ReadlineLineEditor` can exist at a time, and it must be used
/// on one thread. GNU readline is GPL-3; nothing outside `TerminalUI` imports it (see `LineEditor`).
public final class ReadlineLineEditor: LineEditor {
    /// Why a readline editor cannot be created.
    public enum CreationError: Error, Equatable {
        /// Another `ReadlineLineEditor` exists in this process.
        case alreadyInUse
        /// `/dev/null` could not be opened for readline's streams.
        case cannotOpenNullDevice
    }

    private static let isInUse = Atomic<Bool>(false)
    /// The editor readline's C callbacks talk to, while one exists (weak: it must not keep the editor alive).
    /// Readline is single-threaded, and so is every access.
    nonisolated(unsafe) static weak var current: ReadlineLineEditor?

    public private(set) var activeKind: PromptKind?
    public var completer: LineCompleter?
    public internal(set) var completionCandidates: [String] = []
    /// Bytes waiting for `rl_getc_function`.
    var pendingInput: [UInt8] = []
    var pendingIndex = 0
    /// Set by the line handler when readline finishes a line.
    var finishedEvent: LineEditorEvent?
    /// Candidates being handed to `rl_completion_matches`.
    var completionQueue: [String] = []
    var historyFiles: [PromptKind: String]
    var historyLimit: Int
    var histories: [PromptKind: [String]] = [:]
    private let nullInput: UnsafeMutablePointer<FILE>
    private let nullOutput: UnsafeMutablePointer<FILE>
    private let applicationName: UnsafeMutablePointer<CChar>

    /// - Parameters:
    ///   - applicationName: readline's `rl_readline_name`, for `$if` sections of the user's inputrc.
    ///   - historyFiles: a history file per prompt kind.
    ///   - historyLimit: the most entries kept per kind, in memory and in files.
    /// - Throws: `CreationError`.
    public init(applicationName: String = "coredata", historyFiles: [PromptKind: String] = [:],
                historyLimit: Int = 1000) throws {
        guard Self.isInUse.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else {
            throw CreationError.alreadyInUse
        }
        guard let input = fopen("/dev/null", "r"), let output = fopen("/dev/null", "w") else {
            Self.isInUse.store(false, ordering: .releasing)
            throw CreationError.cannotOpenNullDevice
        }
        nullInput = input
        nullOutput = output
        self.applicationName = strdup(applicationName)
        self.historyFiles = historyFiles
        self.historyLimit = max(1, historyLimit)
        Self.current = self
        embedReadline()
        ocd_rl_initialize_bindings()
        loadHistoryFiles()
    }

    deinit {
        if activeKind != nil { cancel() }
        clear_history()
        Self.current = nil
        fclose(nullInput)
        fclose(nullOutput)
        free(applicationName)
        Self.isInUse.store(false, ordering: .releasing)
    }

    /// Points readline's hooks at this editor. Done at each `begin` too, in case something else changed them.
    private func embedReadline() {
        ocd_rl_embed(readlineGetCharacter, readlineInputAvailable, readlineRedisplay, readlinePrepareTerminal,
                     readlineRestoreTerminal, nullInput, nullOutput, applicationName)
        ocd_rl_set_completion(readlineAttemptCompletion, readlineDisplayMatches)
    }

    /// Applies readline settings and bindings from an inputrc-format file, on top of the user's inputrc (for
    /// application defaults, or `set editing-mode vi`).
    /// - Throws: `ReadlineError.initFileUnreadable` with readline's errno when the file cannot be read.
    public func applyInitFile(_ path: String) throws {
        let status = rl_read_init_file(path)
        guard status == 0 else { throw ReadlineError.initFileUnreadable(path: path, errno: status) }
    }

    // MARK: State

    public var text: String {
        guard activeKind != nil, let buffer = ocd_rl_line_buffer() else { return "" }
        return String(cString: buffer)
    }

    /// The line up to the cursor, for the completer.
    var textBeforeCursor: String {
        guard activeKind != nil, let buffer = ocd_rl_line_buffer() else { return "" }
        let point = Int(ocd_rl_point())
        return String(decoding: UnsafeRawBufferPointer(start: buffer, count: min(point, strlen(buffer))), as: UTF8.self)
    }

    public var cursor: Int {
        guard activeKind != nil, let buffer = ocd_rl_line_buffer() else { return 0 }
        let point = Int(ocd_rl_point())
        let bytes = UnsafeRawBufferPointer(start: buffer, count: min(point, strlen(buffer)))
        return String(decoding: bytes, as: UTF8.self).count
    }

    public var modeIndicator: String? {
        guard activeKind != nil, let display = ocd_rl_display_prompt() else { return nil }
        if let prompt = ocd_rl_prompt(), strcmp(prompt, display) == 0 { return nil }
        let indicator = String(cString: display)
        return indicator.isEmpty ? nil : indicator
    }

    public func history(for kind: PromptKind) -> [String] { histories[kind] ?? [] }

    // MARK: Prompts

    public func begin(_ kind: PromptKind, initialText: String) {
        if activeKind != nil { cancel() }
        embedReadline()
        clear_history()
        for line in histories[kind] ?? [] { add_history(line) }
        activeKind = kind
        finishedEvent = nil
        completionCandidates = []
        pendingInput = []
        pendingIndex = 0
        rl_callback_handler_install("", readlineLineHandler)
        if !initialText.isEmpty { rl_insert_text(initialText) }
    }

    @discardableResult
    public func feed(_ key: Key) -> LineEditorEvent {
        guard activeKind != nil else { return .editing }
        switch key {
        case .control("c"):
            cancel()
            return .cancelled
        case .escape where ocd_rl_is_vi_insert_mode() == 0 && modeIndicator == nil:
            cancel()  // Escape closes the prompt, except where readline needs it (vi insert mode, a search)
            return .cancelled
        default:
            break
        }
        if key != .tab { completionCandidates = [] }
        pendingInput.append(contentsOf: ReadlineKeyEncoding.bytes(for: key))
        while activeKind != nil, pendingIndex < pendingInput.count {
            rl_callback_read_char()
        }
        pendingInput = []
        pendingIndex = 0
        guard let event = finishedEvent else { return .editing }
        finishedEvent = nil
        return event
    }

    public func accept() -> String? {
        guard activeKind != nil else { return nil }
        if case .accepted(let line) = feed(.enter) { return line }
        // A mode swallowed Enter (vi command keys, a search): take the buffer as it stands.
        let line = text
        finish(with: .accepted(line))
        return line
    }

    public func cancel() {
        guard activeKind != nil else { return }
        rl_callback_sigcleanup()
        rl_free_line_state()
        finish(with: .cancelled)
    }

    /// Closes the prompt: called by `cancel` and by readline's line handler.
    func finish(with event: LineEditorEvent) {
        if case .accepted(let line) = event, let kind = activeKind { record(line, for: kind) }
        rl_callback_handler_remove()
        activeKind = nil
        finishedEvent = event
    }
}

/// Why a readline operation failed.
public enum ReadlineError: Error, Equatable {
    /// An inputrc file could not be read.
    case initFileUnreadable(path: String, errno: Int32)
}

@available(*, unavailable, message: "readline's state is process-global and single-threaded")
extension ReadlineLineEditor: Sendable {}
