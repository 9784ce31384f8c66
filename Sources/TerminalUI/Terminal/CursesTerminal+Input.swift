#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CNCurses
import Synchronization

extension CursesTerminal {
    /// The longest curses waits in one call. Reads are sliced so that a resume after Ctrl-Z (which the signal
    /// handler can only flag) is noticed and repainted even when the interrupted read is restarted.
    private static let pollSlice: Duration = .milliseconds(200)

    public func readKey(timeout: Duration?) throws -> Key? {
        guard isOpen else { throw TerminalError.closed }
        let clock = ContinuousClock()
        let deadline = timeout.map { clock.now + $0 }
        var failuresWithoutWaiting = 0
        while true {
            if TerminalRestoration.resumed.exchange(false, ordering: .sequentiallyConsistent) {
                resumeAfterStop()
                return .resize
            }
            var slice = Self.pollSlice
            if let deadline {
                let remaining = deadline - clock.now
                if remaining <= .zero { return nil }
                slice = min(slice, remaining)
            }
            let sliceStart = clock.now
            wtimeout(ocd_stdscr(), Int32(max(1, slice.components.seconds * 1000
                + slice.components.attoseconds / 1_000_000_000_000_000)))
            var character: wint_t = 0
            errno = 0
            let status = wget_wch(ocd_stdscr(), &character)
            switch status {
            case OK:
                if let key = Key(scalar: Unicode.Scalar(UInt32(character)) ?? "\u{FFFD}") { return key }
            case KEY_CODE_YES:
                if let key = decodeKeyCode(Int32(character)) { return key }
            default:
                // A timeout waits the slice out; an error that returns at once, repeatedly, is a closed input.
                if errno != EINTR && clock.now - sliceStart < slice / 2 {
                    failuresWithoutWaiting += 1
                    if failuresWithoutWaiting >= 3 { throw TerminalError.endOfInput }
                } else {
                    failuresWithoutWaiting = 0
                }
            }
        }
    }

    private func resumeAfterStop() {
        reset_prog_mode()
        curs_set(1)  // curses caches cursor visibility; the shell left it visible
        needsFullRepaint = true
    }

    /// The key for a curses function-key code, or nil for codes the app has no use for.
    private func decodeKeyCode(_ code: Int32) -> Key? {
        switch code {
        case KEY_UP: return .up
        case KEY_DOWN: return .down
        case KEY_LEFT: return .left
        case KEY_RIGHT: return .right
        case KEY_PPAGE: return .pageUp
        case KEY_NPAGE: return .pageDown
        case KEY_HOME, KEY_A1: return .home
        case KEY_END, KEY_C1: return .end
        case KEY_IC: return .insert
        case KEY_DC: return .delete
        case KEY_BACKSPACE: return .backspace
        case KEY_ENTER: return .enter
        case KEY_BTAB: return .backTab
        case KEY_RESIZE: return .resize
        case KEY_MOUSE: return readMouseEvent()
        case ocd_key_f(1)...ocd_key_f(63): return .function(Int(code - ocd_key_f(0)))
        default: return nil
        }
    }

    private func readMouseEvent() -> Key? {
        var event = MEVENT()
        guard getmouse(&event) == OK else { return nil }
        let position = Point(column: Int(event.x), row: Int(event.y))
        let state = event.bstate
        let kind: MouseEvent.Kind
        if state & ocd_mouse_wheel_up() != 0 {
            kind = .wheelUp
        } else if ocd_mouse_wheel_down() != 0, state & ocd_mouse_wheel_down() != 0 {
            kind = .wheelDown
        } else if state & ocd_mouse_button1_double_clicked() != 0 {
            kind = .doubleClick
        } else if state & ocd_mouse_button1_clicked() != 0 {
            kind = .click
        } else if state & ocd_mouse_button1_pressed() != 0 {
            kind = .press
        } else if state & ocd_mouse_button1_released() != 0 {
            kind = .release
        } else if state & (ocd_mouse_button3_pressed() | ocd_mouse_button3_clicked()) != 0 {
            kind = .rightClick
        } else {
            return nil
        }
        return .mouse(MouseEvent(kind, at: position))
    }
}
