import Testing
@testable import TerminalUI

/// `run(app:terminal:)`: ticks for background work, resize notifications, and the actions apps return.
struct EventLoopTests {
    /// Counts background ticks and shows how many results "arrived".
    struct TickingApp: TerminalApp {
        var ticks = 0
        var sizes: [Size] = []
        var tickInterval: Duration? { .milliseconds(100) }

        mutating func resize(to size: Size) { sizes.append(size) }
        mutating func handle(_ key: Key) -> TerminalAction { key == .character("q") ? .quit : .redraw }
        mutating func tick() -> TerminalAction {
            ticks += 1
            return ticks == 2 ? .bell : .redraw
        }

        func render(into screen: inout Screen) {
            screen.drawBar("loaded \(ticks) batches", in: screen.bounds)
        }
    }

    @Test func timeoutsTickTheApp() throws {
        let terminal = VirtualTerminal(size: Size(columns: 20, rows: 1))
        terminal.enqueue(inputs: [.timeout, .timeout, .timeout])
        var app = TickingApp()
        try run(app: &app, terminal: terminal)
        #expect(app.ticks == 3)
        #expect(terminal.bellCount == 1)
        #expect(terminal.snapshot() == ["loaded 3 batches"])
        #expect(terminal.drawCount == 4)
    }

    @Test func resizesReachTheAppBeforeTheKey() throws {
        let terminal = VirtualTerminal(size: Size(columns: 20, rows: 1))
        terminal.resize(to: Size(columns: 4, rows: 2))
        terminal.enqueue(.character("q"), .character("x"))
        var app = TickingApp()
        try run(app: &app, terminal: terminal)
        #expect(app.sizes == [Size(columns: 20, rows: 1), Size(columns: 4, rows: 2)])
        #expect(terminal.snapshot() == ["loa…", ""])
        #expect(terminal.pendingInputCount == 1)
    }

    @Test func promptsIgnoreResizes() {
        let editor = BasicLineEditor()
        editor.begin(.filter, initialText: "abc")
        #expect(editor.feed(.resize) == .editing)
        #expect(editor.text == "abc" && editor.isActive)
    }
}

struct KeyAndThemeTests {
    @Test(arguments: [
        (UInt32(0x01), Key.control("a")), (0x1A, .control("z")), (0x09, .tab), (0x0D, .enter), (0x0A, .enter),
        (0x1B, .escape), (0x7F, .backspace), (0x08, .backspace), (0x00, .control("@")), (0x1F, .control("_")),
    ])
    func controlBytes(byte: UInt32, key: Key) {
        #expect(Key(controlByte: byte) == key)
    }

    @Test func scalarsBecomeCharactersExceptC1Controls() {
        #expect(Key(scalar: "é") == .character("é"))
        #expect(Key(scalar: "日") == .character("日"))
        #expect(Key(scalar: "\u{9B}") == nil)
        #expect(Key(controlByte: 0x41) == nil)
    }

    @Test func readlineReceivesTheBytesOfAnXterm() {
        #expect(ReadlineKeyEncoding.bytes(for: .up) == [0x1B, 0x5B, 0x41])
        #expect(ReadlineKeyEncoding.bytes(for: .delete) == Array("\u{1B}[3~".utf8))
        #expect(ReadlineKeyEncoding.bytes(for: .control("r")) == [0x12])
        #expect(ReadlineKeyEncoding.bytes(for: .character("é")) == [0xC3, 0xA9])
        #expect(ReadlineKeyEncoding.bytes(for: .resize).isEmpty)
    }

    @Test func noColorSelectsTheMonochromeTheme() {
        #expect(Theme.forEnvironment(["NO_COLOR": "1"]) == .monochrome)
        #expect(Theme.forEnvironment(["NO_COLOR": ""]) == .colored)  // no-color.org: an empty value does not count
        #expect(Theme.forEnvironment(["TERM": "dumb"]) == .monochrome)
        #expect(Theme.forEnvironment(["TERM": "xterm-256color"]) == .colored)
        let monochrome = Theme.monochrome
        for style in [monochrome.normal, monochrome.selection, monochrome.header, monochrome.statusBar,
                      monochrome.border, monochrome.muted, monochrome.error, monochrome.prompt, monochrome.pending] {
            #expect(style == style.withoutColor)
        }
        #expect(Theme.colored.selection.withoutColor == .plain)
    }
}
