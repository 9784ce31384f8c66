import SQLiteDatabase

/// A piece of SQL and the values bound to its `?` placeholders, in placeholder order.
///
/// The compiler assembles statements only from fragments, so a constant can reach SQLite only as a binding:
/// the text of a fragment comes from the store layout and from this module's own literals, never from a
/// predicate.
struct SQLFragment: Sendable, Hashable {
    var sql: String
    var bindings: [SQLiteValue]

    init(_ sql: String, _ bindings: [SQLiteValue] = []) {
        self.sql = sql
        self.bindings = bindings
    }

    /// A single placeholder bound to `value`.
    static func binding(_ value: SQLiteValue) -> SQLFragment { SQLFragment("?", [value]) }

    static let alwaysTrue = SQLFragment("1")
    static let alwaysFalse = SQLFragment("0")

    static func + (lhs: SQLFragment, rhs: SQLFragment) -> SQLFragment {
        SQLFragment(lhs.sql + rhs.sql, lhs.bindings + rhs.bindings)
    }

    static func + (lhs: SQLFragment, rhs: String) -> SQLFragment {
        SQLFragment(lhs.sql + rhs, lhs.bindings)
    }

    static func + (lhs: String, rhs: SQLFragment) -> SQLFragment {
        SQLFragment(lhs + rhs.sql, rhs.bindings)
    }

    /// The fragments separated by `separator`, in order.
    static func joined(_ fragments: [SQLFragment], separator: String) -> SQLFragment {
        var result = SQLFragment("")
        for (index, fragment) in fragments.enumerated() {
            if index > 0 { result.sql += separator }
            result.sql += fragment.sql
            result.bindings += fragment.bindings
        }
        return result
    }

    /// A table or column name from the store layout, written bare when it is a plain identifier (as Core Data's
    /// names are) and quoted otherwise, so that a hostile model cannot inject SQL through a property name.
    static func identifier(_ name: String) -> String {
        let isPlain = name.first.map { $0.isASCII && ($0.isLetter || $0 == "_") } ?? false
            && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
        return isPlain ? name : Connection.quoteIdentifier(name)
    }

    /// The fragment in parentheses.
    var parenthesized: SQLFragment { "(" + self + ")" }
}
