import Foundation
import SQLiteDatabase
import Testing

@Suite("Binding parameters and reading columns")
struct BindingAndColumnTests {
    @Test func integersKeepTheirFullRange() throws {
        let connection = try Connection.inMemory()
        let statement = try connection.prepare("SELECT ?, ?, ?, ?, ?")
        try statement.bind(Int64.min, at: 1)
        try statement.bind(Int64.max, at: 2)
        try statement.bind(-1 as Int, at: 3)
        try statement.bind(true, at: 4)
        try statement.bind(.integer(42), at: 5)
        #expect(try statement.step())
        #expect(statement.int64(at: 0) == Int64.min)
        #expect(statement.int64(at: 1) == Int64.max)
        #expect(statement.int(at: 2) == -1)
        #expect(statement.int64(at: 3) == 1)
        #expect(statement.value(at: 4) == .integer(42))
        #expect(statement.columnType(at: 0) == .integer)
        #expect(statement.value(at: 0) == .integer(.min))
        #expect(try statement.step() == false)
    }

    @Test func realsRoundTrip() throws {
        let connection = try Connection.inMemory()
        let statement = try connection.prepare("SELECT ?, ?, ?, ?")
        try statement.bind(Double.pi, at: 1)
        try statement.bind(-0.0, at: 2)
        try statement.bind(Double.greatestFiniteMagnitude, at: 3)
        try statement.bind(Double.leastNonzeroMagnitude, at: 4)
        #expect(try statement.step())
        #expect(statement.double(at: 0) == Double.pi)
        #expect(statement.double(at: 1) == 0)
        #expect(statement.double(at: 2) == Double.greatestFiniteMagnitude)
        #expect(statement.double(at: 3) == Double.leastNonzeroMagnitude)
        #expect(statement.columnType(at: 0) == .real)
        #expect(statement.value(at: 0) == .real(.pi))
    }

    @Test(arguments: ["", "plain", "héllo wörld", "日本語のテキスト", "👩‍👩‍👧 family", "a\u{0}b\u{0}", "\u{0}", "it's \"quoted\""])
    func textRoundTripsThroughATable(text: String) throws {
        let connection = try Connection.inMemory()
        try connection.execute(sql: "CREATE TABLE t(value TEXT)")
        let insert = try connection.prepare("INSERT INTO t(value) VALUES (?)")
        try insert.bind(text, at: 1)
        try insert.run()
        let select = try connection.prepare("SELECT value, typeof(value), value IS NULL FROM t")
        #expect(try select.step())
        #expect(select.string(at: 0) == text)
        #expect(select.blob(at: 0) == Array(text.utf8))
        #expect(select.string(at: 1) == "text")
        #expect(select.int64(at: 2) == 0, "an empty string must not become NULL")
        #expect(select.value(at: 0) == .text(text))
    }

    @Test func blobsKeepEmbeddedZerosAndEmptiness() throws {
        let connection = try Connection.inMemory()
        let statement = try connection.prepare("SELECT ?, length(?2), ?3, ?3 IS NULL, typeof(?3), ?4")
        let bytes: [UInt8] = [0, 1, 2, 0, 255, 0]
        try statement.bind(bytes, at: 1)
        try statement.bind(Data(bytes), at: 2)
        try statement.bind([UInt8](), at: 3)
        try statement.bind(Data(), at: 4)
        #expect(try statement.step())
        #expect(statement.blob(at: 0) == bytes)
        #expect(statement.int64(at: 1) == 6)
        #expect(statement.blob(at: 2) == [])
        #expect(statement.int64(at: 3) == 0, "an empty blob must not become NULL")
        #expect(statement.string(at: 4) == "blob")
        #expect(statement.value(at: 5) == .blob([]))
        #expect(statement.columnType(at: 0) == .blob)
        let firstBytes = statement.withUnsafeBlob(at: 0) { buffer in buffer.map { Array($0) } }
        #expect(firstBytes == bytes)
    }

    @Test func emptyValuesAreNotNull() throws {
        let connection = try Connection.inMemory()
        let statement = try connection.prepare("SELECT X'', '', NULL")
        #expect(try statement.step())
        #expect(statement.string(at: 0) == "")
        #expect(statement.blob(at: 1) == [])
        #expect(statement.string(at: 2) == nil)
        #expect(statement.blob(at: 2) == nil)
    }

    @Test func nullsReadAsNilOrZero() throws {
        let connection = try Connection.inMemory()
        let statement = try connection.prepare("SELECT ?, ?")
        try statement.bindNull(at: 1)
        try statement.bind(SQLiteValue.null, at: 2)
        #expect(try statement.step())
        #expect(statement.isNull(at: 0))
        #expect(statement.columnType(at: 1) == .null)
        #expect(statement.string(at: 0) == nil)
        #expect(statement.blob(at: 0) == nil)
        #expect(statement.int64(at: 0) == 0)
        #expect(statement.value(at: 1) == .null)
        #expect(statement.withUnsafeBlob(at: 0) { $0 == nil })
    }

    @Test func everySQLiteValueRoundTrips() throws {
        let connection = try Connection.inMemory()
        let values: [SQLiteValue] = [.null, .integer(-7), .real(2.5), .text("ünïcødé\u{0}"), .blob([0, 9, 0])]
        let rows = try connection.query("SELECT ?, ?, ?, ?, ?", arguments: values)
        #expect(rows == [values])
        #expect(try connection.scalar("SELECT ?", arguments: [nil]) == .null)
        #expect(try connection.scalar("SELECT 1 WHERE 0") == nil)
    }

    @Test func invalidUTF8IsRepairedNotDropped() throws {
        let connection = try Connection.inMemory()
        let text = try connection.scalar("SELECT CAST(X'41FF42' AS TEXT)")?.stringValue
        #expect(text == "A\u{FFFD}B")
    }

    @Test func namedParametersAcceptEveryPrefix() throws {
        let connection = try Connection.inMemory()
        let statement = try connection.prepare("SELECT :first, @second, $third, :fourth")
        #expect(statement.parameterCount == 4)
        #expect(statement.parameterName(at: 2) == "@second")
        try statement.bind(1 as Int64, named: ":first")
        try statement.bind("two", named: "second")
        try statement.bind(3.5, named: "$third")
        try statement.bind(["fourth": .blob([4])])
        #expect(try statement.step())
        #expect(statement.values() == [.integer(1), .text("two"), .real(3.5), .blob([4])])
    }

    @Test func unknownParametersAreRangeErrorsWithTheSQL() throws {
        let connection = try Connection.inMemory()
        let sql = "SELECT :known, ?2"
        let statement = try connection.prepare(sql)
        let nameError = #expect(throws: SQLiteError.self) { try statement.bind(1, named: "unknown") }
        #expect(nameError?.code == .range)
        #expect(nameError?.sql == sql)
        let indexError = #expect(throws: SQLiteError.self) { try statement.bind(1, at: 3) }
        #expect(indexError?.code == .range)
        #expect(indexError?.sql == sql)
        let countError = #expect(throws: SQLiteError.self) { try statement.bind([.integer(1)]) }
        #expect(countError?.code == .range)
    }

    @Test func columnMetadataDescribesTheResult() throws {
        let connection = try Connection.inMemory()
        try connection.execute(sql: "CREATE TABLE recipe(Z_PK INTEGER PRIMARY KEY, ZNAME VARCHAR, ZRATING FLOAT)")
        let statement = try connection.prepare("SELECT Z_PK, ZNAME AS title, ZRATING * 2 FROM recipe")
        #expect(statement.columnCount == 3)
        #expect(statement.columnNames == ["Z_PK", "title", "ZRATING * 2"])
        #expect(statement.columnDeclaredType(at: 0) == "INTEGER")
        #expect(statement.columnDeclaredType(at: 1) == "VARCHAR")
        #expect(statement.columnDeclaredType(at: 2) == nil)
        #expect(statement.columnIndex(named: "TITLE") == 1)
        #expect(statement.columnIndex(named: "missing") == nil)
        #expect(statement.isReadOnly)
    }

    @Test func expandedSQLShowsTheBoundValues() throws {
        let connection = try Connection.inMemory()
        let statement = try connection.prepare("SELECT ?, ?, ?")
        try statement.bind(7, at: 1)
        try statement.bind("it's", at: 2)
        try statement.bindNull(at: 3)
        #expect(statement.sql == "SELECT ?, ?, ?")
        #expect(statement.expandedSQL == "SELECT 7, 'it''s', NULL")
    }

    @Test func rowIterationVisitsEveryRowAndCanRunAgain() throws {
        let connection = try Connection.inMemory()
        try connection.execute(
            sql: """
                CREATE TABLE n(value INTEGER, label TEXT);
                WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 100)
                INSERT INTO n SELECT x, 'n' || x FROM c;
                """)
        let statement = try connection.prepare("SELECT value, label FROM n WHERE value <= ? ORDER BY value")
        try statement.bind(50, at: 1)
        var total: Int64 = 0
        try statement.forEachRow { row in total += row.int64(at: 0) }
        #expect(total == 1275)
        let labels = try statement.mapRows { row in row.string(at: 1) ?? "" }
        #expect(labels.count == 50)
        #expect(labels.first == "n1")
        #expect(try statement.allRows().count == 50)
    }

    @Test func errorsThrownByTheRowBodyStopTheIteration() throws {
        struct Stop: Error {}
        let connection = try Connection.inMemory()
        let statement = try connection.prepare("SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3")
        var seen = 0
        #expect(throws: Stop.self) {
            try statement.forEachRow { _ in
                seen += 1
                if seen == 2 { throw Stop() }
            }
        }
        #expect(seen == 2)
        #expect(try statement.mapRows { $0.int(at: 0) } == [1, 2, 3])
    }

    @Test func resetAndClearBindingsAllowReuse() throws {
        let connection = try Connection.inMemory()
        let statement = try connection.prepare("SELECT ?")
        try statement.bind(1, at: 1)
        #expect(try statement.step())
        #expect(statement.isBusy)
        statement.reset()
        #expect(!statement.isBusy)
        #expect(try statement.step())
        #expect(statement.int64(at: 0) == 1)
        statement.reset()
        statement.clearBindings()
        #expect(try statement.step())
        #expect(statement.isNull(at: 0))
    }
}
