import CSQLite

/// One call of a custom SQL function registered with ``Connection/createRawFunction(name:argumentCount:deterministic:body:)``:
/// its arguments, read in place without copying, and the auxiliary data SQLite keeps for constant arguments.
///
/// A call is valid only inside the function's body: its pointers belong to SQLite and change with the next row.
/// Do not keep it, or a buffer it lends, past the body.
public struct FunctionCall {
    let context: OpaquePointer?
    let arguments: UnsafeMutablePointer<OpaquePointer?>?

    /// The number of arguments of this call.
    public let argumentCount: Int

    init(context: OpaquePointer?, argumentCount: Int32, arguments: UnsafeMutablePointer<OpaquePointer?>?) {
        self.context = context
        self.argumentCount = Int(argumentCount)
        self.arguments = arguments
    }

    private func argument(_ index: Int) -> OpaquePointer? {
        precondition(index >= 0 && index < argumentCount, "argument \(index) of \(argumentCount)")
        return arguments?[index]
    }

    /// The storage class of argument `index` (0-based).
    public func type(at index: Int) -> SQLiteColumnType {
        SQLiteColumnType(rawValue: sqlite3_value_type(argument(index))) ?? .null
    }

    /// Argument `index` as an integer, converted by SQLite's rules (0 for NULL).
    public func int64(at index: Int) -> Int64 {
        sqlite3_value_int64(argument(index))
    }

    /// Argument `index` as a ``SQLiteValue`` (text and blobs copied).
    public func value(at index: Int) -> SQLiteValue {
        Connection.value(of: argument(index))
    }

    /// Calls `body` with the UTF-8 bytes of argument `index` as SQLite holds them (a number or a blob is converted
    /// to text first, NULL gives no bytes). The buffer is valid only during `body`.
    ///
    /// SQLite may convert the argument in place (a blob read as text then reports ``SQLiteColumnType/text``), so
    /// read ``type(at:)`` and ``value(at:)`` first when they matter.
    public func withUTF8<Result>(
        at index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result
    ) rethrows -> Result {
        let value = argument(index)
        // sqlite3_value_text before sqlite3_value_bytes: the count is then that of the UTF-8 form.
        guard let text = sqlite3_value_text(value) else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
        return try body(UnsafeBufferPointer(start: text, count: Int(sqlite3_value_bytes(value))))
    }

    /// The object stored with ``setAuxiliaryData(_:at:)`` for argument `index` earlier in the same statement, if
    /// SQLite kept it and it is a `T`.
    ///
    /// SQLite keeps auxiliary data only while the argument is constant for the statement (a literal or a bound
    /// parameter) and drops it when the statement is reset, so it suits whatever is derived from a constant
    /// operand once per statement: a compiled pattern, a folded string.
    public func auxiliaryData<T: AnyObject>(at index: Int, as type: T.Type) -> T? {
        guard let pointer = sqlite3_get_auxdata(context, Int32(index)) else { return nil }
        return CallbackContext.object(at: pointer, as: AnyObject.self) as? T
    }

    /// Stores `object` with argument `index` for later calls in the same statement (see
    /// ``auxiliaryData(at:as:)``); SQLite releases it when the statement no longer needs it.
    public func setAuxiliaryData(_ object: AnyObject, at index: Int) {
        let retained = CallbackContext.retained(object)
        sqlite3_set_auxdata(context, Int32(index), retained) { pointer in
            if let pointer { CallbackContext.release(pointer, as: AnyObject.self) }
        }
    }
}
