/// The kind of an open prompt. Each kind keeps its own history, so filters never show up when recalling
/// commands.
public struct PromptKind: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `/`: a predicate that filters the table.
    public static let filter = PromptKind(rawValue: "filter")
    /// `:`: a command.
    public static let command = PromptKind(rawValue: "command")
    /// A text search.
    public static let search = PromptKind(rawValue: "search")
}

/// What feeding a key to a line editor led to.
public enum LineEditorEvent: Hashable, Sendable {
    /// The prompt is still open; redraw it.
    case editing
    /// The user accepted this line; the prompt is closed and the line is in the kind's history.
    case accepted(String)
    /// The user cancelled; the prompt is closed.
    case cancelled
}

/// Completions for the word before the cursor: called with the line up to the cursor (the word included) and that
/// word, returns whole replacement words (for example every key path starting with the word). A single candidate
/// gets a space after it, unless it ends in `.` (a key path that goes on, such as `chef.`).
public typealias LineCompleter = (_ line: String, _ word: String) -> [String]

/// A single-line editor for prompts inside a full-screen app: the app feeds it keys and draws its state with
/// `LinePromptView`; the editor never writes to the terminal.
///
/// Two implementations: `ReadlineLineEditor` on GNU readline's callback interface (the user's inputrc, emacs or
/// vi mode), and `BasicLineEditor` in pure Swift. GNU readline is GPL-3: it is reachable only through this
/// protocol, so a build can swap in `BasicLineEditor` (or a libedit one) without touching callers.
///
/// Editors are not `Sendable`; readline's state is process-global, so use editors on one thread.
public protocol LineEditor: AnyObject {
    /// Opens a prompt of `kind` holding `initialText`, with the cursor at its end. Opening a prompt while another
    /// is open cancels the other.
    func begin(_ kind: PromptKind, initialText: String)

    /// Feeds one key to the open prompt. Resizes and keys fed to a closed editor return `.editing` and do nothing.
    @discardableResult
    func feed(_ key: Key) -> LineEditorEvent

    /// The kind of the open prompt, or nil when none is open.
    var activeKind: PromptKind? { get }

    /// The text being edited (during a history search: the line found).
    var text: String { get }

    /// The cursor, as a count of grapheme clusters from the start of `text`.
    var cursor: Int { get }

    /// Replaces the prompt label while a mode is on, such as "(reverse-i-search)`abc': "; nil otherwise.
    var modeIndicator: String? { get }

    /// The candidates of the last completion that matched more than one word, for the app to list; empty
    /// otherwise.
    var completionCandidates: [String] { get }

    /// Supplies completions for Tab.
    var completer: LineCompleter? { get set }

    /// Accepts the current line as if Enter were pressed and returns it, or nil when no prompt is open.
    func accept() -> String?

    /// Closes the prompt without accepting.
    func cancel()

    /// The history of `kind`, oldest first.
    func history(for kind: PromptKind) -> [String]
}

extension LineEditor {
    public var isActive: Bool { activeKind != nil }
}

/// The word completion replaces: the characters before the cursor back to the last word break, using the same
/// break characters as readline's default, so both editors complete the same word.
enum CompletionWord {
    static let breakCharacters: Set<Character> = [" ", "\t", "\n", "\"", "\\", "'", "`", "@", "$", ">", "<", "=", ";",
                                                  "|", "&", "{", "("]

    /// The start of the word ending at `cursor` in `characters`.
    static func start(in characters: [Character], cursor: Int) -> Int {
        var start = cursor
        while start > 0, !breakCharacters.contains(characters[start - 1]) {
            start -= 1
        }
        return start
    }

    /// Whether a completed word goes on without a space: a key path ending in `.` (issue 21).
    static func continues(_ candidate: String) -> Bool { candidate.hasSuffix(".") }

    /// The longest prefix every candidate shares.
    static func commonPrefix(_ candidates: [String]) -> String {
        guard var prefix = candidates.first.map(Array.init) else { return "" }
        for candidate in candidates.dropFirst() {
            let characters = Array(candidate)
            var length = 0
            while length < min(prefix.count, characters.count), prefix[length] == characters[length] {
                length += 1
            }
            prefix.removeSubrange(length...)
        }
        return String(prefix)
    }
}
