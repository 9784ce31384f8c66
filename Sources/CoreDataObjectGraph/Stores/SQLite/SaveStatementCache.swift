import CoreDataModel
import CoreDataSQLiteFormat
import Foundation
import SQLiteDatabase

/// The prepared statements of the save path, kept by a store across saves.
///
/// A save of 10,000 inserted objects runs the same `INSERT` 10,000 times; preparing it once and rebinding it is
/// what a hand-written importer does, and parsing the SQL each time cost more than running it. Statements are keyed
/// by their SQL (plans for inserts, updates and deletes keep theirs directly) and reset after every run, so a
/// cached statement never holds a lock or a read transaction between saves.
///
/// Used only under the coordinator's lock, like the rest of the store.
final class SaveStatementCache {
    private var statements: [String: Statement] = [:]
    /// `INSERT` plans per entity.
    var insertPlans: [ObjectIdentifier: InsertPlan] = [:]
    /// `UPDATE` plans per entity and set of changed slots.
    var updatePlans: [UpdatePlanKey: RowWritePlan] = [:]
    /// `DELETE` plans per entity.
    var deletePlans: [ObjectIdentifier: DeletePlan] = [:]

    /// The statement for `sql`, prepared on first use.
    func statement(_ sql: String, on connection: Connection) throws(SQLiteError) -> Statement {
        if let statement = statements[sql] { return statement }
        let statement = try connection.prepare(sql, persistent: true)
        statements[sql] = statement
        return statement
    }

    /// Forgets every statement and plan (their SQL no longer fits the schema).
    func removeAll() {
        statements.removeAll()
        insertPlans.removeAll()
        updatePlans.removeAll()
        deletePlans.removeAll()
    }
}

/// How one slot of an object becomes bound parameters of a row-writing statement.
enum SlotBinding {
    /// An attribute's column.
    case attribute(slot: Int, NSAttributeDescription)
    /// A to-one relationship's key column, and its entity number and order key columns when it has them.
    case toOne(slot: Int, NSRelationshipDescription, entityNumber: Bool, orderKey: Bool)

    /// The number of parameters the slot binds.
    var parameterCount: Int {
        switch self {
        case .attribute: return 1
        case .toOne(_, _, let entityNumber, let orderKey): return 1 + (entityNumber ? 1 : 0) + (orderKey ? 1 : 0)
        }
    }
}

/// An `INSERT` or `UPDATE` of one entity's rows: its SQL, its prepared statement and how each slot binds.
struct RowWritePlan {
    var sql: String
    var statement: Statement
    var bindings: [SlotBinding]
    /// The slot of each binding, in order, when every binding is an attribute kept in its row (no relationships,
    /// no external storage): such a plan binds each value straight from its slot, without walking `bindings`
    /// (copying each enum retains its description) or building an `SQLiteValue` per column. Nil otherwise.
    let directSlots: [Int]?

    init(sql: String, statement: Statement, bindings: [SlotBinding]) {
        self.sql = sql
        self.statement = statement
        self.bindings = bindings
        var slots: [Int] = []
        for binding in bindings {
            guard case .attribute(let slot, let attribute) = binding, !attribute.allowsExternalBinaryDataStorage else {
                directSlots = nil
                return
            }
            slots.append(slot)
        }
        directSlots = slots
    }
}

/// The `INSERT` of an entity's rows: `Z_PK`, `Z_ENT`, `Z_OPT`, then every stored slot's columns.
struct InsertPlan {
    var row: RowWritePlan
    var entityNumber: Int64
}

struct UpdatePlanKey: Hashable {
    var entity: ObjectIdentifier
    var slots: [Int]
    /// To-one slots whose order key the update leaves alone.
    var withoutOrderKey: [Int]
}

/// The `DELETE` of an entity's rows, with the join-table rows that go with them.
struct DeletePlan {
    var sql: String
    var statement: Statement
    /// `DELETE FROM join WHERE key = ?` for every join table that holds this entity's key.
    var joinDeletes: [(sql: String, statement: Statement)]
}

/// Runs the statements of one save: cached statements, each reset after its run, the SQL log, and the statistics,
/// recorded once when the save ends rather than under the coordinator's statistics lock for every row.
final class SaveWriter {
    let connection: Connection
    let cache: SaveStatementCache
    let storePath: String?
    /// The SQL log's level when the save began: bindings are collected only when it would print them. The level
    /// decides what is logged, never what is bound or how.
    let logLevel: Int
    /// Statements run and virtual-machine steps taken, for the statistics.
    private(set) var statements = 0
    private(set) var steps = 0
    /// The values bound to the statement being prepared for a run, collected only for the SQL log.
    private var loggedBindings: [SQLiteValue] = []

    init(connection: Connection, cache: SaveStatementCache, storePath: String?) {
        self.connection = connection
        self.cache = cache
        self.storePath = storePath
        logLevel = SQLDebugLog.level
    }

    /// Binds one value, and remembers it for the SQL log when the log shows bindings.
    @inline(__always)
    func bind(_ value: SQLiteValue, at index: Int, of statement: Statement) throws {
        if logLevel >= 2 { loggedBindings.append(value) }
        try wrap { () throws(SQLiteError) in try statement.bind(value, at: index) }
    }

    /// Binds an integer (keys, versions, entity numbers) without building an `SQLiteValue`, unless the log shows it.
    @inline(__always)
    func bind(integer value: Int64, at index: Int, of statement: Statement) throws {
        if logLevel >= 2 { loggedBindings.append(.integer(value)) }
        try bindUnlogged(integer: value, at: index, of: statement)
    }

    /// Binds an integer that stays bound across runs of the statement (a reset keeps bindings); each run logs it
    /// with `logBinding(_:)`.
    @inline(__always)
    func bindUnlogged(integer value: Int64, at index: Int, of statement: Statement) throws {
        try wrap { () throws(SQLiteError) in try statement.bind(value, at: index) }
    }

    /// Adds a value to the bindings the next logged statement lists, binding nothing.
    @inline(__always)
    func logBinding(_ value: SQLiteValue) {
        if logLevel >= 2 { loggedBindings.append(value) }
    }

    /// Binds an attribute's stored value in Core Data's column encoding straight from the slot, for the common
    /// types (the binding of `NSSQLiteStore.encode(_:for:files:)`, without its `SQLiteValue`); false, binding nothing,
    /// for the others, which the caller encodes. Only for attributes without external storage. While the SQL log
    /// shows bindings, the value bound is also listed for it.
    @inline(__always)
    func bindDirect(_ stored: StoredValue, at index: Int, of statement: Statement) throws -> Bool {
        if logLevel >= 2, let logged = Self.directValue(stored) { loggedBindings.append(logged) }
        do throws(SQLiteError) {
            switch stored {
            case .null:
                try statement.bindNull(at: index)
            case .attribute(let value):
                switch value {
                case .integer(let integer): try statement.bind(integer, at: index)
                case .double(let double): try statement.bind(double, at: index)
                case .string(let string): try statement.bind(string, at: index)
                case .date(let date): try statement.bind(date.timeIntervalSinceReferenceDate, at: index)
                case .boolean(let bool): try statement.bind(Int64(bool ? 1 : 0), at: index)
                case .float(let float): try statement.bind(Double(float), at: index)
                case .decimal, .data, .uuid, .uri: return false
                }
            case .toOne, .externalData:
                return false
            }
        } catch {
            throw CoreDataError(.sqlite, "\(storePath ?? "store"): \(error.description)", underlyingError: error)
        }
        return true
    }

    /// What `bindDirect(_:at:of:)` binds for `stored`, as the log lists it; nil for what it does not bind.
    private static func directValue(_ stored: StoredValue) -> SQLiteValue? {
        switch stored {
        case .null: return .null
        case .attribute(let value):
            switch value {
            case .integer(let integer): return .integer(integer)
            case .double(let double): return .real(double)
            case .string(let string): return .text(string)
            case .date(let date): return .real(date.timeIntervalSinceReferenceDate)
            case .boolean(let bool): return .integer(bool ? 1 : 0)
            case .float(let float): return .real(Double(float))
            case .decimal, .data, .uuid, .uri: return nil
            }
        case .toOne, .externalData: return nil
        }
    }

    /// Runs a statement whose parameters are bound, then resets it.
    func run(_ statement: Statement, sql: String) throws {
        if logLevel >= 1 {
            SQLDebugLog.statement(sql, bindings: loggedBindings, store: storePath)
            loggedBindings.removeAll(keepingCapacity: true)
        }
        defer { statement.reset() }
        try wrap { () throws(SQLiteError) in try statement.run() }
        statements += 1
        steps += statement.statusCounter(.virtualMachineSteps, reset: true)
    }

    /// Steps a statement whose parameters are bound, for a read inside the save: true while it has a row. The
    /// caller resets it.
    func step(_ statement: Statement, sql: String) throws -> Bool {
        if logLevel >= 1 {
            SQLDebugLog.statement(sql, bindings: loggedBindings, store: storePath)
            loggedBindings.removeAll(keepingCapacity: true)
        }
        let row = try wrap { () throws(SQLiteError) in try statement.step() }
        statements += 1
        return row
    }

    /// Runs `sql` with `bindings` on a cached statement.
    func run(_ sql: String, _ bindings: [SQLiteValue]) throws {
        let statement = try wrap { () throws(SQLiteError) in try cache.statement(sql, on: connection) }
        for (offset, value) in bindings.enumerated() { try bind(value, at: offset + 1, of: statement) }
        try run(statement, sql: sql)
    }

    /// A cached statement for `sql`, for plans.
    func statement(_ sql: String) throws -> Statement {
        try wrap { () throws(SQLiteError) in try cache.statement(sql, on: connection) }
    }

    /// SQLite's errors as Core Data reports them.
    @inline(__always)
    private func wrap<T>(_ body: () throws(SQLiteError) -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw CoreDataError(.sqlite, "\(storePath ?? "store"): \(error.description)", underlyingError: error)
        }
    }
}
