/// The one place this module turns Swift objects into the `void *` context pointers SQLite hands back to its C
/// callbacks (functions, collations, auxiliary data, trace and progress hooks), and back.
///
/// A context pointer is the address of a heap cell holding one strong reference to the object: a typed
/// allocation, so no reference count is ever adjusted by hand. Two owners, and the rule for each:
/// - **SQLite** owns the cells of functions, collations and auxiliary data (``retained(_:)``): the cell is freed
///   exactly once, by the destroy callback SQLite calls when it drops the pointer (``release(_:as:)``), or by the
///   caller when SQLite refused the registration and will not call that callback.
/// - **The connection** owns the cells of its trace and progress hooks (``ConnectionOwnedContext``), and drops one
///   only after SQLite holds the pointer that replaces it.
///
/// ``object(at:as:)`` reads either kind; `Object` must be the type the cell was made for.
enum CallbackContext {
    static func retained<Object: AnyObject>(_ object: Object) -> UnsafeMutableRawPointer {
        let cell = UnsafeMutablePointer<Object>.allocate(capacity: 1)
        cell.initialize(to: object)
        return UnsafeMutableRawPointer(cell)
    }

    static func object<Object: AnyObject>(at pointer: UnsafeRawPointer, as type: Object.Type) -> Object {
        pointer.assumingMemoryBound(to: Object.self).pointee
    }

    /// Frees a ``retained(_:)`` cell and the reference it holds; the pointer must not be used afterwards.
    static func release<Object: AnyObject>(_ pointer: UnsafeRawPointer, as type: Object.Type) {
        let cell = UnsafeMutablePointer(mutating: pointer.assumingMemoryBound(to: Object.self))
        cell.deinitialize(count: 1)
        cell.deallocate()
    }
}

/// A callback context the connection keeps (its trace and progress hooks): the cell lives as long as this owner.
final class ConnectionOwnedContext<Object: AnyObject> {
    let pointer: UnsafeMutableRawPointer

    init(_ object: Object) {
        pointer = CallbackContext.retained(object)
    }

    deinit {
        CallbackContext.release(pointer, as: Object.self)
    }
}
