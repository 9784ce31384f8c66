import TerminalText
import TerminalUI

/// One key binding: the keys, what they do, and the line the help overlay shows for them.
package struct KeyBinding: Hashable, Sendable {
    package var keys: [Key]
    package var command: BrowserCommand
    package var scopes: Set<KeyScope>
    package var summary: String

    package init(_ keys: [Key], _ command: BrowserCommand, _ summary: String, in scopes: Set<KeyScope> = [.everywhere]) {
        self.keys = keys
        self.command = command
        self.scopes = scopes
        self.summary = summary
    }
}

/// The browser's key bindings. The browser dispatches through it and the help overlay (`?`) lists it, so the two
/// cannot disagree.
public struct KeyMap: Sendable {
    package var bindings: [KeyBinding]

    package init(bindings: [KeyBinding]) {
        self.bindings = bindings
    }

    /// The command for `key` in `scope`: a binding of that scope wins over an everywhere binding.
    package func command(for key: Key, in scope: KeyScope) -> BrowserCommand? {
        if let scoped = bindings.first(where: { $0.scopes.contains(scope) && $0.keys.contains(key) }) {
            return scoped.command
        }
        return bindings.first { $0.scopes.contains(.everywhere) && $0.keys.contains(key) }?.command
    }

    /// The keys bound to `command`, as the help overlay writes them ("j ↓").
    package func keyNames(for command: BrowserCommand) -> String {
        bindings.filter { $0.command == command }.flatMap(\.keys).map(Self.name(of:)).joined(separator: " ")
    }

    /// The help overlay's lines: one section per scope, one line per binding.
    package func helpLines() -> [String] {
        var lines: [String] = []
        for scope in KeyScope.allCases {
            let scoped = bindings.filter { $0.scopes.contains(scope) }
            guard !scoped.isEmpty else { continue }
            if !lines.isEmpty { lines.append("") }
            lines.append(scope.rawValue)
            for binding in scoped {
                let keys = binding.keys.map(Self.name(of:)).joined(separator: " ")
                lines.append("  " + DisplayWidth.pad(keys, toWidth: max(DisplayWidth.of(keys), 22)) + " " + binding.summary)
            }
        }
        return lines
    }

    /// A readable name for a key: `j`, `Ctrl-F`, `PgDn`, `Enter`.
    package static func name(of key: Key) -> String {
        switch key {
        case .character(" "): "Space"
        case .character(let character): String(character)
        case .up: "↑"
        case .down: "↓"
        case .left: "←"
        case .right: "→"
        case .pageUp: "PgUp"
        case .pageDown: "PgDn"
        case .home: "Home"
        case .end: "End"
        case .insert: "Ins"
        case .delete: "Del"
        case .enter: "Enter"
        case .escape: "Esc"
        case .backspace: "Backspace"
        case .tab: "Tab"
        case .backTab: "Shift-Tab"
        case .function(let number): "F\(number)"
        case .control(let character): "Ctrl-" + character.uppercased()
        case .resize: "resize"
        case .mouse: "mouse"
        }
    }

    /// The default bindings: vi-style movement as in `less` and VisiData, plus the arrows and paging keys.
    public static let standard = KeyMap(bindings: [
        KeyBinding([.character("j"), .down], .moveDown, "next row"),
        KeyBinding([.character("k"), .up], .moveUp, "previous row"),
        KeyBinding([.control("f"), .pageDown, .character(" ")], .pageDown, "page down"),
        KeyBinding([.control("b"), .pageUp], .pageUp, "page up"),
        KeyBinding([.control("d")], .halfPageDown, "half a page down"),
        KeyBinding([.control("u")], .halfPageUp, "half a page up"),
        KeyBinding([.character("g"), .home], .first, "first row"),
        KeyBinding([.character("G"), .end], .last, "last row (jumps; loads only the last batch)"),
        KeyBinding([.character("h"), .left], .columnLeft, "previous column", in: [.table]),
        KeyBinding([.character("l"), .right], .columnRight, "next column", in: [.table]),
        KeyBinding([.character("c")], .jumpToColumn, "jump to a column by name, or add a key path as one (Tab completes)", in: [.table]),
        KeyBinding([.character("-")], .hideColumn, "hide this column (:columns sets them, :columns alone restores)", in: [.table]),
        KeyBinding([.tab, .backTab], .switchPane, "switch between the entity list and the table"),
        KeyBinding([.enter], .open, "open the entity", in: [.entities]),
        KeyBinding([.enter], .open, "open the object in the detail pane", in: [.table]),
        KeyBinding([.enter], .open, "follow the relationship (to-one: object; to-many: table)", in: [.detail]),
        KeyBinding([.backspace, .character("<")], .back, "back"),
        KeyBinding([.character(">")], .forward, "forward"),
        KeyBinding([.character("[")], .sortAscending, "sort by this column, ascending", in: [.table]),
        KeyBinding([.character("]")], .sortDescending, "sort by this column, descending", in: [.table]),
        KeyBinding([.character("{")], .addSortAscending, "add this column as a sort level, ascending", in: [.table]),
        KeyBinding([.character("}")], .addSortDescending, "add this column as a sort level, descending", in: [.table]),
        KeyBinding([.character("/")], .filter, "filter with a predicate (Tab completes, Ctrl-R searches history)"),
        KeyBinding([.character(":")], .command, "command (:help lists them)"),
        KeyBinding([.character("r")], .refresh, "re-fetch: new count, current batch, same object"),
        KeyBinding([.control("l")], .redraw, "redraw the screen"),
        KeyBinding([.character("F")], .frequency, "frequency of this column's values (Enter drills in)", in: [.table]),
        KeyBinding([.character("D")], .describe, "describe every attribute: count, nulls, distinct, min, max", in: [.table]),
        KeyBinding([.character("e")], .edit, "edit this field (needs --edit or :edit)", in: [.detail]),
        KeyBinding([.character("x")], .setNull, "set this field to nil", in: [.detail]),
        KeyBinding([.character("a"), .control("a")], .accept, "accept the edits into the browser's context", in: [.detail]),
        KeyBinding([.character("i")], .insertObject, "insert a new object", in: [.table]),
        KeyBinding([.character("d")], .deleteObject, "delete this object (shows the delete rules first)", in: [.table]),
        KeyBinding([.character("u")], .undo, "undo"),
        KeyBinding([.character("U"), .control("r")], .redo, "redo"),
        KeyBinding([.control("s")], .write, "write the changes to the store (shows them first)"),
        KeyBinding([.character("?"), .function(1)], .help, "this help"),
        KeyBinding([.escape], .cancel, "close, discard, cancel long work: sort, G, F, D (Ctrl-C too)"),
        KeyBinding([.control("z")], .suspend, "suspend to the shell"),
        KeyBinding([.character("q"), .control("c")], .quit, "quit (asks first when changes are unsaved)"),
    ])
}
