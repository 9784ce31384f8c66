// A scrolling list of 1,000 lines on the real terminal: the program the tmux end-to-end test drives.
// Exit status: 0 after `q`, 1 when the terminal cannot be opened.

import TerminalUI

#if canImport(Glibc)
import Glibc
#endif

do {
    let terminal = try CursesTerminal()
    var app = ScrollingListDemo(theme: terminal.showsColor ? .colored : .monochrome)
    defer { terminal.close() }
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
