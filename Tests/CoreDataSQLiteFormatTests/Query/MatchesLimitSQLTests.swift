import CoreDataSQLiteFormat
import Predicates
import SQLiteDatabase
import Testing

/// MATCHES in SQL: a row whose match exceeds the regular-expression time limit fails the statement with an
/// error naming the pattern, rather than leaving the row out.
@Suite("Query: MATCHES limits in SQL")
struct MatchesLimitSQLTests {
    @Test("The SQL function reports a stopped match through sqlite3_result_error")
    func statementFails() throws {
        let connection = try Connection.inMemory()
        try PredicateSQLFunctions.register(on: connection)
        try connection.execute(sql: "CREATE TABLE texts(id INTEGER PRIMARY KEY, t TEXT)")
        try connection.execute(sql: "INSERT INTO texts(t) VALUES ('aab'), (?)",
                               arguments: [.text(String(repeating: "a", count: 40) + "b")])
        let name = try #require(PredicateSQLFunctions.functionName(for: .matches))
        // A lower step limit and a generous time limit, for this task only: the step limit is what stops the match,
        // however loaded the machine.
        let error = #expect(throws: SQLiteError.self) {
            try RegularExpressionLimits.withLimits(stepLimit: 1_000_000, timeLimit: .seconds(60)) {
                _ = try connection.query("SELECT id FROM texts WHERE \(name)(t, ?, 0)", arguments: [.text("((a|aa)+c|a+b)")])
            }
        }
        #expect(error?.message.contains(#""((a|aa)+c|a+b)""#) == true)
        #expect(error?.message.contains("the limit of 1000000 backtracking steps") == true)
        // The light row alone still matches.
        let rows = try connection.query("SELECT id FROM texts WHERE id = 1 AND \(name)(t, ?, 0)", arguments: [.text("((a|aa)+c|a+b)")])
        #expect(rows.count == 1)
    }
}
