// A scrolling list on the real terminal: the program the tmux end-to-end tests drive.
//
//   terminal-demo             1,000 generated lines
//   terminal-demo --hostile   lines of hostile data (escape sequences, OSC 52, bidi overrides, NUL, invalid UTF-8)
//   terminal-demo --mouse     also report the mouse wheel
//
// Exit status: 0 after `q`, 1 when the terminal cannot be opened.

import TerminalText
import TerminalUI

#if canImport(Glibc)
import Glibc
#endif

/// Strings a store could hold that would retitle the window, clear the screen, write the clipboard or reorder
/// text if they reached the terminal raw.
let hostileLines: [String] = [
    "title \u{1B}]0;pwned-title\u{7} end",
    "clear \u{1B}[2J\u{1B}[H end",
    "clipboard \u{1B}]52;c;cHduZWQtY2xpcGJvYXJk\u{7} end",
    "bidi \u{202E}txt.exe\u{202C} end",
    "nul \u{0} end",
    TerminalSanitizer.sanitize(utf8: Array("invalid ".utf8) + [0xFF, 0xC3, 0x1B, 0x5D] + Array(" end".utf8)),
]

let arguments = Set(CommandLine.arguments.dropFirst())
do {
    let terminal = try CursesTerminal(options: CursesTerminal.Options(enablesMouse: arguments.contains("--mouse")))
    defer { terminal.close() }
    let theme: Theme = terminal.showsColor ? .colored : .monochrome
    var app = arguments.contains("--hostile")
        ? ScrollingListDemo(lineCount: hostileLines.count, theme: theme) { hostileLines[$0] }
        : ScrollingListDemo(theme: theme)
    try run(app: &app, terminal: terminal)
} catch {
    var standardError = FileOutput(descriptor: 2)
    print("terminal-demo: \(error)", to: &standardError)
    exit(1)
}

/// Standard error as a `TextOutputStream`, without Foundation.
struct FileOutput: TextOutputStream {
    let descriptor: Int32
    mutating func write(_ string: String) {
        var bytes = Array(string.utf8)
        _ = bytes.withUnsafeMutableBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
    }
}
