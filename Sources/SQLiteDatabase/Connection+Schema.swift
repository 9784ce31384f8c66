import CSQLite

/// A column of a table, as `PRAGMA table_info` describes it.
public struct ColumnInfo: Sendable, Hashable {
    /// The column name.
    public var name: String
    /// The type as declared (`INTEGER`, `VARCHAR`, `TIMESTAMP`, …), empty when none was given.
    public var declaredType: String
    /// Whether the column has a `NOT NULL` constraint.
    public var isNotNull: Bool
    /// The default value as SQL text (`0`, `'x'`, `CURRENT_TIMESTAMP`), or nil when there is none.
    public var defaultValueSQL: String?
    /// The column's position in the primary key, starting at 1, or 0 when it is not part of it.
    public var primaryKeyPosition: Int

    public init(name: String, declaredType: String, isNotNull: Bool, defaultValueSQL: String?, primaryKeyPosition: Int) {
        self.name = name
        self.declaredType = declaredType
        self.isNotNull = isNotNull
        self.defaultValueSQL = defaultValueSQL
        self.primaryKeyPosition = primaryKeyPosition
    }
}

/// An index, as `PRAGMA index_list` and `PRAGMA index_xinfo` describe it.
public struct IndexInfo: Sendable, Hashable {
    /// How an index came to exist.
    public enum Origin: String, Sendable, Hashable {
        /// `CREATE INDEX`.
        case createIndex = "c"
        /// A `UNIQUE` constraint.
        case uniqueConstraint = "u"
        /// A `PRIMARY KEY` constraint (on a table whose primary key is not the rowid).
        case primaryKey = "pk"
    }

    /// The index name (`sqlite_autoindex_…` for constraint indexes).
    public var name: String
    public var isUnique: Bool
    public var origin: Origin
    /// Whether the index has a `WHERE` clause.
    public var isPartial: Bool
    /// The key columns, in index order.
    public var columns: [IndexColumn]

    public init(name: String, isUnique: Bool, origin: Origin, isPartial: Bool, columns: [IndexColumn]) {
        self.name = name
        self.isUnique = isUnique
        self.origin = origin
        self.isPartial = isPartial
        self.columns = columns
    }
}

/// A key column of an index.
public struct IndexColumn: Sendable, Hashable {
    /// The table column, or nil when the key is an expression.
    public var name: String?
    public var isDescending: Bool
    /// The collation (`BINARY`, `NOCASE`, …).
    public var collation: String

    public init(name: String?, isDescending: Bool, collation: String) {
        self.name = name
        self.isDescending = isDescending
        self.collation = collation
    }
}

/// Schema introspection and pragmas.
extension Connection {
    /// The names of the tables of the main database, sorted; SQLite's internal tables (`sqlite_sequence`,
    /// `sqlite_stat1`, …) are left out unless `includingInternal` is true.
    public func tables(includingInternal: Bool = false) throws(SQLiteError) -> [String] {
        let statement = try prepare(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND (?1 OR name NOT LIKE 'sqlite\\_%' ESCAPE '\\') "
                + "ORDER BY name")
        try statement.bind(includingInternal, at: 1)
        var names: [String] = []
        while try statement.step() { names.append(statement.string(at: 0) ?? "") }
        return names
    }

    /// Whether the main database has a table called `name` (compared without regard to ASCII case).
    public func tableExists(_ name: String) throws(SQLiteError) -> Bool {
        try scalar("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ? COLLATE NOCASE", arguments: [
            .text(name)
        ]) != nil
    }

    /// The columns of `table`, in declaration order.
    ///
    /// - Throws: ``ResultCode/error`` when there is no such table or view.
    public func columns(in table: String) throws(SQLiteError) -> [ColumnInfo] {
        let statement = try prepare("SELECT name, type, \"notnull\", dflt_value, pk FROM pragma_table_info(?)")
        try statement.bind(table, at: 1)
        var columns: [ColumnInfo] = []
        while try statement.step() {
            columns.append(
                ColumnInfo(
                    name: statement.string(at: 0) ?? "",
                    declaredType: statement.string(at: 1) ?? "",
                    isNotNull: statement.int64(at: 2) != 0,
                    defaultValueSQL: statement.string(at: 3),
                    primaryKeyPosition: statement.int(at: 4)))
        }
        guard !columns.isEmpty else { throw noSuchTable(table) }
        return columns
    }

    /// The indexes on `table`, sorted by name, with their key columns.
    ///
    /// - Throws: ``ResultCode/error`` when there is no such table.
    public func indexes(on table: String) throws(SQLiteError) -> [IndexInfo] {
        guard try tableExists(table) else { throw noSuchTable(table) }
        let list = try prepare("SELECT name, \"unique\", origin, partial FROM pragma_index_list(?) ORDER BY name")
        try list.bind(table, at: 1)
        let keys = try prepare("SELECT name, \"desc\", coll FROM pragma_index_xinfo(?) WHERE key ORDER BY seqno")
        var indexes: [IndexInfo] = []
        while try list.step() {
            let name = list.string(at: 0) ?? ""
            keys.reset()
            try keys.bind(name, at: 1)
            var columns: [IndexColumn] = []
            while try keys.step() {
                columns.append(
                    IndexColumn(name: keys.string(at: 0), isDescending: keys.int64(at: 1) != 0,
                        collation: keys.string(at: 2) ?? "BINARY"))
            }
            indexes.append(
                IndexInfo(
                    name: name, isUnique: list.int64(at: 1) != 0,
                    origin: IndexInfo.Origin(rawValue: list.string(at: 2) ?? "c") ?? .createIndex,
                    isPartial: list.int64(at: 3) != 0, columns: columns))
        }
        return indexes
    }

    /// The `CREATE` statements of the main database, in the order SQLite stored them (`sqlite_master` rowid order),
    /// without trailing semicolons. Automatic indexes, which have no SQL, are left out.
    public func schemaStatements() throws(SQLiteError) -> [String] {
        let statement = try prepare("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY rowid")
        var statements: [String] = []
        while try statement.step() { statements.append(statement.string(at: 0) ?? "") }
        return statements
    }

    /// The schema as `sqlite3 … .schema` prints it: each statement of ``schemaStatements()`` followed by `;` and a
    /// newline.
    public func schemaSQL() throws(SQLiteError) -> String {
        try schemaStatements().map { $0 + ";\n" }.joined()
    }

    // MARK: - Pragmas

    /// A journal mode (`PRAGMA journal_mode`).
    public enum JournalMode: String, Sendable, Hashable, CaseIterable {
        case delete, truncate, persist, memory, wal, off
    }

    /// An auto-vacuum mode (`PRAGMA auto_vacuum`).
    public enum AutoVacuumMode: Int, Sendable, Hashable {
        case none = 0, full = 1, incremental = 2
    }

    /// The first value returned by `PRAGMA name`, or nil when the pragma returns no row.
    ///
    /// - Parameter name: a pragma name, optionally schema-qualified (`main.page_size`); anything else is refused
    ///   with ``ResultCode/misuse`` rather than put into SQL.
    public func pragma(_ name: String) throws(SQLiteError) -> SQLiteValue? {
        try scalar("PRAGMA \(try validatedPragmaName(name))")
    }

    /// Sets `PRAGMA name = value` and returns the value the pragma reports afterwards, if any.
    @discardableResult
    public func setPragma(_ name: String, to value: SQLiteValue) throws(SQLiteError) -> SQLiteValue? {
        let literal: String
        switch value {
        case .text(let text) where text.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }):
            literal = text
        case .integer, .real, .text, .null:
            literal = value.description
        case .blob:
            throw SQLiteError(.mismatch, message: "a pragma cannot be set to a blob", path: path)
        }
        return try scalar("PRAGMA \(try validatedPragmaName(name)) = \(literal)")
    }

    /// The journal mode of the main database.
    public func journalMode() throws(SQLiteError) -> JournalMode {
        try journalMode(from: pragma("journal_mode"))
    }

    /// Changes the journal mode and returns the resulting one (SQLite keeps the old mode when it cannot switch,
    /// for example to WAL on a read-only or in-memory database).
    @discardableResult
    public func setJournalMode(_ mode: JournalMode) throws(SQLiteError) -> JournalMode {
        try journalMode(from: setPragma("journal_mode", to: .text(mode.rawValue)))
    }

    /// The page size in bytes.
    public func pageSize() throws(SQLiteError) -> Int {
        Int(try pragma("page_size")?.int64Value ?? 0)
    }

    /// The auto-vacuum mode.
    public func autoVacuum() throws(SQLiteError) -> AutoVacuumMode {
        AutoVacuumMode(rawValue: Int(try pragma("auto_vacuum")?.int64Value ?? 0)) ?? .none
    }

    /// The application's own schema version number stored in the header (`PRAGMA user_version`).
    public func userVersion() throws(SQLiteError) -> Int32 {
        Int32(truncatingIfNeeded: try pragma("user_version")?.int64Value ?? 0)
    }

    /// Stores `version` as `PRAGMA user_version`.
    public func setUserVersion(_ version: Int32) throws(SQLiteError) {
        try execute(sql: "PRAGMA user_version = \(version)")
    }

    /// SQLite's schema cookie, incremented by every schema change (`PRAGMA schema_version`).
    public func schemaVersion() throws(SQLiteError) -> Int32 {
        Int32(truncatingIfNeeded: try pragma("schema_version")?.int64Value ?? 0)
    }

    /// Runs `PRAGMA integrity_check` and returns its messages: exactly `["ok"]` for a sound database.
    ///
    /// - Parameter maximumErrors: the number of problems after which the check stops.
    public func integrityCheck(maximumErrors: Int = 100) throws(SQLiteError) -> [String] {
        try query("PRAGMA integrity_check(\(max(1, maximumErrors)))").map { $0.first?.stringValue ?? "" }
    }

    /// Runs the faster `PRAGMA quick_check` (no index content verification); `["ok"]` for a sound database.
    public func quickCheck(maximumErrors: Int = 100) throws(SQLiteError) -> [String] {
        try query("PRAGMA quick_check(\(max(1, maximumErrors)))").map { $0.first?.stringValue ?? "" }
    }

    // MARK: - Support

    private func noSuchTable(_ table: String) -> SQLiteError {
        SQLiteError(.error, message: "no such table: \(table)", path: path)
    }

    private func validatedPragmaName(_ name: String) throws(SQLiteError) -> String {
        let isValid = !name.isEmpty
            && name.utf8.allSatisfy { byte in
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
                    || byte == UInt8(ascii: ".")
            }
        guard isValid else {
            throw SQLiteError(.misuse, message: "invalid pragma name \(name)", path: path)
        }
        return name
    }

    private func journalMode(from value: SQLiteValue?) throws(SQLiteError) -> JournalMode {
        let text = value?.stringValue?.lowercased() ?? ""
        guard let mode = JournalMode(rawValue: text) else {
            throw SQLiteError(.error, message: "unknown journal mode \(text)", path: path)
        }
        return mode
    }
}
