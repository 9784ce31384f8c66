import CoreDataModel
import Foundation

/// The SQL that migrates an SQLite store from one model version to another under a mapping whose value
/// expressions are plain `$source.<key>` copies (every inferred mapping): per destination table whether it stays,
/// changes in place (`ALTER TABLE … RENAME/ADD COLUMN`) or is rebuilt by a table copy, and the statements that do
/// it. `SQLiteStoreMigrator` runs them inside one transaction with the metadata, `Z_PRIMARYKEY` and model cache.
public struct SQLiteMigrationPlan: Sendable {
    /// How a destination table gets its rows.
    public enum Method: String, Sendable {
        case unchanged = "unchanged"
        case inPlace = "in place (ALTER TABLE)"
        case copied = "table copy"
        case created = "created"
    }

    public struct TableStep: Sendable, Equatable {
        public var table: String
        public var method: Method
        public var notes: [String]
    }

    /// A required column that must hold a value in every row of some entities once the data is in place.
    public struct RequiredCheck: Sendable {
        public var table: String
        public var column: String
        public var entityNumbers: [Int]
        public var what: String
    }

    public var tables: [TableStep]
    /// Source tables dropped with everything in them (entities removed from the model).
    public var droppedTables: [String]
    /// Every statement, in order, for the transaction (before metadata).
    public var statements: [String]
    public var requiredChecks: [RequiredCheck]
    /// Destination root table → source root tables whose `Z_MAX` it inherits.
    public var primaryKeySources: [String: [String]]

    /// Whether every table is unchanged or changed in place (no table copy).
    public var isInPlace: Bool { !tables.contains { $0.method == .copied } }
}
