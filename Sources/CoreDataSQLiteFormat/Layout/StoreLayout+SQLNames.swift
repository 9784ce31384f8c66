import SQLiteDatabase

/// Table and column names as SQL writes them. Core Data's own names are plain identifiers and stay bare; a name
/// from an inferred model (taken from a store's schema) may hold spaces, quotes or control characters, and is
/// quoted with `"` doubled, so it neither breaks a statement nor injects SQL.
extension StoreLayout {
    /// `name` as an SQL identifier: bare when it is a plain ASCII identifier, double-quoted otherwise.
    public static func sqlIdentifier(_ name: String) -> String { SQLFragment.identifier(name) }
}

extension EntityTable {
    /// The table name as an SQL identifier (see ``StoreLayout/sqlIdentifier(_:)``).
    public var sqlName: String { SQLFragment.identifier(name) }
}

extension JoinTable {
    /// The join table's name as an SQL identifier (see ``StoreLayout/sqlIdentifier(_:)``).
    public var sqlName: String { SQLFragment.identifier(name) }
}
