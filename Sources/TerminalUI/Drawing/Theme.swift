/// The styles of the roles a terminal browser draws. `colored` uses the palette; `monochrome` uses only bold,
/// reverse, underline and dim, for `NO_COLOR` users and terminals without colour.
public struct Theme: Hashable, Sendable {
    public var normal: Style
    /// The highlighted row of a list or table.
    public var selection: Style
    /// Column headers and pane titles.
    public var header: Style
    /// The status line at the bottom.
    public var statusBar: Style
    /// Boxes and separators.
    public var border: Style
    /// Secondary text: counts, hints, placeholders.
    public var muted: Style
    /// Errors and warnings.
    public var error: Style
    /// The prompt label of the line editor.
    public var prompt: Style
    /// Values changed but not yet saved.
    public var pending: Style

    public init(normal: Style, selection: Style, header: Style, statusBar: Style, border: Style, muted: Style,
                error: Style, prompt: Style, pending: Style) {
        self.normal = normal
        self.selection = selection
        self.header = header
        self.statusBar = statusBar
        self.border = border
        self.muted = muted
        self.error = error
        self.prompt = prompt
        self.pending = pending
    }

    public static let colored = Theme(
        normal: .plain,
        selection: Style(foreground: .black, background: .cyan),
        header: Style(foreground: .yellow, attributes: .bold),
        statusBar: Style(foreground: .black, background: .white),
        border: Style(foreground: .blue),
        muted: Style(attributes: .dim),
        error: Style(foreground: .red, attributes: .bold),
        prompt: Style(foreground: .green, attributes: .bold),
        pending: Style(foreground: .yellow, attributes: .underline))

    public static let monochrome = Theme(
        normal: .plain,
        selection: .reverse,
        header: .bold,
        statusBar: .reverse,
        border: .plain,
        muted: .dim,
        error: Style(attributes: [.bold, .underline]),
        prompt: .bold,
        pending: .underline)

    /// The theme for this environment: monochrome when `NO_COLOR` is set to a non-empty value (no-color.org) or
    /// `TERM` is `dumb`, coloured otherwise.
    public static func forEnvironment(_ environment: [String: String]) -> Theme {
        colorIsDisabled(by: environment) ? .monochrome : .colored
    }

    /// True when the environment asks for no colour.
    public static func colorIsDisabled(by environment: [String: String]) -> Bool {
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return true }
        return environment["TERM"] == "dumb"
    }
}
