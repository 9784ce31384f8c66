/// The one place this module turns Swift objects into the `void *` context pointers SQLite hands back to its C
/// callbacks (functions, collations, auxiliary data, trace and progress hooks), and back.
///
/// Two ownerships, and the rule for each:
/// - **Retained** (``retained(_:)``): the pointer owns one reference, and SQLite owns the pointer. It is released
///   exactly once, by the destroy callback SQLite calls when it drops the pointer (``release(_:as:)``), or by the
///   caller when SQLite refused the registration and will not call that callback.
/// - **Borrowed** (``borrowed(_:)``): the pointer owns nothing. The caller keeps a strong reference for as long as
///   SQLite may call back with it (the connection's `traceBox` and `progressBox`), and replaces that reference only
///   after SQLite holds the new pointer.
///
/// ``object(at:as:)`` reads either kind without changing the count; `Object` must be the type the pointer was
/// made from (or `AnyObject`, then cast).
enum CallbackContext {
    static func retained<Object: AnyObject>(_ object: Object) -> UnsafeMutableRawPointer {
        Unmanaged.passRetained(object).toOpaque()
    }

    static func borrowed<Object: AnyObject>(_ object: Object) -> UnsafeMutableRawPointer {
        Unmanaged.passUnretained(object).toOpaque()
    }

    static func object<Object: AnyObject>(at pointer: UnsafeRawPointer, as type: Object.Type) -> Object {
        Unmanaged<Object>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// Gives back the reference a ``retained(_:)`` pointer owns; the pointer must not be used afterwards.
    static func release<Object: AnyObject>(_ pointer: UnsafeRawPointer, as type: Object.Type) {
        Unmanaged<Object>.fromOpaque(pointer).release()
    }
}
