import Foundation
import GRDB
import OpenCoreData

/// Builders for the three kinds of implementation, so a workload file holds only what it measures.
enum Contenders {
    /// Our library: a fresh read-only stack per iteration (untimed), and the body on the context's queue, so that
    /// no queue hop is timed.
    static func ours(_ name: String, store url: URL, model: NSManagedObjectModel, rowCacheCapacity: Int? = nil,
                     _ body: @escaping (NSManagedObjectContext, Stopwatch) throws -> Void) -> Implementation {
        Implementation(name: name, contender: .ours) { watch in
            let stack = try OurStack(url: url, model: model, rowCacheCapacity: rowCacheCapacity)
            let before = stack.coordinator.statistics.snapshot.statements
            try stack.context.performAndWait { try body(stack.context, watch) }
            watch.storeStatements = stack.coordinator.statistics.snapshot.statements - before
        }
    }

    /// The SQLite C API on a connection opened outside the timing, as GRDB's suite does.
    static func raw(_ name: String = "raw SQLite", store url: URL,
                    _ body: @escaping (RawDatabase, Stopwatch) throws -> Void) -> Implementation {
        Implementation(name: name, contender: .raw) { watch in
            let database = try RawDatabase(path: url.path)
            try body(database, watch)
        }
    }

    /// GRDB on a read-only `DatabaseQueue` opened outside the timing.
    static func grdb(_ name: String, store url: URL, _ body: @escaping (Database, Stopwatch) throws -> Void) -> Implementation {
        Implementation(name: name, contender: .grdb) { watch in
            var configuration = Configuration()
            configuration.readonly = true
            let queue = try DatabaseQueue(path: url.path, configuration: configuration)
            try queue.read { database in try body(database, watch) }
        }
    }
}

/// An integer from a value read through key-value coding or dictionary results, whatever its integer type.
@inline(__always)
func integer(_ value: Any?) -> Int {
    switch value {
    case let value as Int64: return Int(value)
    case let value as Int: return value
    case let value as Int32: return Int(value)
    case let value as Int16: return Int(value)
    case let value as NSNumber: return value.intValue
    default: return 0
    }
}

/// Keeps a value alive past the stopwatch, so that freeing results is not timed for one contender and timed for
/// another; and keeps the optimiser from discarding work whose result is unused.
@inline(never)
func keep<T>(_ value: T) {
    withExtendedLifetime(value) {}
}
