import SQLiteDatabase

/// A compiled fetch: SQL text with `?` placeholders and the values to bind to them, in order.
///
/// Run it on a connection on which ``PredicateSQLFunctions/register(on:)`` has been called:
/// ```swift
/// let query = try PredicateSQLCompiler(model: model).fetch(entityName: "Person", predicate: predicate)
/// let rows = try connection.query(query.sql, arguments: query.bindings)
/// ```
public struct SQLQuery: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The statement; its only literals are entity numbers and names of this module's SQL functions.
    public var sql: String
    /// One value per `?` in ``sql``, in order, already in the store's encodings (dates as seconds since 2001,
    /// booleans as 0/1, UUIDs as 16-byte blobs, URIs as text).
    public var bindings: [SQLiteValue]
    /// The names of the result columns, in order (`Z_PK`, `Z_ENT`, `Z_OPT`, then the entity's columns), or
    /// `["COUNT(*)"]` for a count.
    public var resultColumns: [String]

    public init(sql: String, bindings: [SQLiteValue], resultColumns: [String]) {
        self.sql = sql
        self.bindings = bindings
        self.resultColumns = resultColumns
    }

    public var description: String { sql }

    /// `SQL(<statement>; bindings: [1: "text", 2: 42])`, for `--sql` output and logs.
    public var debugDescription: String {
        let listed = bindings.enumerated().map { "\($0.offset + 1): \(Self.describe($0.element))" }
        return "SQL(\(sql); bindings: [\(listed.joined(separator: ", "))])"
    }

    /// A binding as a SQL-like literal: `NULL`, `42`, `1.5`, `"text"` (escaped as a Swift string), `x'00ff'`.
    public static func describe(_ value: SQLiteValue) -> String {
        switch value {
        case .null: return "NULL"
        case .integer(let integer): return String(integer)
        case .real(let real): return String(real)
        case .text(let text): return text.debugDescription
        case .blob(let bytes):
            let hex = "0123456789abcdef".map { $0 }
            return "x'" + String(bytes.flatMap { [hex[Int($0 >> 4)], hex[Int($0 & 0xF)]] }) + "'"
        }
    }
}
