import Foundation
import SQLiteDatabase
import Testing

@Suite("Custom SQL functions and collations")
struct FunctionTests {
    struct Refusal: Error, CustomStringConvertible {
        var description: String { "refused by the test" }
    }

    @Test func aVariadicFunctionReceivesEveryArgument() throws {
        let connection = try Connection.inMemory()
        try connection.createFunction(name: "total", argumentCount: -1, deterministic: true) { arguments in
            .integer(arguments.reduce(0) { $0 + ($1.int64Value ?? 0) })
        }
        #expect(try connection.integer("SELECT total()") == 0)
        #expect(try connection.integer("SELECT total(1, 2, 3, 4)") == 10)
        let echoed = try connection.query("SELECT total(?, ?, ?)", arguments: [.integer(1), .text("x"), .null])
        #expect(echoed == [[1]])
    }

    @Test func argumentsAndResultsKeepTheirStorageClass() throws {
        let connection = try Connection.inMemory()
        try connection.createFunction(name: "identity", argumentCount: 1) { $0[0] }
        let values: [SQLiteValue] = [.null, .integer(.min), .real(-2.5), .text(""), .text("ü\u{0}x"), .blob([]),
            .blob([0, 0, 1])]
        for value in values {
            let result = try connection.scalar("SELECT identity(?)", arguments: [value])
            #expect(result == value)
        }
    }

    @Test func coreDataTriggerFunctionsCanBeRegisteredAsNoOps() throws {
        let connection = try Connection.inMemory()
        for name in ["NSCoreDataDATriggerUpdatedAffectedObjectValue", "NSCoreDataDATriggerInsertUpdatedAffectedObjectValue"] {
            try connection.createFunction(name: name, argumentCount: -1) { _ in .null }
        }
        try connection.execute(
            sql: """
                CREATE TABLE ZITEM(Z_PK INTEGER PRIMARY KEY, ZCOUNT INTEGER);
                CREATE TRIGGER ZITEM_TRIGGER AFTER UPDATE OF ZCOUNT ON ZITEM FOR EACH ROW
                BEGIN SELECT NSCoreDataDATriggerUpdatedAffectedObjectValue('ZITEM', 0, NEW.Z_PK, 'count', NEW.ZCOUNT); END;
                INSERT INTO ZITEM(ZCOUNT) VALUES (1);
                UPDATE ZITEM SET ZCOUNT = 2;
                """)
        #expect(try connection.integer("SELECT ZCOUNT FROM ZITEM") == 2)
        #expect(try connection.scalar("SELECT NSCoreDataDATriggerInsertUpdatedAffectedObjectValue()") == .null)
    }

    @Test func anErrorThrownByTheBodyFailsTheStatement() throws {
        let connection = try Connection.inMemory()
        try connection.createFunction(name: "refuse", argumentCount: 0) { _ in throw Refusal() }
        let error = #expect(throws: SQLiteError.self) { try connection.scalar("SELECT refuse()") }
        #expect(error?.code == .error)
        #expect(error?.message == "refused by the test")
        #expect(error?.sql == "SELECT refuse()")

        try connection.createFunction(name: "busy", argumentCount: 0) { _ in
            throw SQLiteError(.constraint, message: "custom constraint")
        }
        let coded = #expect(throws: SQLiteError.self) { try connection.scalar("SELECT busy()") }
        #expect(coded?.code == .constraint)
        #expect(coded?.message == "custom constraint")
    }

    @Test func theClosureIsReleasedWhenTheConnectionCloses() throws {
        final class Probe {}
        weak var weakProbe: Probe?
        do {
            let connection = try Connection.inMemory()
            let probe = Probe()
            weakProbe = probe
            try connection.createFunction(name: "probe", argumentCount: 0) { _ in
                withExtendedLifetime(probe) {}
                return .integer(1)
            }
            #expect(try connection.integer("SELECT probe()") == 1)
            // Replacing the function releases the first closure too; re-register to exercise that path.
            try connection.createFunction(name: "probe", argumentCount: 0) { _ in
                withExtendedLifetime(probe) {}
                return .integer(2)
            }
            #expect(try connection.integer("SELECT probe()") == 2)
            #expect(weakProbe != nil)
        }
        #expect(weakProbe == nil)
    }

    @Test func removedFunctionsAreUnknown() throws {
        let connection = try Connection.inMemory()
        try connection.createFunction(name: "gone", argumentCount: 0) { _ in .null }
        try connection.removeFunction(name: "gone", argumentCount: 0)
        let error = #expect(throws: SQLiteError.self) { try connection.scalar("SELECT gone()") }
        #expect(error?.message.contains("no such function") == true)
    }

    @Test func invalidArgumentCountsAreRefused() throws {
        let connection = try Connection.inMemory()
        #expect(throws: SQLiteError.self) {
            try connection.createFunction(name: "bad", argumentCount: 1000) { _ in .null }
        }
    }

    @Test func aCollationOrdersText() throws {
        let connection = try Connection.inMemory()
        try connection.createCollation(name: "REVERSED") { left, right in
            left == right ? .orderedSame : (left < right ? .orderedDescending : .orderedAscending)
        }
        try connection.execute(sql: "CREATE TABLE t(name TEXT); INSERT INTO t VALUES ('b'), ('a'), ('c')")
        let names = try connection.query("SELECT name FROM t ORDER BY name COLLATE REVERSED").map { $0[0] }
        #expect(names == ["c", "b", "a"])
    }
}
