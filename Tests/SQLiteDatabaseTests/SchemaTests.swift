import SQLiteDatabase
import Testing

@Suite("Schema introspection and pragmas")
struct SchemaTests {
    private static let schema = """
        CREATE TABLE ZRECIPE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR NOT NULL DEFAULT 'untitled', ZRATING FLOAT);
        CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
        CREATE INDEX ZRECIPE_ZNAME_INDEX ON ZRECIPE (ZNAME COLLATE NOCASE DESC, ZRATING);
        CREATE TABLE pairs (a TEXT, b TEXT, PRIMARY KEY (b, a), UNIQUE (a));
        CREATE UNIQUE INDEX partial_rating ON ZRECIPE (ZRATING) WHERE ZRATING > 3;
        CREATE TABLE counter (id INTEGER PRIMARY KEY AUTOINCREMENT);
        """

    private func makeConnection() throws -> Connection {
        let connection = try Connection.inMemory()
        try connection.execute(sql: Self.schema)
        return connection
    }

    @Test func tablesAreListedByNameWithoutInternalOnes() throws {
        let connection = try makeConnection()
        #expect(try connection.tables() == ["ZRECIPE", "Z_PRIMARYKEY", "counter", "pairs"])
        #expect(try connection.tables(includingInternal: true).contains("sqlite_sequence"))
        #expect(try connection.tableExists("zrecipe"))
        #expect(try !connection.tableExists("nothing"))
    }

    @Test func columnsDescribeTypesConstraintsAndKeys() throws {
        let connection = try makeConnection()
        let columns = try connection.columns(in: "ZRECIPE")
        #expect(columns.map(\.name) == ["Z_PK", "Z_ENT", "Z_OPT", "ZNAME", "ZRATING"])
        #expect(columns[0] == ColumnInfo(name: "Z_PK", declaredType: "INTEGER", isNotNull: false, defaultValueSQL: nil, primaryKeyPosition: 1))
        #expect(columns[3] == ColumnInfo(name: "ZNAME", declaredType: "VARCHAR", isNotNull: true, defaultValueSQL: "'untitled'", primaryKeyPosition: 0))
        let pairs = try connection.columns(in: "pairs")
        #expect(pairs.map(\.primaryKeyPosition) == [2, 1])
        let error = #expect(throws: SQLiteError.self) { try connection.columns(in: "nothing") }
        #expect(error?.message.contains("no such table") == true)
    }

    @Test func indexesListTheirKeyColumns() throws {
        let connection = try makeConnection()
        let indexes = try connection.indexes(on: "ZRECIPE")
        #expect(indexes.map(\.name) == ["ZRECIPE_ZNAME_INDEX", "partial_rating"])
        #expect(indexes[0].columns == [
            IndexColumn(name: "ZNAME", isDescending: true, collation: "NOCASE"),
            IndexColumn(name: "ZRATING", isDescending: false, collation: "BINARY"),
        ])
        #expect(!indexes[0].isUnique)
        #expect(indexes[0].origin == .createIndex)
        #expect(indexes[1].isUnique && indexes[1].isPartial)
        let pairIndexes = try connection.indexes(on: "pairs")
        #expect(Set(pairIndexes.map(\.origin)) == [.primaryKey, .uniqueConstraint])
        #expect(pairIndexes.first { $0.origin == .primaryKey }?.columns.map(\.name) == ["b", "a"])
        #expect(throws: SQLiteError.self) { try connection.indexes(on: "nothing") }
    }

    @Test func schemaSQLListsStatementsInCreationOrder() throws {
        let connection = try makeConnection()
        let statements = try connection.schemaStatements()
        #expect(statements.first?.hasPrefix("CREATE TABLE ZRECIPE") == true)
        #expect(statements[2].hasPrefix("CREATE INDEX ZRECIPE_ZNAME_INDEX"))
        #expect(statements.contains("CREATE TABLE sqlite_sequence(name,seq)"))
        #expect(!statements.contains { $0.contains("sqlite_autoindex") })
        let text = try connection.schemaSQL()
        #expect(text == statements.map { $0 + ";\n" }.joined())
    }

    @Test func pragmasReadAndWrite() throws {
        let path = try temporaryDatabasePath()
        let connection = try Connection(path: path, mode: .create)
        #expect(try connection.journalMode() == .delete)
        #expect(try connection.setJournalMode(.wal) == .wal)
        #expect(try connection.journalMode() == .wal)
        #expect(try connection.pageSize() == 4096)
        #expect(try connection.autoVacuum() == Connection.AutoVacuumMode.none)
        #expect(try connection.userVersion() == 0)
        try connection.setUserVersion(-12)
        #expect(try connection.userVersion() == -12)
        let before = try connection.schemaVersion()
        try connection.execute(sql: "CREATE TABLE t(x)")
        #expect(try connection.schemaVersion() == before + 1)
        #expect(try connection.integrityCheck() == ["ok"])
        #expect(try connection.quickCheck() == ["ok"])
        #expect(try connection.pragma("main.page_size") == .integer(4096))
        #expect(try connection.setPragma("cache_size", to: .integer(-4000)) == nil)
        #expect(try connection.pragma("cache_size") == .integer(-4000))
        let error = #expect(throws: SQLiteError.self) { try connection.pragma("user_version; DROP TABLE t") }
        #expect(error?.code == .misuse)
        #expect(try connection.tables() == ["t"])
    }

    @Test func inMemoryDatabasesCannotSwitchToWAL() throws {
        let connection = try Connection.inMemory()
        #expect(try connection.setJournalMode(.wal) == .memory)
    }
}
