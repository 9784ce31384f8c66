import SQLiteDatabase
import Testing

@Suite("Transactions and savepoints")
struct TransactionTests {
    struct Failure: Error {}

    private func makeConnection() throws -> Connection {
        let connection = try Connection.inMemory()
        try connection.execute(sql: "CREATE TABLE t(x)")
        return connection
    }

    @Test(arguments: [Connection.TransactionKind.deferred, .immediate, .exclusive])
    func aTransactionCommitsWhenTheBodyReturns(kind: Connection.TransactionKind) throws {
        let connection = try makeConnection()
        let value = try connection.inTransaction(kind) {
            #expect(connection.isInTransaction)
            try connection.execute(sql: "INSERT INTO t VALUES (1)")
            return 42
        }
        #expect(value == 42)
        #expect(!connection.isInTransaction)
        #expect(try connection.integer("SELECT count(*) FROM t") == 1)
    }

    @Test func aTransactionRollsBackWhenTheBodyThrows() throws {
        let connection = try makeConnection()
        #expect(throws: Failure.self) {
            try connection.inTransaction {
                try connection.execute(sql: "INSERT INTO t VALUES (1)")
                throw Failure()
            }
        }
        #expect(!connection.isInTransaction)
        #expect(try connection.integer("SELECT count(*) FROM t") == 0)
    }

    @Test func transactionsDoNotNest() throws {
        let connection = try makeConnection()
        try connection.inTransaction {
            let error = #expect(throws: SQLiteError.self) { try connection.inTransaction {} }
            #expect(error?.message.contains("within a transaction") == true)
        }
    }

    @Test func anInnerSavepointRollsBackAloneAndTheOuterCommits() throws {
        let connection = try makeConnection()
        try connection.inTransaction {
            try connection.execute(sql: "INSERT INTO t VALUES (1)")
            try connection.inSavepoint {
                try connection.execute(sql: "INSERT INTO t VALUES (2)")
                #expect(throws: Failure.self) {
                    try connection.inSavepoint(name: "inner \"quoted\"") {
                        try connection.execute(sql: "INSERT INTO t VALUES (3)")
                        throw Failure()
                    }
                }
                try connection.execute(sql: "INSERT INTO t VALUES (4)")
            }
        }
        #expect(try connection.query("SELECT x FROM t ORDER BY x") == [[1], [2], [4]])
    }

    @Test func anOutermostSavepointActsAsATransaction() throws {
        let connection = try makeConnection()
        #expect(throws: Failure.self) {
            try connection.inSavepoint {
                #expect(connection.isInTransaction)
                try connection.execute(sql: "INSERT INTO t VALUES (1)")
                throw Failure()
            }
        }
        #expect(!connection.isInTransaction)
        #expect(try connection.integer("SELECT count(*) FROM t") == 0)
        try connection.inSavepoint(name: "outer") {
            try connection.execute(sql: "INSERT INTO t VALUES (5)")
        }
        #expect(!connection.isInTransaction)
        #expect(try connection.integer("SELECT count(*) FROM t") == 1)
    }

    @Test func anOuterRollbackUndoesReleasedSavepoints() throws {
        let connection = try makeConnection()
        #expect(throws: Failure.self) {
            try connection.inTransaction {
                try connection.inSavepoint { try connection.execute(sql: "INSERT INTO t VALUES (1)") }
                throw Failure()
            }
        }
        #expect(try connection.integer("SELECT count(*) FROM t") == 0)
    }
}
