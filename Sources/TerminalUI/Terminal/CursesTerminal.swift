#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CNCurses
import Synchronization

/// The real terminal, on ncurses with wide-character support. This file set is the only code that calls curses.
///
/// Opening it sets the locale from the environment, starts curses on standard input and output (cbreak, no echo,
/// keypad, no newline translation, a short Escape delay, colours when the terminal has them and `NO_COLOR` is
/// unset, optional mouse), and installs the signal handlers of `TerminalRestoration`. `close()` (or `deinit`)
/// ends curses and restores the terminal; fatal signals, Ctrl-Z and `exit` restore it too.
///
/// Threading: curses keeps global state and is not thread-safe. A `CursesTerminal` is not `Sendable`; create and
/// use it on one thread (the main thread of a terminal app). Only one can be open per process.
public final class CursesTerminal: Terminal {
    /// Options for opening the terminal.
    public struct Options: Sendable {
        /// Show colours when the terminal supports them. Set to false for `--color=never`; `NO_COLOR` in the
        /// environment also turns colour off.
        public var allowsColor: Bool
        /// Report mouse clicks and wheel scrolls as `Key.mouse`. Off by default: capturing the mouse takes text
        /// selection away from the terminal.
        public var enablesMouse: Bool
        /// How long to wait after Escape for the rest of an escape sequence.
        public var escapeDelay: Duration
        /// Deliver Ctrl-C, Ctrl-Z and Ctrl-\\ as keys instead of signals (curses' raw mode), for an app that gives
        /// them a meaning of its own (the browser's Ctrl-C cancels long work). Signals sent by other processes
        /// still restore the terminal as always.
        public var deliversControlKeys: Bool

        public init(allowsColor: Bool = true, enablesMouse: Bool = false, escapeDelay: Duration = .milliseconds(25),
                    deliversControlKeys: Bool = false) {
            self.allowsColor = allowsColor
            self.enablesMouse = enablesMouse
            self.escapeDelay = escapeDelay
            self.deliversControlKeys = deliversControlKeys
        }
    }

    /// True while a CursesTerminal is open in this process.
    private static let isOpenInProcess = Atomic<Bool>(false)

    public private(set) var showsColor = false
    let options: Options
    private var screenPointer: OpaquePointer?
    private var inputFile: UnsafeMutablePointer<FILE>?
    private var outputFile: UnsafeMutablePointer<FILE>?
    /// The frame on the terminal now, for diffing.
    var lastScreen: Screen?
    var needsFullRepaint = true
    /// Colour pairs allocated so far, by (foreground, background).
    var colorPairs: [ColorPairKey: Int16] = [:]
    var isOpen: Bool { screenPointer != nil }

    /// Starts curses on the process's terminal.
    /// - Throws: `TerminalError.notATerminal` when standard input or output is not a terminal or `TERM` is
    ///   unknown; `TerminalError.alreadyOpen` when another `CursesTerminal` is open.
    public init(options: Options = Options()) throws {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            throw TerminalError.notATerminal("standard input and output must both be terminals")
        }
        guard Self.isOpenInProcess.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else {
            throw TerminalError.alreadyOpen
        }
        self.options = options
        setlocale(LC_ALL, "")
        let shellModes = TerminalRestoration.currentModes(of: STDOUT_FILENO)
        TerminalRestoration.installHandlers()
        // Duplicates, so that closing our FILEs never closes the process's standard descriptors.
        inputFile = fdopen(dup(STDIN_FILENO), "r")
        outputFile = fdopen(dup(STDOUT_FILENO), "w")
        screenPointer = (inputFile != nil && outputFile != nil) ? newterm(nil, outputFile, inputFile) : nil
        guard screenPointer != nil else {
            let term = getenv("TERM").map { String(cString: $0) } ?? "(unset)"
            closeFiles()
            TerminalRestoration.uninstallHandlers()
            Self.isOpenInProcess.store(false, ordering: .releasing)
            throw TerminalError.notATerminal("curses cannot start on TERM=\(term)")
        }
        set_escdelay(Int32(clamping: options.escapeDelay.components.seconds * 1000
            + options.escapeDelay.components.attoseconds / 1_000_000_000_000_000))
        if options.deliversControlKeys { raw() } else { cbreak() }
        noecho()
        nonl()
        keypad(ocd_stdscr(), true)
        intrflush(ocd_stdscr(), false)
        Self.disableFlowControl()
        curs_set(0)
        showsColor = options.allowsColor && !Theme.colorIsDisabled(by: Self.environmentForColor()) && has_colors()
        if showsColor {
            start_color()
            use_default_colors()
        }
        if options.enablesMouse {
            mousemask(Self.reportedMouseEvents, nil)
            mouseinterval(0)
        }
        if let shellModes, let programModes = TerminalRestoration.currentModes(of: STDOUT_FILENO) {
            TerminalRestoration.arm(descriptor: STDOUT_FILENO, shellModes: shellModes, programModes: programModes,
                                    leave: Self.leaveSequence(mouse: options.enablesMouse),
                                    enter: Self.enterSequence(mouse: options.enablesMouse))
        }
    }

    deinit {
        close()
    }

    /// Turns off XON/XOFF flow control, so Ctrl-S and Ctrl-Q reach the app as keys (Ctrl-S writes in the browser)
    /// instead of freezing the output; curses records it as the program mode, so it survives suspend and resume.
    private static func disableFlowControl() {
        var modes = termios()
        guard tcgetattr(STDIN_FILENO, &modes) == 0 else { return }
        modes.c_iflag &= ~tcflag_t(IXON | IXOFF)
        guard tcsetattr(STDIN_FILENO, TCSANOW, &modes) == 0 else { return }
        def_prog_mode()
    }

    /// Ends curses and gives the terminal back as it was. Safe to call more than once.
    public func close() {
        guard isOpen else { return }
        if options.enablesMouse { mousemask(0, nil) }
        curs_set(1)
        endwin()
        TerminalRestoration.disarm()
        TerminalRestoration.uninstallHandlers()
        delscreen(screenPointer)
        screenPointer = nil
        closeFiles()
        Self.isOpenInProcess.store(false, ordering: .releasing)
    }

    public var size: Size {
        guard isOpen else { return .zero }
        return Size(columns: Int(getmaxx(ocd_stdscr())), rows: Int(getmaxy(ocd_stdscr())))
    }

    public func invalidate() { needsFullRepaint = true }

    public func bell() {
        guard isOpen else { return }
        beep()
    }

    public func suspend() throws {
        guard isOpen else { throw TerminalError.closed }
        def_prog_mode()
        endwin()
        raise(SIGSTOP)
        // Resumed: SIGCONT's handler has re-entered full-screen mode; put curses' own state back.
        reset_prog_mode()
        curs_set(1)
        needsFullRepaint = true
    }

    private func closeFiles() {
        if let inputFile { fclose(inputFile) }
        if let outputFile { fclose(outputFile) }
        inputFile = nil
        outputFile = nil
    }

    private static func environmentForColor() -> [String: String] {
        var environment: [String: String] = [:]
        for name in ["NO_COLOR", "TERM"] {
            if let value = getenv(name) { environment[name] = String(cString: value) }
        }
        return environment
    }
}

@available(*, unavailable, message: "curses is single-threaded: use a CursesTerminal on the thread that opened it")
extension CursesTerminal: Sendable {}
