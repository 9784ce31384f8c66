import CBenchSQLite
import Foundation

/// The SQLite C API with just enough Swift around it to stay readable: the floor of every workload. Its methods are
/// thin and in this module, so the optimiser inlines them and a raw loop is `sqlite3_step` plus `sqlite3_column_*`.
final class RawDatabase {
    let handle: OpaquePointer

    init(path: String, readOnly: Bool = true) throws {
        var db: OpaquePointer?
        let flags = readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        let code = sqlite3_open_v2(path, &db, flags, nil)
        guard code == SQLITE_OK, let db else {
            throw RawSQLiteError(message: "cannot open \(path): \(String(cString: sqlite3_errstr(code)))")
        }
        handle = db
    }

    deinit { sqlite3_close_v2(handle) }

    func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        if sqlite3_exec(handle, sql, nil, nil, &message) != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? "unknown error"
            sqlite3_free(message)
            throw RawSQLiteError(message: "\(text) in \(sql.prefix(200))")
        }
    }

    func prepare(_ sql: String) throws -> RawStatement {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw RawSQLiteError(message: "\(String(cString: sqlite3_errmsg(handle))) in \(sql)")
        }
        return RawStatement(handle: statement)
    }

    /// The first column of the first row, as an integer (counts, maxima).
    func scalar(_ sql: String) throws -> Int {
        let statement = try prepare(sql)
        return try statement.step() ? Int(statement.int64(0)) : 0
    }

    /// Registers `regexp(pattern, text)` so that SQL's `text REGEXP pattern` works, as a hand-written query needs
    /// for MATCHES (SQLite has the operator but no implementation). ICU-style patterns through NSRegularExpression,
    /// anchored to the whole string as MATCHES is. The compiled pattern is kept with the statement
    /// (`sqlite3_set_auxdata`), the usual SQLite idiom, so it is compiled once per query and not once per row.
    func registerRegexp() throws {
        let code = sqlite3_create_function_v2(
            handle, "regexp", 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil,
            { context, _, arguments in
                guard let arguments, let pattern = sqlite3_value_text(arguments[0]), let text = sqlite3_value_text(arguments[1]) else {
                    sqlite3_result_int(context, 0)
                    return
                }
                let expression: NSRegularExpression
                if let cached = sqlite3_get_auxdata(context, 0) {
                    expression = Unmanaged<NSRegularExpression>.fromOpaque(cached).takeUnretainedValue()
                } else {
                    guard let compiled = try? NSRegularExpression(pattern: "^(?:" + String(cString: pattern) + ")$") else {
                        sqlite3_result_error(context, "invalid regular expression", -1)
                        return
                    }
                    expression = compiled
                    sqlite3_set_auxdata(context, 0, Unmanaged.passRetained(compiled).toOpaque()) { pointer in
                        if let pointer { Unmanaged<NSRegularExpression>.fromOpaque(pointer).release() }
                    }
                }
                let string = String(cString: text)
                let matched = expression.firstMatch(in: string, range: NSRange(string.startIndex..., in: string)) != nil
                sqlite3_result_int(context, matched ? 1 : 0)
            }, nil, nil, nil)
        guard code == SQLITE_OK else { throw RawSQLiteError(message: "cannot register regexp") }
    }
}

/// A prepared statement; finalised when released.
final class RawStatement {
    let handle: OpaquePointer

    init(handle: OpaquePointer) { self.handle = handle }
    deinit { sqlite3_finalize(handle) }

    /// Steps once: true while a row is available.
    @inline(__always)
    func step() throws -> Bool {
        let code = sqlite3_step(handle)
        if code == SQLITE_ROW { return true }
        if code == SQLITE_DONE { return false }
        throw RawSQLiteError(message: String(cString: sqlite3_errmsg(sqlite3_db_handle(handle))))
    }

    @inline(__always) func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
    @inline(__always) func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }
    @inline(__always) func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    /// The column as a Swift `String`: what any Swift program reading text must build, so the floor builds it too.
    @inline(__always)
    func text(_ column: Int32) -> String? {
        guard let bytes = sqlite3_column_text(handle, column) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    func bind(_ value: Int64, at index: Int32) { sqlite3_bind_int64(handle, index, value) }
    func bind(_ value: Double, at index: Int32) { sqlite3_bind_double(handle, index, value) }
    func bind(_ value: String, at index: Int32) {
        // SQLITE_TRANSIENT: SQLite copies the text, so the Swift string may go away.
        sqlite3_bind_text(handle, index, value, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
    }
    func bindNull(at index: Int32) { sqlite3_bind_null(handle, index) }

    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }
}

struct RawSQLiteError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
