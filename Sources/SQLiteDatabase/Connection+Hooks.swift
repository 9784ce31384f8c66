import CSQLite

/// Something SQLite reports to a ``Connection/trace(options:_:)`` handler.
public enum TraceEvent: Sendable {
    /// A statement starts running. `sql` is its text (for a statement run by a trigger, a `-- trigger` comment);
    /// `expandedSQL` has the bound values written in.
    case statement(sql: String, expandedSQL: String)
    /// A statement finished, after `duration` of wall-clock time.
    case profile(sql: String, duration: Duration)
}

/// Keeps a trace handler alive while SQLite holds it.
final class TraceBox {
    let handler: (TraceEvent) -> Void

    init(handler: @escaping (TraceEvent) -> Void) {
        self.handler = handler
    }
}

/// Keeps a progress handler alive while SQLite holds it.
final class ProgressBox {
    let shouldContinue: () -> Bool

    init(shouldContinue: @escaping () -> Bool) {
        self.shouldContinue = shouldContinue
    }
}

/// Debugging and cancellation hooks.
extension Connection {
    /// Which events a trace handler receives.
    public struct TraceOptions: OptionSet, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        /// Each statement as it starts (``TraceEvent/statement(sql:expandedSQL:)``).
        public static let statements = TraceOptions(rawValue: UInt32(SQLITE_TRACE_STMT))
        /// Each statement as it ends, with its duration (``TraceEvent/profile(sql:duration:)``).
        public static let profiles = TraceOptions(rawValue: UInt32(SQLITE_TRACE_PROFILE))
    }

    /// Installs `handler` to receive the events in `options` (`sqlite3_trace_v2`), for debug logging; nil removes
    /// the current handler. The handler runs on the thread using the connection, during the statement.
    public func trace(options: TraceOptions = .statements, _ handler: ((TraceEvent) -> Void)?) {
        guard let handler, !options.isEmpty else {
            sqlite3_trace_v2(handle, 0, nil, nil)
            traceContext = nil
            return
        }
        let context = ConnectionOwnedContext(TraceBox(handler: handler))
        sqlite3_trace_v2(
            handle, options.rawValue,
            { kind, context, statementPointer, detail in
                guard let context, let statementPointer else { return 0 }
                let box = CallbackContext.object(at: context, as: TraceBox.self)
                let statement = OpaquePointer(statementPointer)
                switch Int32(kind) {
                case SQLITE_TRACE_STMT:
                    let sql = detail.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? ""
                    var expanded = sql
                    if let text = sqlite3_expanded_sql(statement) {
                        expanded = String(cString: text)
                        sqlite3_free(text)
                    }
                    box.handler(.statement(sql: sql, expandedSQL: expanded))
                case SQLITE_TRACE_PROFILE:
                    let nanoseconds = detail?.assumingMemoryBound(to: Int64.self).pointee ?? 0
                    let sql = sqlite3_sql(statement).map { String(cString: $0) } ?? ""
                    box.handler(.profile(sql: sql, duration: .nanoseconds(nanoseconds)))
                default:
                    break
                }
                return 0
            },
            context.pointer)
        // The connection owns the context; SQLite only borrows it. The previous one is released only now that SQLite
        // no longer points to it.
        traceContext = context
    }

    /// Installs a handler that SQLite calls about every `instructionCount` virtual-machine instructions of a
    /// running statement; when it returns `false`, the statement stops with ``ResultCode/interrupt``. Nil removes
    /// it.
    ///
    /// Use it to keep a user interface responsive or to enforce a budget; to cancel from another thread,
    /// ``InterruptHandle`` is simpler.
    public func setProgressHandler(every instructionCount: Int = 1000, _ shouldContinue: (() -> Bool)?) {
        guard let shouldContinue else {
            sqlite3_progress_handler(handle, 0, nil, nil)
            progressContext = nil
            return
        }
        let context = ConnectionOwnedContext(ProgressBox(shouldContinue: shouldContinue))
        sqlite3_progress_handler(
            handle, Int32(clamping: max(1, instructionCount)),
            { context in
                guard let context else { return 0 }
                let box = CallbackContext.object(at: context, as: ProgressBox.self)
                return box.shouldContinue() ? 0 : 1
            },
            context.pointer)
        progressContext = context
    }
}
