import CSQLite

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Keeps a custom function's Swift closure alive while SQLite holds it as user data; SQLite's destroy callback
/// releases it when the function is replaced or the connection closes.
final class RawFunctionBox {
    let body: (FunctionCall) throws -> SQLiteValue

    init(body: @escaping (FunctionCall) throws -> SQLiteValue) {
        self.body = body
    }
}

/// Keeps a collation's comparison closure alive while SQLite holds it.
final class CollationBox {
    let compare: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) -> ComparisonResult

    init(compare: @escaping (UnsafeRawBufferPointer, UnsafeRawBufferPointer) -> ComparisonResult) {
        self.compare = compare
    }

    /// A collation callback's answer: the box at `context` compares SQLite's two texts, as negative, 0 or positive.
    static func answer(
        context: UnsafeRawPointer, _ leftCount: Int32, _ left: UnsafeRawPointer?, _ rightCount: Int32, _ right: UnsafeRawPointer?
    ) -> Int32 {
        let collation = CallbackContext.object(at: context, as: CollationBox.self)
        switch collation.compare(UnsafeRawBufferPointer(start: left, count: Int(leftCount)),
                                 UnsafeRawBufferPointer(start: right, count: Int(rightCount))) {
        case .orderedAscending: return -1
        case .orderedSame: return 0
        case .orderedDescending: return 1
        }
    }
}

/// Custom SQL functions and collations.
extension Connection {
    /// Registers (or replaces) the SQL function `name`, implemented by `body`.
    ///
    /// ```swift
    /// try connection.createFunction(name: "fold", argumentCount: 1, deterministic: true) { arguments in
    ///     guard case .text(let text) = arguments[0] else { return arguments[0] }
    ///     return .text(text.lowercased())
    /// }
    /// ```
    ///
    /// An error thrown by `body` fails the SQL statement that called the function: the statement's
    /// ``SQLiteError`` carries the error's description as its message (and an ``SQLiteError``'s own code).
    ///
    /// - Parameters:
    ///   - name: the function name, as used in SQL (compared without regard to ASCII case).
    ///   - argumentCount: the number of arguments, 0 to 127, or -1 for any number. Registrations with different
    ///     counts coexist, and SQLite prefers an exact count over -1.
    ///   - deterministic: whether the result depends only on the arguments, which lets SQLite use the function in
    ///     indexes and `CHECK` constraints and evaluate it once for constant arguments.
    ///   - body: computes the result from the arguments; runs on the thread using the connection.
    public func createFunction(
        name: String, argumentCount: Int = -1, deterministic: Bool = false,
        body: @escaping ([SQLiteValue]) throws -> SQLiteValue
    ) throws(SQLiteError) {
        try createRawFunction(name: name, argumentCount: argumentCount, deterministic: deterministic) { call in
            try body((0..<call.argumentCount).map(call.value(at:)))
        }
    }

    /// Registers (or replaces) the SQL function `name`, implemented by `body`, which reads its arguments in place
    /// through a ``FunctionCall``.
    ///
    /// For functions called once per row on hot paths: unlike
    /// ``createFunction(name:argumentCount:deterministic:body:)`` no array of ``SQLiteValue``s is built, text can
    /// be read as UTF-8 bytes without making a `String`, and whatever the body derives from a constant argument
    /// can be kept for the statement's later rows with ``FunctionCall/setAuxiliaryData(_:at:)``. Errors and the
    /// other parameters behave as in ``createFunction(name:argumentCount:deterministic:body:)``.
    public func createRawFunction(
        name: String, argumentCount: Int = -1, deterministic: Bool = false,
        body: @escaping (FunctionCall) throws -> SQLiteValue
    ) throws(SQLiteError) {
        let box = CallbackContext.retained(RawFunctionBox(body: body))
        let flags = SQLITE_UTF8 | (deterministic ? SQLITE_DETERMINISTIC : 0)
        let code = sqlite3_create_function_v2(
            handle, name, Int32(clamping: argumentCount), flags, box,
            { context, count, arguments in
                let box = CallbackContext.object(at: sqlite3_user_data(context), as: RawFunctionBox.self)
                do {
                    let call = FunctionCall(context: context, argumentCount: count, arguments: arguments)
                    Connection.setResult(try box.body(call), of: context)
                } catch let error as SQLiteError {
                    sqlite3_result_error(context, error.message, -1)
                    sqlite3_result_error_code(context, error.extendedResultCode)
                } catch {
                    sqlite3_result_error(context, String(describing: error), -1)
                }
            },
            nil, nil,
            { box in
                if let box { CallbackContext.release(box, as: RawFunctionBox.self) }
            })
        guard code == SQLITE_OK else {
            throw SQLiteError(
                resultCode: code, message: "cannot create SQL function \(name)/\(argumentCount): "
                    + String(cString: sqlite3_errmsg(handle)), path: path)
        }
    }

    /// Unregisters the SQL function `name` with `argumentCount` arguments (-1 for the variadic registration).
    public func removeFunction(name: String, argumentCount: Int = -1) throws(SQLiteError) {
        let code = sqlite3_create_function_v2(
            handle, name, Int32(clamping: argumentCount), SQLITE_UTF8, nil, nil, nil, nil, nil)
        guard code == SQLITE_OK else {
            throw SQLiteError(
                resultCode: code, message: "cannot remove SQL function \(name)/\(argumentCount): "
                    + String(cString: sqlite3_errmsg(handle)), path: path)
        }
    }

    /// Registers (or replaces) the collation `name`, usable as `COLLATE name` in SQL and in index definitions.
    ///
    /// `compare` receives the two texts (invalid UTF-8 repaired) and must define a consistent total order.
    public func createCollation(
        name: String, compare: @escaping (String, String) -> ComparisonResult
    ) throws(SQLiteError) {
        let box = CallbackContext.retained(CollationBox { left, right in
            compare(String(decoding: left, as: UTF8.self), String(decoding: right, as: UTF8.self))
        })
        let code = sqlite3_create_collation_v2(
            handle, name, SQLITE_UTF8, box,
            { box, leftCount, left, rightCount, right in CollationBox.answer(context: box!, leftCount, left, rightCount, right) },
            { box in
                if let box { CallbackContext.release(box, as: CollationBox.self) }
            })
        guard code == SQLITE_OK else {
            // Unlike functions, SQLite does not call the destroy callback when registering a collation fails.
            CallbackContext.release(box, as: CollationBox.self)
            throw SQLiteError(
                resultCode: code, message: "cannot create collation \(name): "
                    + String(cString: sqlite3_errmsg(handle)), path: path)
        }
    }

    // MARK: - Value conversion for functions

    /// A function argument as a Swift value.
    static func value(of argument: OpaquePointer?) -> SQLiteValue {
        switch sqlite3_value_type(argument) {
        case SQLITE_INTEGER:
            return .integer(sqlite3_value_int64(argument))
        case SQLITE_FLOAT:
            return .real(sqlite3_value_double(argument))
        case SQLITE_TEXT:
            guard let text = sqlite3_value_text(argument) else { return .text("") }
            let count = Int(sqlite3_value_bytes(argument))
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            guard let bytes = sqlite3_value_blob(argument) else { return .blob([]) }
            let count = Int(sqlite3_value_bytes(argument))
            return .blob([UInt8](UnsafeRawBufferPointer(start: bytes, count: count)))
        default:
            return .null
        }
    }

    /// Hands a function's result to SQLite, which copies text and bytes.
    static func setResult(_ value: SQLiteValue, of context: OpaquePointer?) {
        switch value {
        case .null:
            sqlite3_result_null(context)
        case .integer(let integer):
            sqlite3_result_int64(context, integer)
        case .real(let real):
            sqlite3_result_double(context, real)
        case .text(var text):
            text.withUTF8 { bytes in
                guard let base = bytes.baseAddress else {
                    sqlite3_result_text64(context, "", 0, csqlite_transient(), UInt8(SQLITE_UTF8))
                    return
                }
                sqlite3_result_text64(
                    context, UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self), sqlite3_uint64(bytes.count),
                    csqlite_transient(), UInt8(SQLITE_UTF8))
            }
        case .blob(let bytes):
            bytes.withUnsafeBytes { buffer in
                guard let base = buffer.baseAddress, buffer.count > 0 else {
                    sqlite3_result_zeroblob(context, 0)
                    return
                }
                sqlite3_result_blob64(context, base, sqlite3_uint64(buffer.count), csqlite_transient())
            }
        }
    }
}
