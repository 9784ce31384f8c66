import CoreDataSQLiteFormat
import Foundation
import SQLiteDatabase

/// Stores that record persistent history (Apple's `ATRANSACTION` and `ACHANGE` tables). OpenCoreData does not write
/// history yet, so a save of ours would leave the app that owns the store blind to our changes. Apple's framework,
/// opening such a store without history tracking, forces it read-only; so do we, with the reason in every refusal.
extension NSSQLiteStore {
    /// The tables whose presence means the store records persistent history.
    static let historyTables = ["ATRANSACTION", "ACHANGE"]

    /// Why the store refuses to write although it was opened read-write; nil when it writes.
    func historyRefusal() throws -> String? {
        let found = try connection.query(StoreSQL.existingTables(count: Self.historyTables.count),
                                         arguments: Self.historyTables.map { .text($0) })
        guard !found.isEmpty else { return nil }
        return "\(url?.path ?? "the store") records persistent history (tables \(Self.historyTables.joined(separator: ", "))), which "
            + "OpenCoreData does not write yet; like Apple's Core Data opening it without history tracking, it is read-only"
    }
}
