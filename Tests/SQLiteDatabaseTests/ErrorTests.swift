import SQLiteDatabase
import Testing

@Suite("Errors carry codes, SQL and paths")
struct ErrorTests {
    @Test func syntaxErrorsCarryTheSQL() throws {
        let connection = try Connection.inMemory()
        let error = #expect(throws: SQLiteError.self) { try connection.prepare("SELEC 1") }
        #expect(error?.code == .error)
        #expect(error?.sql == "SELEC 1")
        #expect(error?.message.contains("syntax error") == true)
        #expect(error?.description.contains("SELEC 1") == true)
    }

    @Test func constraintViolationsMatchTheirFamilyAndTheirExactCode() throws {
        let connection = try Connection.inMemory()
        try connection.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT UNIQUE NOT NULL)")
        try connection.execute(sql: "INSERT INTO t(name) VALUES (?)", arguments: ["a"])
        let sql = "INSERT INTO t(name) VALUES ('a')"
        do {
            try connection.execute(sql: sql)
            Issue.record("a duplicate was inserted")
        } catch ResultCode.constraintUnique {
            // The exact extended code matches.
        } catch {
            Issue.record("unexpected error \(error)")
        }
        let error = #expect(throws: SQLiteError.self) { try connection.execute(sql: sql) }
        #expect(error?.code == .constraint)
        #expect(error?.extendedCode == .constraintUnique)
        #expect(error?.sql == sql)
        if let error {
            #expect(ResultCode.constraint ~= error)
            #expect(!(ResultCode.constraintNotNull ~= error))
            #expect(!(ResultCode.busy ~= error))
            #expect(error.description.contains("SQLITE_CONSTRAINT_UNIQUE"))
        }
        let notNull = #expect(throws: SQLiteError.self) { try connection.execute(sql: "INSERT INTO t(name) VALUES (NULL)") }
        #expect(notNull?.extendedCode == .constraintNotNull)
    }

    @Test func aScriptReportsTheStatementThatFailed() throws {
        let connection = try Connection.inMemory()
        let error = #expect(throws: SQLiteError.self) {
            try connection.execute(sql: "CREATE TABLE a(x); INSERT INTO missing VALUES (1); CREATE TABLE b(y);")
        }
        #expect(error?.sql?.contains("INSERT INTO missing") == true)
        #expect(error?.sql?.contains("CREATE TABLE b") == false)
        #expect(try connection.tables() == ["a"], "statements before the failure ran, those after did not")
    }

    @Test func prepareRefusesSeveralStatementsAndEmptySQL() throws {
        let connection = try Connection.inMemory()
        let several = #expect(throws: SQLiteError.self) { try connection.prepare("SELECT 1; SELECT 2") }
        #expect(several?.code == .misuse)
        #expect(several?.sql == "SELECT 1; SELECT 2")
        let empty = #expect(throws: SQLiteError.self) { try connection.prepare("  -- nothing\n") }
        #expect(empty?.code == .misuse)
        // Trailing semicolons, spaces and comments are not extra statements.
        #expect(try connection.prepare("SELECT 1;  -- done\n").columnCount == 1)
    }

    @Test func stepErrorsCarryTheSQLAndThePath() throws {
        let path = try temporaryDatabasePath()
        let connection = try Connection(path: path, mode: .create)
        try connection.execute(sql: "CREATE TABLE t(x CHECK (x > 0))")
        let statement = try connection.prepare("INSERT INTO t VALUES (?)")
        try statement.bind(-1, at: 1)
        let error = #expect(throws: SQLiteError.self) { try statement.run() }
        #expect(error?.extendedCode == .constraintCheck)
        #expect(error?.sql == "INSERT INTO t VALUES (?)")
        #expect(error?.path == path)
    }

    @Test func resultCodesHaveNames() {
        #expect(ResultCode.busy.name == "SQLITE_BUSY")
        #expect(ResultCode.readOnlyCantInit.name == "SQLITE_READONLY_CANTINIT")
        #expect(ResultCode.readOnlyCantInit.primary == .readOnly)
        #expect(ResultCode.notADatabase.explanation == "file is not a database")
        #expect(ResultCode(rawValue: 5 | (9 << 8)).name == "SQLITE_BUSY_9")
    }
}
