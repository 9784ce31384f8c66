#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Gives the terminal back to the shell on every exit path curses itself does not cover: fatal signals, Ctrl-Z,
/// and `exit` without `close`.
///
/// A signal handler may only make async-signal-safe calls, so everything it needs is prepared beforehand by
/// `arm`: the shell's and the program's terminal modes, and the terminfo byte strings that leave and re-enter the
/// full-screen mode (attributes off, cursor visible, keypad off, mouse reporting off, alternate screen off). A
/// handler then only calls `tcsetattr`, `write`, `signal` and `raise`.
///
/// - Fatal signals (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE, SIGABRT): restore,
///   then re-raise with the default action, so the exit status stays honest.
/// - SIGTSTP (Ctrl-Z): restore, then stop with SIGSTOP.
/// - SIGCONT: re-apply the program's modes, re-enter the full-screen mode, and raise `resumed`, on which
///   `CursesTerminal.readKey` makes the app repaint.
///
/// The state is process-wide, as the terminal is; `CursesTerminal` arms it once and disarms it on close.
enum TerminalRestoration {
    static let fatalSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE, SIGABRT]

    /// Set by the SIGCONT handler; cleared by whoever repaints.
    static let resumed = Atomic<Bool>(false)

    private struct State {
        var descriptor: Int32
        var shellModes: termios
        var programModes: termios
        var leaveBytes: UnsafeMutableBufferPointer<UInt8>
        var enterBytes: UnsafeMutableBufferPointer<UInt8>
    }

    /// Written only by `arm`/`disarm` on the terminal's thread while handlers cannot observe a half-built value
    /// (the pointer is published last and cleared first); read by handlers.
    nonisolated(unsafe) private static var state: UnsafeMutablePointer<State>?
    nonisolated(unsafe) private static var previousHandlers: [Int32: sighandler_t?] = [:]
    nonisolated(unsafe) private static var exitHookInstalled = false

    /// The terminal modes of `descriptor` now, before curses changes them.
    static func currentModes(of descriptor: Int32) -> termios? {
        var modes = termios()
        return tcgetattr(descriptor, &modes) == 0 ? modes : nil
    }

    /// Installs the handlers. Call before curses starts, so that ncurses sees them and installs none of its own
    /// for the same signals; until `arm`, they only pass signals on to the default action.
    static func installHandlers() {
        for signalNumber in fatalSignals {
            previousHandlers[signalNumber] = signal(signalNumber, fatalSignalHandler)
        }
        previousHandlers[SIGTSTP] = signal(SIGTSTP, suspendSignalHandler)
        previousHandlers[SIGCONT] = signal(SIGCONT, continueSignalHandler)
        if !exitHookInstalled {
            exitHookInstalled = true
            atexit { TerminalRestoration.leaveFullScreen() }
        }
    }

    /// Records what the handlers need to restore and re-enter the terminal.
    static func arm(descriptor: Int32, shellModes: termios, programModes: termios, leave: [UInt8], enter: [UInt8]) {
        let leaveBytes = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(1, leave.count))
        _ = leaveBytes.initialize(from: leave)
        let enterBytes = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(1, enter.count))
        _ = enterBytes.initialize(from: enter)
        let newState = UnsafeMutablePointer<State>.allocate(capacity: 1)
        newState.initialize(to: State(
            descriptor: descriptor, shellModes: shellModes, programModes: programModes,
            leaveBytes: UnsafeMutableBufferPointer(rebasing: leaveBytes[..<leave.count]),
            enterBytes: UnsafeMutableBufferPointer(rebasing: enterBytes[..<enter.count])))
        disarm()
        state = newState
    }

    /// Forgets the armed state (after `endwin` restored the terminal properly).
    static func disarm() {
        guard let old = state else { return }
        state = nil
        old.pointee.leaveBytes.baseAddress.map { $0.deallocate() }
        old.pointee.enterBytes.baseAddress.map { $0.deallocate() }
        old.deallocate()
    }

    /// Puts back the handlers that were there before `installHandlers`.
    static func uninstallHandlers() {
        for (signalNumber, handler) in previousHandlers {
            signal(signalNumber, handler)
        }
        previousHandlers = [:]
    }

    // MARK: Async-signal-safe actions

    /// The shell's modes and the leave sequence: the terminal as it was before curses.
    static func leaveFullScreen() {
        guard let state else { return }
        writeAll(state.pointee.leaveBytes, to: state.pointee.descriptor)
        _ = withUnsafePointer(to: &state.pointee.shellModes) { tcsetattr(state.pointee.descriptor, TCSADRAIN, $0) }
    }

    /// The program's modes and the enter sequence: back to full-screen after a stop.
    static func reenterFullScreen() {
        guard let state else { return }
        _ = withUnsafePointer(to: &state.pointee.programModes) { tcsetattr(state.pointee.descriptor, TCSADRAIN, $0) }
        writeAll(state.pointee.enterBytes, to: state.pointee.descriptor)
    }

    private static func writeAll(_ bytes: UnsafeMutableBufferPointer<UInt8>, to descriptor: Int32) {
        guard var next = bytes.baseAddress else { return }
        var remaining = bytes.count
        while remaining > 0 {
            let count = write(descriptor, next, remaining)
            if count <= 0 {
                if count < 0 && errno == EINTR { continue }
                return
            }
            next += count
            remaining -= count
        }
    }
}

// The handlers are global C-convention functions: they capture nothing and touch only the prepared state.

private func fatalSignalHandler(_ signalNumber: Int32) {
    TerminalRestoration.leaveFullScreen()
    signal(signalNumber, SIG_DFL)
    raise(signalNumber)
}

private func suspendSignalHandler(_ signalNumber: Int32) {
    let savedErrno = errno
    TerminalRestoration.leaveFullScreen()
    raise(SIGSTOP)  // execution continues here on SIGCONT, after continueSignalHandler ran
    errno = savedErrno
}

private func continueSignalHandler(_ signalNumber: Int32) {
    let savedErrno = errno
    TerminalRestoration.reenterFullScreen()
    TerminalRestoration.resumed.store(true, ordering: .sequentiallyConsistent)
    errno = savedErrno
}
