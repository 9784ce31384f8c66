import CoreDataSQLiteFormat
import Foundation
import SQLiteDatabase

/// The SQLite pragmas a store sets when it opens (`[String: Any]`, name to value), as Apple's
/// `NSPersistentStoreDescription.setValue(_:forPragmaNamed:)` writes them.
public let NSSQLitePragmasOption = "NSSQLitePragmasOption"

/// A Boolean option: when true, an SQLite store runs SQLite's `ANALYZE` as it is added, so the query planner has
/// fresh statistics about the store's indexes. Other stores ignore it; a read-only store skips it (it writes).
public let NSSQLiteAnalyzeOption = "NSSQLiteAnalyzeOption"
/// A Boolean option: when true, an SQLite store rebuilds its file with SQLite's `VACUUM` as it is added, giving the
/// free pages back to the file system. Other stores ignore it; a read-only store skips it (it writes).
public let NSSQLiteManualVacuumOption = "NSSQLiteManualVacuumOption"

extension NSSQLiteStore {
    /// Runs the maintenance `NSSQLiteManualVacuumOption` and `NSSQLiteAnalyzeOption` ask for, once the store is open.
    func runMaintenanceOnOpen() throws {
        guard !isReadOnly else { return }
        func isSet(_ key: String) -> Bool {
            (storeOptions[key] as? Bool) ?? (storeOptions[key] as? NSNumber)?.boolValue ?? false
        }
        for (key, sql) in [(NSSQLiteManualVacuumOption, "VACUUM"), (NSSQLiteAnalyzeOption, "ANALYZE")] where isSet(key) {
            do {
                try file.connection.execute(sql: sql)
            } catch {
                throw CoreDataError(.persistentStoreOpen, "\(url?.path ?? "the store"): \(sql) (\(key)): \(error)", underlyingError: error)
            }
        }
    }

    /// Sets the pragmas of `NSSQLitePragmasOption` on the store's connection. A pragma cannot take a bound
    /// parameter, so names must be identifiers and values numbers or identifiers; anything else is refused, naming it.
    func applyPragmas() throws {
        guard let pragmas = storeOptions[NSSQLitePragmasOption] as? [String: Any] else { return }
        for (name, value) in pragmas.sorted(by: { $0.key < $1.key }) {
            let text: String
            switch value {
            case let number as NSNumber: text = number.stringValue
            case let string as String: text = string
            default: text = "\(value)"
            }
            guard Self.isPragmaWord(name), Self.isPragmaWord(text) || Double(text) != nil else {
                throw CoreDataError(.persistentStoreOpen, "\(url?.path ?? "the store"): the SQLite pragma \(name) = \(text) is not a name and a number or word")
            }
            do {
                try file.connection.execute(sql: "PRAGMA \(name) = \(text)")
            } catch {
                throw CoreDataError(.persistentStoreOpen, "\(url?.path ?? "the store"): PRAGMA \(name) = \(text): \(error)", underlyingError: error)
            }
        }
    }

    private static func isPragmaWord(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { $0 == UInt8(ascii: "_") || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }
    }
}
