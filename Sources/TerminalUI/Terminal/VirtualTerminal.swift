/// An in-memory terminal for tests: a size you set, a script of input events, the last screen drawn, and a record
/// of everything that would have been written.
///
/// `written` is the concatenated text of every cell run sent by `draw`, in order, exactly as a real terminal
/// would have received the characters; tests assert that no escape or control character from data is ever in it.
public final class VirtualTerminal: Terminal {
    /// One scripted input event.
    public enum Input: Hashable, Sendable {
        case key(Key)
        /// `readKey` reports a timeout (returns nil), letting an app run its background updates.
        case timeout
        /// The terminal becomes this size, and `readKey` returns `Key.resize`.
        case resize(Size)
    }

    public private(set) var size: Size
    public let showsColor: Bool
    /// The last screen drawn, or nil before the first draw.
    public private(set) var lastScreen: Screen?
    /// Every run of cells `draw` sent, in order.
    public private(set) var runs: [CellRun] = []
    /// How many times `draw` was called.
    public private(set) var drawCount = 0
    /// How many times the bell rang.
    public private(set) var bellCount = 0
    /// How many times the app suspended.
    public private(set) var suspendCount = 0
    private var pendingInput: [Input] = []
    private var needsFullRepaint = true
    /// Called before each scripted event is read: a test harness waits here for an app's background work, so that
    /// scripted keys arrive as a patient user's would.
    public var willReadInput: (() -> Void)?

    public init(size: Size, showsColor: Bool = true) {
        self.size = size
        self.showsColor = showsColor
    }

    /// Appends keys to the input script.
    public func enqueue(_ keys: Key...) { pendingInput.append(contentsOf: keys.map(Input.key)) }

    /// Appends keys to the input script.
    public func enqueue(_ keys: [Key]) { pendingInput.append(contentsOf: keys.map(Input.key)) }

    /// Appends each character of `text` as a key (control characters become control keys).
    public func type(_ text: String) {
        for scalar in text.unicodeScalars {
            if let key = Key(scalar: scalar) { pendingInput.append(.key(key)) }
        }
    }

    /// Appends input events to the script.
    public func enqueue(inputs: [Input]) { pendingInput.append(contentsOf: inputs) }

    /// Schedules a resize to `newSize`, delivered in script order.
    public func resize(to newSize: Size) { pendingInput.append(.resize(newSize)) }

    /// The number of scripted events not yet read.
    public var pendingInputCount: Int { pendingInput.count }

    /// The last screen as plain text lines, trailing spaces trimmed: what a snapshot test compares.
    public func snapshot() -> [String] { lastScreen?.lines() ?? [] }

    /// All text ever written, run after run.
    public var written: String { runs.map(\.text).joined() }

    // MARK: Terminal

    public func draw(_ screen: Screen) throws {
        runs.append(contentsOf: screen.changes(since: needsFullRepaint ? nil : lastScreen))
        needsFullRepaint = false
        lastScreen = screen
        drawCount += 1
    }

    public func invalidate() { needsFullRepaint = true }

    public func readKey(timeout: Duration?) throws -> Key? {
        guard !pendingInput.isEmpty else { throw TerminalError.endOfInput }
        willReadInput?()
        switch pendingInput.removeFirst() {
        case .key(let key):
            return key
        case .timeout:
            return nil
        case .resize(let newSize):
            size = newSize
            needsFullRepaint = true
            return .resize
        }
    }

    public func bell() { bellCount += 1 }

    public func suspend() throws {
        suspendCount += 1
        needsFullRepaint = true
    }
}
