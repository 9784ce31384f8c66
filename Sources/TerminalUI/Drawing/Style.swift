/// How a cell is drawn: colours from a small palette that every colour terminal has, plus attributes that even a
/// monochrome terminal shows.
public struct Style: Hashable, Sendable {
    /// The eight ANSI colours, and the terminal's own default.
    public enum Color: UInt8, CaseIterable, Hashable, Sendable {
        case terminalDefault, black, red, green, yellow, blue, magenta, cyan, white
    }

    /// Attributes that do not need colour.
    public struct Attributes: OptionSet, Hashable, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        public static let bold = Attributes(rawValue: 1 << 0)
        public static let reverse = Attributes(rawValue: 1 << 1)
        public static let underline = Attributes(rawValue: 1 << 2)
        public static let dim = Attributes(rawValue: 1 << 3)
    }

    public var foreground: Color
    public var background: Color
    public var attributes: Attributes

    public init(foreground: Color = .terminalDefault, background: Color = .terminalDefault,
                attributes: Attributes = []) {
        self.foreground = foreground
        self.background = background
        self.attributes = attributes
    }

    /// The terminal's default colours, no attributes.
    public static let plain = Style()
    public static let bold = Style(attributes: .bold)
    public static let reverse = Style(attributes: .reverse)
    public static let underline = Style(attributes: .underline)
    public static let dim = Style(attributes: .dim)

    /// This style with the colours dropped, for terminals without colour or users who set `NO_COLOR`.
    public var withoutColor: Style { Style(attributes: attributes) }

    /// This style with `extra` attributes added.
    public func adding(_ extra: Attributes) -> Style {
        var style = self
        style.attributes.formUnion(extra)
        return style
    }
}
