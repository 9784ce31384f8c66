import TerminalText
/// One terminal cell: a grapheme cluster and its style.
///
/// A wide cluster (CJK, emoji) occupies two cells: the first holds the cluster with `columns == 2`, the second is
/// a *continuation* cell that holds nothing of its own. `Screen` keeps the pair together: overwriting either half
/// blanks the other.
public struct Cell: Hashable, Sendable {
    /// The grapheme cluster shown; a space for blank and continuation cells.
    public let character: Character
    public var style: Style
    /// 1 or 2 for a cell that starts a cluster; 0 for the continuation of a wide cluster.
    public let columns: Int

    /// A cell holding `character`, whose width is measured by `DisplayWidth`. Zero-width clusters are stored as
    /// blanks: they have no column of their own to occupy.
    public init(_ character: Character, style: Style = .plain) {
        let width = DisplayWidth.of(character)
        self.character = width == 0 ? " " : character
        self.style = style
        self.columns = width == 0 ? 1 : width
    }

    private init(continuationWith style: Style) {
        self.character = " "
        self.style = style
        self.columns = 0
    }

    /// An empty cell in `style`.
    public static func blank(_ style: Style = .plain) -> Cell { Cell(" ", style: style) }

    /// The right half of a wide cluster drawn in `style`.
    public static func continuation(_ style: Style = .plain) -> Cell { Cell(continuationWith: style) }

    public static let blank = Cell(" ")

    public var isContinuation: Bool { columns == 0 }
    public var isWide: Bool { columns == 2 }
}
