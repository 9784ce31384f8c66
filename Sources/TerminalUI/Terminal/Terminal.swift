/// A terminal an application draws `Screen`s on and reads `Key`s from.
///
/// Two implementations exist: `CursesTerminal`, the real one on ncurses, and `VirtualTerminal`, an in-memory one
/// for tests. Terminals are not `Sendable`: a terminal belongs to the thread that created it (curses keeps global
/// state and is not thread-safe), and every call must come from that thread.
public protocol Terminal: AnyObject {
    /// The current size in cells. Can be zero in either dimension.
    var size: Size { get }

    /// Whether colours are shown. False on monochrome terminals and when `NO_COLOR` is set; styles then keep
    /// only their attributes.
    var showsColor: Bool { get }

    /// Shows `screen`, sending only what changed since the last call, and places the cursor at `screen.cursor`
    /// (hidden when nil).
    func draw(_ screen: Screen) throws

    /// Makes the next `draw` repaint every cell (Ctrl-L, and after anything else wrote to the terminal).
    func invalidate()

    /// The next input event, or nil if `timeout` passed first. With no timeout, waits until there is one.
    /// Throws `TerminalError.endOfInput` when no input can ever come.
    func readKey(timeout: Duration?) throws -> Key?

    /// Rings the terminal bell (or flashes).
    func bell()

    /// Gives the terminal back to the shell and stops the process (Ctrl-Z); returns after the shell resumes it,
    /// with the terminal set up again and the next `draw` repainting everything.
    func suspend() throws
}

/// Why a terminal operation failed.
public enum TerminalError: Error, Equatable, CustomStringConvertible {
    /// Standard input or output is not a terminal, or `TERM` names one the terminfo database does not know.
    case notATerminal(String)
    /// Another `CursesTerminal` is open: curses supports one screen per process here.
    case alreadyOpen
    /// The terminal was closed.
    case closed
    /// Input ended (the scripted keys of a `VirtualTerminal` ran out, or the terminal hung up).
    case endOfInput
    /// A curses call returned an error.
    case cursesFailure(String)

    public var description: String {
        switch self {
        case .notATerminal(let detail): "not a terminal: \(detail)"
        case .alreadyOpen: "a curses terminal is already open in this process"
        case .closed: "the terminal is closed"
        case .endOfInput: "terminal input ended"
        case .cursesFailure(let call): "curses call failed: \(call)"
        }
    }
}
