import CoreDataModel
import CoreDataObjectGraph
import CoreDataSQLiteFormat
import Dispatch
import Foundation
import Predicates
import SQLiteDatabase
import StoreAccess
import Synchronization

/// Counts that may take time (a whole entity, a predicate over an unindexed column) run here, on a read-only
/// connection of their own and a queue of their own, so the first screen never waits for them. Results are picked
/// up by the browser's tick; `cancelAll()` interrupts the statement running now.
///
/// The connection is confined to `queue`; the only cross-thread calls are `interrupt()` on its `Sendable` handle
/// and the result mailbox behind a mutex. A store that is not SQLite (XML, binary, a custom atomic store) holds its
/// objects in memory: it is counted through a context of its own on the same coordinator, which cannot be
/// interrupted, and SQL analyses are refused.
package final class BackgroundCounter: Sendable {
    /// What a count request asks for.
    package enum Job: Sendable {
        /// Rows of every entity, subentities included, keyed by entity name.
        case entityCounts
        /// Objects of `entity` matching `predicate` (nil for all).
        case objects(entity: String, predicate: PredicateNode?)
        /// Decides ahead of the first sort whether the texts of each string attribute of `entity` may be sorted by
        /// their bytes (``CoreDataObjectGraph/NSSQLiteStore/undecidedTextOrderChecks(for:)``): the columns are read
        /// on this connection, and `store` keeps the answers unless the database changed meanwhile.
        case textOrder(store: NSSQLiteStore, entity: NSEntityDescription)
    }

    /// The outcome of a job.
    package enum Outcome: Sendable, Equatable {
        case entityCounts([String: Int])
        case count(Int)
        /// Column → whether its texts may be sorted by their bytes.
        case textOrder([String: Bool])
        case cancelled
        case failed(String)
    }

    private struct State {
        var finished: [(ticket: Int, job: Job, outcome: Outcome)] = []
        var running: Set<Int> = []
        var nextTicket = 0
        var generation = 0
    }

    private let queue = DispatchQueue(label: "OpenCoreData.StoreBrowser.BackgroundCounter")
    /// The SQLite store's second connection; nil for other stores, counted through `objects`.
    private let connection: ConfinedConnection?
    private let interruptHandle: InterruptHandle?
    private let objects: ConfinedContext?
    private let compiler: PredicateSQLCompiler
    private let state = Mutex(State())

    /// Opens a second, read-only connection on the store at `path`, for `model`.
    package init(storePath path: String, model: NSManagedObjectModel) throws {
        let file = try SQLiteStoreFile(path: path, mode: .readOnly)
        try PredicateSQLFunctions.register(on: file.connection)
        try DerivedAttributeFunctions.register(on: file.connection)
        connection = ConfinedConnection(file: file)
        interruptHandle = file.connection.interruptHandle
        objects = nil
        compiler = PredicateSQLCompiler(model: model)
    }

    /// Counts the objects of a store that is not SQLite through a context of its own on `coordinator`.
    package init(coordinator: NSPersistentStoreCoordinator) {
        connection = nil
        interruptHandle = nil
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        objects = ConfinedContext(context: context)
        compiler = PredicateSQLCompiler(model: coordinator.managedObjectModel)
    }

    /// Starts `job` and returns its ticket; its outcome arrives in `takeFinished()`.
    @discardableResult
    package func start(_ job: Job) -> Int {
        let (ticket, generation) = state.withLock { state -> (Int, Int) in
            state.nextTicket += 1
            state.running.insert(state.nextTicket)
            return (state.nextTicket, state.generation)
        }
        queue.async { [self] in
            let cancelledBefore = state.withLock { $0.generation != generation }
            var outcome = cancelledBefore ? .cancelled : run(job)
            state.withLock { state in
                // An interrupted statement fails with whatever error wraps SQLITE_INTERRUPT: report it as cancelled.
                if state.generation != generation, case .failed = outcome { outcome = .cancelled }
                state.running.remove(ticket)
                state.finished.append((ticket, job, outcome))
            }
        }
        return ticket
    }

    /// Whether the counter reads an SQLite file (so `rows(of:)` answers), rather than counting through a context.
    package var runsSQL: Bool { connection != nil }

    /// Whether any job has not finished yet.
    package var isBusy: Bool { state.withLock { !$0.running.isEmpty } }

    /// The jobs finished since the last call, oldest first.
    package func takeFinished() -> [(ticket: Int, job: Job, outcome: Outcome)] {
        state.withLock { state in
            defer { state.finished.removeAll() }
            return state.finished
        }
    }

    /// Cancels every queued job and interrupts the one running now.
    package func cancelAll() {
        state.withLock { $0.generation += 1 }
        interruptHandle?.interrupt()
    }

    /// Waits until every job started so far has finished (tests and orderly shutdown).
    package func waitUntilIdle() {
        queue.sync {}
    }

    /// Runs a read-only query on the counter's connection and waits for its rows (after any count already
    /// queued). Analyses that scan the whole entity (describe) use it, so they never hold the browser's store.
    package func rows(of query: SQLQuery) throws -> [[SQLiteValue]] {
        guard let connection else {
            throw StoreAccessError("this analysis runs SQL, and the store is not an SQLite store")
        }
        return try queue.sync {
            try connection.file.connection.query(query.sql, arguments: query.bindings)
        }
    }

    /// Runs `body` with the counter's connection on its queue: tests make that connection slow to play a slow store.
    package func withConnection<T>(_ body: (Connection) throws -> T) throws -> T {
        guard let connection else { throw StoreAccessError("the store is not an SQLite store") }
        return try queue.sync { try body(connection.file.connection) }
    }

    // MARK: Running, on `queue`

    private func run(_ job: Job) -> Outcome {
        do {
            if let objects { return try objects.run(job) }
            guard let connection else { return .failed("no store") }
            switch job {
            case .entityCounts:
                return .entityCounts(try entityCounts(connection))
            case .objects(let entity, let predicate):
                let query = try compiler.fetch(entityName: entity, predicate: predicate, selection: .count)
                let value = try connection.file.connection.scalar(query.sql, arguments: query.bindings)
                return .count(Int(value?.int64Value ?? 0))
            case .textOrder(let store, let entity):
                // The store's lock is taken here, on the counter's queue, so the screen never waits for a sort
                // that holds it.
                guard let checks = try store.undecidedTextOrderChecks(for: entity) else { return .textOrder([:]) }
                var answers: [String: Bool] = [:]
                for (column, sql) in checks.queries {
                    answers[column] = try connection.file.connection.scalar(sql)?.int64Value == 1
                }
                try store.adoptTextOrder(answers, of: checks)
                return .textOrder(answers)
            }
        } catch {
            return .failed(String(describing: error))
        }
    }

    private func entityCounts(_ connection: ConfinedConnection) throws -> [String: Int] {
        let byNumber = try connection.file.rowCountsByEntityNumber(layout: compiler.layout)
        var counts: [String: Int] = [:]
        for entity in compiler.model.entities {
            var total = 0
            for member in entity.selfAndDescendants {
                if let number = compiler.layout.numbering[member.entityName] { total += byNumber[number] ?? 0 }
            }
            counts[entity.entityName] = total
        }
        return counts
    }
}

/// The counter's connection, used only on the counter's queue.
private final class ConfinedConnection: @unchecked Sendable {
    let file: SQLiteStoreFile
    init(file: SQLiteStoreFile) { self.file = file }
}

/// The counter's context for stores that are not SQLite, used only on the counter's queue.
private final class ConfinedContext: @unchecked Sendable {
    let context: NSManagedObjectContext
    init(context: NSManagedObjectContext) { self.context = context }

    func run(_ job: BackgroundCounter.Job) throws -> BackgroundCounter.Outcome {
        try context.performAndWait {
            switch job {
            case .entityCounts:
                var counts: [String: Int] = [:]
                for entity in context.persistentStoreCoordinator?.managedObjectModel.entities ?? [] {
                    counts[entity.entityName] = try context.count(for: NSFetchRequest<NSManagedObject>(entityName: entity.entityName))
                }
                return .entityCounts(counts)
            case .objects(let entity, let predicate):
                let request = NSFetchRequest<NSManagedObject>(entityName: entity)
                request.predicate = predicate.map { Predicates.NSPredicate(predicateNode: $0) }
                return .count(try context.count(for: request))
            case .textOrder:
                return .textOrder([:])  // only an SQLite store sorts in SQL
            }
        }
    }
}
