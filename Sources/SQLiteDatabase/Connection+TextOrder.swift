import CSQLite

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The two registrations behind fast text sorting, implemented in C (`CSQLite/shim.h`) because SQLite calls them
/// once per comparison or per row: a Swift callback there costs more than the sort itself.
extension Connection {
    /// Registers (or replaces) the collation `name` for Foundation's `compare:` order: comparisons that the UTF-8
    /// bytes decide (ASCII around the first difference, or one text a prefix of the other) are decided in C, and
    /// only the rest reach `fallback`, with the texts' bytes as SQLite holds them (possibly invalid UTF-8).
    ///
    /// `fallback` must agree with the byte rule where both apply, so that the whole is one consistent order.
    public func createTextOrderCollation(
        name: String, fallback: @escaping (UnsafeRawBufferPointer, UnsafeRawBufferPointer) -> ComparisonResult
    ) throws(SQLiteError) {
        // The argument SQLite holds: a typed cell with the C fallback and the retained Swift comparison.
        let order = UnsafeMutablePointer<csqlite_text_order>.allocate(capacity: 1)
        order.initialize(to: csqlite_text_order(
            fallback: { context, leftCount, left, rightCount, right in
                CollationBox.answer(context: context!, leftCount, left, rightCount, right)
            },
            context: CallbackContext.retained(CollationBox(compare: fallback))))
        let code = sqlite3_create_collation_v2(
            handle, name, SQLITE_UTF8, order, csqlite_text_order_compare,
            { argument in
                if let argument { Connection.releaseTextOrder(argument) }
            })
        guard code == SQLITE_OK else {
            // SQLite does not call the destroy callback when registering a collation fails.
            Connection.releaseTextOrder(order)
            throw SQLiteError(
                resultCode: code, message: "cannot create collation \(name): "
                    + String(cString: sqlite3_errmsg(handle)), path: path)
        }
    }

    private static func releaseTextOrder(_ argument: UnsafeMutableRawPointer) {
        let order = argument.assumingMemoryBound(to: csqlite_text_order.self)
        if let context = order.pointee.context { CallbackContext.release(context, as: CollationBox.self) }
        order.deinitialize(count: 1)
        order.deallocate()
    }

    /// Registers (or replaces) the deterministic SQL function `name(value)`: 1 when `value` is text of ASCII
    /// characters other than NUL, or not text at all, else 0; in C, for scans of whole columns.
    ///
    /// A function rather than SQL's `length`: SQLite counts a stray byte of invalid UTF-8 as a character, so
    /// comparing a text's length with its byte count would let such texts through.
    public func createPlainASCIIFunction(name: String) throws(SQLiteError) {
        let code = sqlite3_create_function_v2(
            handle, name, 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil, csqlite_plain_ascii_function, nil, nil, nil)
        guard code == SQLITE_OK else {
            throw SQLiteError(
                resultCode: code, message: "cannot create SQL function \(name)/1: "
                    + String(cString: sqlite3_errmsg(handle)), path: path)
        }
    }
}
