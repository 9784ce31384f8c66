#if canImport(Glibc)
import TerminalText
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CNCurses

/// A colour pair's identity: foreground and background palette entries.
struct ColorPairKey: Hashable {
    var foreground: Style.Color
    var background: Style.Color
}

extension CursesTerminal {
    public func draw(_ screen: Screen) throws {
        guard isOpen else { throw TerminalError.closed }
        let window = ocd_stdscr()
        if needsFullRepaint {
            clearok(ocd_curscr(), true)
        }
        let runs = screen.changes(since: needsFullRepaint ? nil : lastScreen)
        let limit = size
        for run in runs where run.origin.row < limit.rows {
            var column = run.origin.column
            for cell in run.cells {
                defer { column += 1 }
                guard !cell.isContinuation, column < limit.columns else { continue }
                write(cell, row: Int32(run.origin.row), column: Int32(column), window: window)
            }
        }
        if let cursor = screen.cursor, cursor.row < limit.rows, cursor.column < limit.columns {
            curs_set(1)
            wmove(window, Int32(cursor.row), Int32(cursor.column))
        } else {
            curs_set(0)
        }
        wnoutrefresh(window)
        doupdate()
        lastScreen = screen
        needsFullRepaint = false
    }

    /// Writes one cell. Curses decides how many columns a cluster takes from `wcwidth` of its first scalar, which
    /// can disagree with `DisplayWidth` (emoji sequences, flags, a text emoji with VS16); the cell is then written
    /// in a form whose width curses and the terminal agree on, so that the rest of the row stays aligned.
    private func write(_ cell: Cell, row: Int32, column: Int32, window: UnsafeMutablePointer<WINDOW>?) {
        let attributes = attributes(for: cell.style)
        let pair = colorPair(for: cell.style)
        for (offset, scalars) in cursesCells(for: cell).enumerated() {
            var characters = scalars.map { wchar_t(bitPattern: $0.value) } + [0]
            var complex = cchar_t()
            guard setcchar(&complex, &characters, attributes, pair, nil) == OK else { continue }
            mvwadd_wch(window, row, column + Int32(offset), &complex)
        }
    }

    /// The scalars to send for each column `cell` covers.
    private func cursesCells(for cell: Cell) -> [[Unicode.Scalar]] {
        let scalars = Array(cell.character.unicodeScalars)
        let first = scalars[0]
        let cursesWidth = Int(ocd_wcwidth(wchar_t(bitPattern: first.value)))
        if cursesWidth == cell.columns {
            // The base plus the combining scalars curses can attach (it holds up to CCHARW_MAX in total).
            let marks = scalars.dropFirst().filter { ocd_wcwidth(wchar_t(bitPattern: $0.value)) == 0 }
            return [[first] + marks.prefix(4)]
        }
        if cell.columns == 2, cursesWidth == 1 {
            if scalars.count >= 2, (0x1F1E6...0x1F1FF).contains(first.value) {
                return [[first], [scalars[1]]]  // a flag: two regional indicators the terminal joins
            }
            return [[first], [" "]]
        }
        return Array(repeating: ["?"], count: cell.columns)  // a locale that cannot show this cluster
    }

    private func attributes(for style: Style) -> attr_t {
        var result = ocd_attr_normal()
        if style.attributes.contains(.bold) { result |= ocd_attr_bold() }
        if style.attributes.contains(.reverse) { result |= ocd_attr_reverse() }
        if style.attributes.contains(.underline) { result |= ocd_attr_underline() }
        if style.attributes.contains(.dim) { result |= ocd_attr_dim() }
        return result
    }

    /// The pair for the style's colours, allocated on first use; 0 (the default pair) without colour or when
    /// the terminal's pairs run out.
    private func colorPair(for style: Style) -> Int16 {
        guard showsColor, style.foreground != .terminalDefault || style.background != .terminalDefault else { return 0 }
        let key = ColorPairKey(foreground: style.foreground, background: style.background)
        if let pair = colorPairs[key] { return pair }
        let next = colorPairs.count + 1
        guard next < min(Int(ocd_color_pairs()), Int(Int16.max)) else { return 0 }
        init_pair(Int16(next), cursesColor(style.foreground), cursesColor(style.background))
        colorPairs[key] = Int16(next)
        return Int16(next)
    }

    private func cursesColor(_ color: Style.Color) -> Int16 {
        switch color {
        case .terminalDefault: -1
        case .black: Int16(COLOR_BLACK)
        case .red: Int16(COLOR_RED)
        case .green: Int16(COLOR_GREEN)
        case .yellow: Int16(COLOR_YELLOW)
        case .blue: Int16(COLOR_BLUE)
        case .magenta: Int16(COLOR_MAGENTA)
        case .cyan: Int16(COLOR_CYAN)
        case .white: Int16(COLOR_WHITE)
        }
    }
}
