/// What an app wants after handling an event.
public enum TerminalAction: Hashable, Sendable {
    /// Draw the next frame (only changed cells reach the terminal).
    case redraw
    /// Draw the next frame repainting every cell (Ctrl-L).
    case repaintAll
    /// Ring the bell, then draw the next frame.
    case bell
    /// Suspend the process (Ctrl-Z), then repaint on resume.
    case suspend
    /// Leave the event loop.
    case quit
}

/// A full-screen app driven by `run(app:terminal:)`: it reacts to keys and draws itself from its state, so that
/// it can be tested on a `VirtualTerminal` without a tty.
public protocol TerminalApp {
    /// Called once before the first frame and again after every resize, with the new size (possibly 0x0).
    mutating func resize(to size: Size)

    /// Reacts to an input event. `Key.resize` arrives after `resize(to:)`.
    mutating func handle(_ key: Key) -> TerminalAction

    /// Draws the current state into a blank screen of the terminal's size.
    func render(into screen: inout Screen)

    /// How long to wait for a key before calling `tick()`; nil waits for keys only.
    var tickInterval: Duration? { get }

    /// Called when `tickInterval` passed without input: a chance to pick up background results.
    mutating func tick() -> TerminalAction
}

extension TerminalApp {
    public mutating func resize(to size: Size) {}
    public var tickInterval: Duration? { nil }
    public mutating func tick() -> TerminalAction { .redraw }
}

/// Runs `app` on `terminal` until the app quits or input ends: draws a frame, waits for a key (or the app's tick
/// interval), lets the app handle it, and draws again. Resizes re-query the size and re-render from scratch; any
/// size, down to 0x0, is handled.
public func run<App: TerminalApp>(app: inout App, terminal: some Terminal) throws {
    var size = terminal.size
    app.resize(to: size)
    try drawFrame(of: app, on: terminal)
    while true {
        let key: Key?
        do {
            key = try terminal.readKey(timeout: app.tickInterval)
        } catch TerminalError.endOfInput {
            return
        }
        let action: TerminalAction
        if let key {
            if key == .resize || terminal.size != size {
                size = terminal.size
                app.resize(to: size)
                terminal.invalidate()
            }
            action = app.handle(key)
        } else {
            action = app.tick()
        }
        switch action {
        case .quit:
            return
        case .suspend:
            try terminal.suspend()
            size = terminal.size
            app.resize(to: size)
        case .bell:
            terminal.bell()
        case .repaintAll:
            terminal.invalidate()
        case .redraw:
            break
        }
        try drawFrame(of: app, on: terminal)
    }
}

private func drawFrame(of app: some TerminalApp, on terminal: some Terminal) throws {
    var screen = Screen(size: terminal.size)
    app.render(into: &screen)
    try terminal.draw(screen)
}
