#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CNCurses

extension CursesTerminal {
    /// Mouse reporting sequences (xterm's normal and SGR modes), which terminfo does not always describe.
    private static let mouseReportingOff: [UInt8] = Array("\u{1B}[?1006l\u{1B}[?1002l\u{1B}[?1000l".utf8)
    private static let mouseReportingOn: [UInt8] = Array("\u{1B}[?1000h\u{1B}[?1006h".utf8)

    /// What leaves full-screen mode, from the terminal's terminfo entry: attributes off, cursor visible, keypad
    /// off, alternate screen off (and mouse reporting off).
    static func leaveSequence(mouse: Bool) -> [UInt8] {
        var bytes = (mouse ? mouseReportingOff : [])
        for capability in ["sgr0", "cnorm", "rmkx", "rmcup"] {
            bytes += terminfoBytes(capability)
        }
        return bytes
    }

    /// What re-enters full-screen mode after a stop: alternate screen, keypad, and mouse reporting. Curses
    /// repaints the rest.
    static func enterSequence(mouse: Bool) -> [UInt8] {
        var bytes = terminfoBytes("smcup") + terminfoBytes("smkx")
        if mouse { bytes += mouseReportingOn }
        return bytes
    }

    private static func terminfoBytes(_ capability: String) -> [UInt8] {
        guard let value = ocd_terminfo_string(capability) else { return [] }
        return Array(UnsafeBufferPointer(start: UnsafeRawPointer(value).assumingMemoryBound(to: UInt8.self),
                                         count: strlen(value)))
    }

    static var reportedMouseEvents: mmask_t {
        ocd_mouse_button1_pressed() | ocd_mouse_button1_released() | ocd_mouse_button1_clicked()
            | ocd_mouse_button1_double_clicked() | ocd_mouse_button3_pressed() | ocd_mouse_button3_clicked()
            | ocd_mouse_wheel_up() | ocd_mouse_wheel_down()
    }
}
