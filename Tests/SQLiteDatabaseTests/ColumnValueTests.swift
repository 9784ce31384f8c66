import Foundation
import SQLiteDatabase
import Testing

@Suite("Reading a column once for its type and content")
struct ColumnValueTests {
    @Test func typesAndContentMatchTheStatementsReads() throws {
        let connection = try Connection.inMemory()
        let statement = try connection.prepare("SELECT 42, 2.5, 'héllo', NULL, x'00ff', '', 7, '12'")
        #expect(try statement.step())
        for index in 0..<statement.columnCount {
            let column = statement.column(at: index)
            #expect(column.type == statement.columnType(at: index), "column \(index)")
        }
        #expect(statement.column(at: 0).int64 == 42)
        #expect(statement.column(at: 1).double == 2.5)
        #expect(statement.column(at: 2).string == "héllo")
        #expect(statement.column(at: 3).string == nil && statement.column(at: 3).type == .null)
        #expect(statement.column(at: 4).type == .blob)
        #expect(statement.column(at: 5).string == "", "empty text is not NULL")
        // SQLite's conversions, as the statement's own reads make them.
        #expect(statement.column(at: 6).string == "7" && statement.column(at: 6).double == 7)
        #expect(statement.column(at: 7).int64 == 12)
    }

    @Test func rowsReadColumnsOnceEach() throws {
        let connection = try Connection.inMemory()
        try connection.execute(sql: "CREATE TABLE t (a INTEGER, b TEXT)")
        try connection.execute(sql: "INSERT INTO t VALUES (1, 'one'), (2, NULL)")
        let statement = try connection.prepare("SELECT a, b FROM t ORDER BY a")
        var read: [(Int64, String?)] = []
        try statement.forEachRow { row in read.append((row.column(at: 0).int64, row.column(at: 1).string)) }
        #expect(read.map(\.0) == [1, 2] && read.map(\.1) == ["one", nil])
    }
}
