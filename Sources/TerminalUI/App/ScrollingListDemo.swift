/// A worked example of `TerminalApp`: a scrolling list of generated lines with a status bar. `terminal-demo` runs
/// it on the real terminal and the tests drive it through `VirtualTerminal` and tmux.
///
/// Keys: those of `ScrollingList`, Ctrl-L to repaint, Ctrl-Z to suspend, `q` to quit.
public struct ScrollingListDemo: TerminalApp {
    public private(set) var list: ScrollingList
    public let theme: Theme
    private let lineText: (Int) -> String
    private var size = Size.zero

    /// - Parameters:
    ///   - lineCount: the number of lines.
    ///   - theme: the styles of the selection and status bar.
    ///   - line: the text of line `index`; `ScrollingListDemo.line` by default. It is drawn like any data: sanitised.
    public init(lineCount: Int = 1000, theme: Theme = .monochrome, line: @escaping (Int) -> String = Self.line) {
        list = ScrollingList(count: lineCount)
        self.theme = theme
        self.lineText = line
    }

    /// The text of line `index` (zero-based); the tests generate the same.
    public static func line(_ index: Int) -> String { "Line \(index + 1): the quick brown fox 日本語 café" }

    public mutating func resize(to size: Size) {
        self.size = size
        list.visibleRows = max(0, size.rows - 1)
    }

    public mutating func handle(_ key: Key) -> TerminalAction {
        switch key {
        case .character("q"): return .quit
        case .control("l"): return .repaintAll
        case .control("z"): return .suspend
        case .resize: return .redraw
        default: return list.handle(key) ? .redraw : .bell
        }
    }

    public func render(into screen: inout Screen) {
        let (body, status) = screen.bounds.splitBottom(1)
        list.render(into: &screen, in: body, theme: theme, line: lineText)
        let position = list.count == 0 ? "empty" : "row \(list.selection + 1) of \(list.count)"
        screen.drawBar("\(position)  j/k PgDn g/G q", in: status, style: theme.statusBar)
    }
}
