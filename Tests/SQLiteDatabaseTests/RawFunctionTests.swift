import Foundation
import SQLiteDatabase
import Testing

@Suite("Raw SQL functions: arguments in place, auxiliary data")
struct RawFunctionTests {
    /// Counts how often a raw function had to derive its object from the constant argument.
    final class Preparations: @unchecked Sendable {
        // Unchecked: touched only inside SQLite calls on the test's own connection.
        var count = 0
    }
    final class Derived {
        let text: String
        init(_ text: String) { self.text = text }
    }

    /// `tagged(value, constant)`: the constant's text kept as auxiliary data, prefixed to the value.
    private func registerTagged(on connection: Connection, _ preparations: Preparations) throws {
        try connection.createRawFunction(name: "tagged", argumentCount: 2, deterministic: true) { call in
            let derived: Derived
            if let kept = call.auxiliaryData(at: 1, as: Derived.self) {
                derived = kept
            } else {
                preparations.count += 1
                derived = Derived(call.withUTF8(at: 1) { String(decoding: $0, as: UTF8.self) })
                call.setAuxiliaryData(derived, at: 1)
            }
            return .text(derived.text + call.withUTF8(at: 0) { String(decoding: $0, as: UTF8.self) })
        }
    }

    @Test func argumentsAreReadInPlace() throws {
        let connection = try Connection.inMemory()
        try connection.createRawFunction(name: "describe", argumentCount: -1) { call in
            var parts: [String] = []
            for index in 0..<call.argumentCount {
                // The type and the value first: reading a blob as text converts it in place.
                let type = call.type(at: index), value = call.value(at: index)
                let bytes = call.withUTF8(at: index) { Array($0) }
                parts.append("\(type):\(call.int64(at: index)):\(bytes.count):\(value)")
            }
            return .text(parts.joined(separator: " "))
        }
        let described = try connection.scalar(
            "SELECT describe(NULL, 42, 2.5, ?, x'0001')", arguments: [.text("ü\u{0}x")])
        // NUL shown as <0>, so that a failure prints whole.
        let shown = described?.stringValue?.replacing("\u{0}", with: "<0>")
        #expect(shown == "null:0:0:NULL integer:42:2:42 real:2:3:2.5 text:0:4:'ü<0>x' blob:0:2:X'0001'")
        #expect(try connection.scalar("SELECT describe()") == .text(""))
    }

    @Test func auxiliaryDataLastsForTheStatementOfABoundConstant() throws {
        let connection = try Connection.inMemory()
        let preparations = Preparations()
        try registerTagged(on: connection, preparations)
        try connection.execute(sql: "CREATE TABLE t(v TEXT); INSERT INTO t VALUES ('a'), ('b'), ('c'), ('d')")

        let statement = try connection.prepare("SELECT tagged(v, ?) FROM t ORDER BY v")
        try statement.bind(.text("x-"), at: 1)
        var results: [String] = []
        while try statement.step() { results.append(statement.value(at: 0).stringValue ?? "") }
        #expect(results == ["x-a", "x-b", "x-c", "x-d"])
        #expect(preparations.count == 1)

        // A reset drops the data, so new bindings are prepared anew.
        statement.reset()
        try statement.bind(.text("y-"), at: 1)
        results = []
        while try statement.step() { results.append(statement.value(at: 0).stringValue ?? "") }
        #expect(results == ["y-a", "y-b", "y-c", "y-d"])
        #expect(preparations.count == 2)
    }

    @Test func aColumnArgumentIsPreparedForEveryRow() throws {
        let connection = try Connection.inMemory()
        let preparations = Preparations()
        try registerTagged(on: connection, preparations)
        try connection.execute(sql: "CREATE TABLE t(v TEXT); INSERT INTO t VALUES ('a'), ('b'), ('c')")
        let results = try connection.query("SELECT tagged('-', v) FROM t ORDER BY v").map { $0[0] }
        #expect(results == ["a-", "b-", "c-"])
        #expect(preparations.count == 3)
    }

    @Test func theDataAndTheClosureAreReleased() throws {
        final class Probe {}
        weak var weakData: Derived?
        weak var weakProbe: Probe?
        do {
            let connection = try Connection.inMemory()
            let probe = Probe()
            weakProbe = probe
            try connection.createRawFunction(name: "keep", argumentCount: 1) { call in
                withExtendedLifetime(probe) {}
                let data = Derived("kept")
                weakData = data
                call.setAuxiliaryData(data, at: 0)
                return .integer(1)
            }
            #expect(try connection.scalar("SELECT keep(1)") == .integer(1))
            #expect(weakData == nil)
        }
        #expect(weakProbe == nil)
    }

    @Test func anErrorThrownByTheBodyFailsTheStatement() throws {
        struct Refusal: Error, CustomStringConvertible { var description: String { "refused in place" } }
        let connection = try Connection.inMemory()
        try connection.createRawFunction(name: "refuse", argumentCount: 0) { _ in throw Refusal() }
        let error = #expect(throws: SQLiteError.self) { try connection.scalar("SELECT refuse()") }
        #expect(error?.message == "refused in place")
        try connection.createRawFunction(name: "constrained", argumentCount: 0) { _ in
            throw SQLiteError(.constraint, message: "custom constraint")
        }
        let coded = #expect(throws: SQLiteError.self) { try connection.scalar("SELECT constrained()") }
        #expect(coded?.code == .constraint)
        #expect(throws: SQLiteError.self) {
            try connection.createRawFunction(name: "bad", argumentCount: 1000) { _ in .null }
        }
    }
}
