import Foundation
import Predicates

/// Sorting text with SQLite's own `BINARY` collation where it gives exactly the order of `compare:` (issue 21): the
/// built-in collation costs nothing per comparison, and it is the collation of Core Data's indexes, so a sort on an
/// indexed column walks the index instead of sorting the table.
///
/// The claim this rests on (property-tested in `BinaryTextOrderTests`): on texts of ASCII characters other than
/// NUL, `compare:` orders exactly as their bytes do (canonical equivalence, decomposition and combining marks only
/// concern non-ASCII scalars). A single text outside that class can sit anywhere in Foundation's order ("é" sorts
/// with the e's, its bytes after "z"), so the byte order is used only when every value of the column is in it.
extension FetchStatement {
    /// The sort terms on a column of the fetched table by `compare:` (`t0.ZNAME COLLATE ocd_compare`): the terms
    /// ``sortingBinary(terms:)`` may switch, by position in ``orderTerms``, with the column's name.
    package var compareSortedColumns: [(term: Int, column: String)] {
        let prefix = "t0.", suffix = " COLLATE " + PredicateSQLFunctions.collationName(for: .compare)
        return orderTerms.enumerated().compactMap { index, term in
            guard term.sql.hasPrefix(prefix), term.sql.hasSuffix(suffix) else { return nil }
            let column = term.sql.dropFirst(prefix.count).dropLast(suffix.count)
            guard !column.isEmpty, column.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) else {
                return nil
            }
            return (index, String(column))
        }
    }

    /// The same fetch with the terms at `terms` (from ``compareSortedColumns``) sorted by the bare column, whose
    /// collation is `BINARY` (``BinaryTextOrder/checkSQL(table:column:)`` makes sure the table declares no other);
    /// keyset windows compare the same way, so they continue in the same order. Bare, not `COLLATE BINARY`: SQLite
    /// then recognises the sort key as the selected column and does not carry the text twice through its sorter.
    package func sortingBinary(terms: Set<Int>) -> FetchStatement {
        var statement = self
        for (term, column) in compareSortedColumns where terms.contains(term) {
            statement.orderTerms[term].sql = "t0.\(column)"
        }
        return statement
    }
}

/// The test that decides whether a column's texts may be sorted by their bytes.
package enum BinaryTextOrder {
    /// `ocd_sorts_by_bytes(value)` (``SQLiteDatabase/Connection/createPlainASCIIFunction(name:)``): 1 when `value`
    /// is text of ASCII characters other than NUL, or not text at all (numbers and blobs compare by type first under
    /// any collation, so they never disagree); else 0.
    package static let functionName = "ocd_sorts_by_bytes"

    /// A query answering 1 when every value in `column` of `table` (as SQL, quoted if need be) may be sorted by its
    /// bytes and the table declares no collation (so its columns compare as `BINARY`), else 0. Core Data never
    /// declares one; a table that does is left to the `compare:` collation. The column is read only when the table
    /// passes.
    package static func checkSQL(table: String, column: String) -> String {
        "SELECT CASE WHEN EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = "
            + "\(literal(unquoted(table))) AND sql LIKE '%COLLATE%') THEN 0 "
            + "ELSE NOT EXISTS (SELECT 1 FROM \(table) WHERE \(mayDisagree(column))) END"
    }

    /// A name as written in SQL (`"Z Word"` or `ZWORD`) without its quotes.
    private static func unquoted(_ name: String) -> String {
        guard name.hasPrefix("\""), name.hasSuffix("\""), name.count >= 2 else { return name }
        return String(name.dropFirst().dropLast()).replacingOccurrences(of: "\"\"", with: "\"")
    }

    /// `text` as an SQL string literal.
    private static func literal(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }

    /// SQL true for a value on which `BINARY` and `compare:` might order differently.
    package static func mayDisagree(_ column: String) -> String { "NOT \(functionName)(\(column))" }
}
