import StoreBrowser
import Testing
import TerminalUI

/// Steps the tests repeat, written as the keys a user would press.
extension BrowserHarness {
    /// Moves the detail pane's selection to the field `key` with j/k.
    func selectField(_ key: String) throws {
        let detail = try #require(app.detail, "no detail pane open")
        let target = try #require(detail.fields.firstIndex { $0.key == key }, "no field \(key)")
        try press(.character("g"))
        for _ in 0..<target { try press(.character("j")) }
        #expect(app.detail?.selectedField?.key == key)
    }

    /// Moves the table's current column to `key` with h/l.
    func selectColumn(_ key: String) throws {
        let target = try #require(app.table.columns.firstIndex { $0.key == key }, "no column \(key)")
        while app.table.currentColumn > target { try press(.character("h")) }
        while app.table.currentColumn < target { try press(.character("l")) }
    }

    /// `e` on the selected field, the old text cleared, `value` typed and accepted.
    func editSelectedField(to value: String) throws {
        try press(.character("e"))
        try press(.control("u"))
        try type(value)
        try press(.enter)
    }

    /// The rows of the table pane as drawn (the lines between the header and the bottom border).
    var tableLines: [String] {
        Array(screen.dropFirst(2).prefix { !$0.contains("└") && !$0.hasPrefix("┘") })
    }
}
