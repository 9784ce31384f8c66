import CoreDataSQLiteFormat
import Foundation
import Predicates
import SQLiteDatabase
import Testing

/// The per-operator SQL functions (`ocd_contains(text, constant, options)` …) select exactly what the evaluator
/// accepts, row by row over one statement (so the constant prepared for the first row serves the others), for
/// ASCII and non-ASCII text, NUL, CR LF, empty strings, NULL and values of other storage classes.
@Suite("Query: prepared comparison functions agree with the evaluator")
struct PreparedFunctionTests {
    static let texts: [SQLiteValue] = [
        "", "a", "A", "abc", "ABC", "aBc", "xabcx", "XABCX", "Coin", "join", "JOIN", "oink", "ta", "tan", "TAN",
        "tartan", "tA\r\nN", "a\r\nb", "a\nb", "nul\u{0}byte", "[", "_", "`", "Z", "z", "a*b", "a?b", "a\\b", "SS",
        "ss", "straße", "STRASSE", "İstanbul", "istanbul", "ISTANBUL", "ıi", "café", "cafe\u{301}", "CAFE", "naïve",
        "ﬁle", "file", "\u{212A}elvin", "kelvin", "😀 smile", "Zoë", "zoe", "résumé", "RESUME", .null, .integer(42),
        .real(2.5), .blob([0x61, 0x62]), .blob([]),
    ]
    static let constants = [
        "", "a", "A", "abc", "ABC", "b", "OIN", "ta", "ta.*n", "T?N", "*S*", "a\\*b", "\r\n", "\n", "ss", "SS", "ß",
        "i", "I", "İ", "e", "E", "é", "\u{301}", "fi", "ﬁ", "K", "\u{212A}", "😀", "42", "z", "_", "\u{0}",
    ]
    static let operators = ComparisonOperator.allCases.filter { PredicateSQLFunctions.functionName(for: $0) != nil }

    final class Table: @unchecked Sendable {
        // Unchecked: queried under the lock (tests run in parallel).
        let lock = NSLock()
        let connection: Connection
        init() throws {
            connection = try Connection.inMemory()
            try PredicateSQLFunctions.register(on: connection)
            try connection.execute(sql: "CREATE TABLE texts(id INTEGER PRIMARY KEY, t)")
            for (index, text) in PreparedFunctionTests.texts.enumerated() {
                try connection.execute(
                    sql: "INSERT INTO texts(id, t) VALUES (?, ?)", arguments: [.integer(Int64(index)), text])
            }
        }
        func ids(_ sql: String, _ arguments: [SQLiteValue]) throws -> Set<Int> {
            try lock.withLock { Set(try connection.query(sql, arguments: arguments).compactMap { $0[0].int64Value.map(Int.init) }) }
        }
    }
    static let table: Table = try! Table()

    static func evaluatorValue(_ value: SQLiteValue) -> ConstantValue {
        switch value {
        case .null: .null
        case .integer(let integer): .integer(integer)
        case .real(let real): .double(real)
        case .text(let text): .string(text)
        case .blob(let bytes): .data(Data(bytes))
        }
    }

    /// Runs `ocd_<operator>(t, constant, options)` over every row and compares with the evaluator.
    static func checkEveryRow(
        _ operatorType: ComparisonOperator, _ constant: SQLiteValue, _ options: ComparisonOptions,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let name = try #require(PredicateSQLFunctions.functionName(for: operatorType))
        let selected = try table.ids("SELECT id FROM texts WHERE \(name)(t, ?, \(options.rawValue))", [constant])
        var expected = Set<Int>()
        for (index, text) in texts.enumerated()
        where try PredicateEvaluator.compare(evaluatorValue(text), operatorType, evaluatorValue(constant), options: options) {
            expected.insert(index)
        }
        #expect(
            selected == expected,
            "\(name)(t, \(constant), \(options.rawValue)): SQL only \(selected.subtracting(expected).sorted()), evaluator only \(expected.subtracting(selected).sorted())",
            sourceLocation: sourceLocation)
    }

    @Test(arguments: operators)
    func everyRowAgrees(_ operatorType: ComparisonOperator) throws {
        for options in (0..<8).map({ ComparisonOptions(rawValue: UInt($0)) }) {
            for constant in Self.constants {
                if operatorType == .matches && (try? PreparedStringComparison(.matches, constant, options: options)) == nil {
                    continue
                }
                try Self.checkEveryRow(operatorType, .text(constant), options)
            }
        }
    }

    @Test(arguments: [SQLiteValue.null, .integer(42), .real(2.5), .blob([0x61, 0x62])])
    func aConstantOfAnotherStorageClassFollowsTheEvaluator(_ constant: SQLiteValue) throws {
        for operatorType in Self.operators {
            try Self.checkEveryRow(operatorType, constant, [])
            try Self.checkEveryRow(operatorType, constant, [.caseInsensitive, .diacriticInsensitive])
        }
    }

    @Test func anInvalidExpressionFailsTheStatement() throws {
        #expect(throws: SQLiteError.self) {
            try Self.table.ids("SELECT id FROM texts WHERE ocd_matches(t, ?, 0)", [.text("(unclosed")])
        }
    }
}
